// PATCH /v1/screenshots/{id}: its name, and the keys it shows merged into its links ({"<key_id>": {}}
// links, {"region": {…}} marks where, null unlinks). Recorded as screenshot.updated when something
// changed; a PATCH that changes nothing records nothing.
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { changeLinks } from './screenshot-links.ts';
import { screenshotColumns, screenshotNotFound, toScreenshot, type ScreenshotRow } from './screenshot-rows.ts';
import { UpdateScreenshotCommand, type Screenshot } from './schemas.ts';

export const updateScreenshot = useCase(UpdateScreenshotCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Screenshot> => {
  const { projectId, actor, screenshotId } = input;
  return transaction(deps, async (tx) => {
    // Locked: two PATCHes of one screenshot's links apply one after the other, each to what the other left.
    const [current] = await tx.sql<{ name: string; width: number; height: number }[]>`
      select name, width, height from screenshots where id = ${screenshotId} and project_id = ${projectId} for no key update`;
    if (!current) throw screenshotNotFound();
    const renamed = input.name !== undefined && input.name !== current.name;
    const links = await changeLinks(tx.sql, {
      projectId,
      screenshotId,
      width: current.width,
      height: current.height,
      changes: Object.entries(input.keys ?? {}).map(([keyId, link]) => ({ keyId, link })),
      loc: (keyId) => ['body', 'keys', keyId],
      tooManyLoc: ['body', 'keys'],
    });
    const changed = renamed || links.linked.length + links.unlinked.length + links.moved.length > 0;
    if (changed) {
      await tx.sql`update screenshots set ${renamed ? tx.sql`name = ${input.name!},` : tx.sql``} updated_at = now() where id = ${screenshotId}`;
      tx.record({
        type: 'screenshot.updated',
        projectId,
        actor,
        entity: { type: 'screenshot', id: screenshotId },
        before: { name: current.name },
        after: {
          ...(renamed ? { name: input.name } : { name: current.name }),
          ...(links.linked.length > 0 ? { linked: links.linked } : {}),
          ...(links.unlinked.length > 0 ? { unlinked: links.unlinked } : {}),
          ...(links.moved.length > 0 ? { moved: links.moved } : {}),
        },
      });
    }
    const [row] = await tx.sql<ScreenshotRow[]>`select ${screenshotColumns(tx.sql)} from screenshots s where s.id = ${screenshotId}`;
    return toScreenshot(row!);
  });
});
