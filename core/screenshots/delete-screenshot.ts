// DELETE /v1/screenshots/{id}: the screenshot, its links and its image, for good. The row goes first
// (a row always names an image); should the image's removal fail after it, the image is left where no
// one reads it, and the failure logged.
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { screenshotNotFound, screenshotObjectKey } from './screenshot-rows.ts';
import { DeleteScreenshotCommand } from './schemas.ts';

export const deleteScreenshot = useCase(DeleteScreenshotCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'objects' | 'log'>, input): Promise<void> => {
  const { projectId, screenshotId, actor } = input;
  await transaction(deps, async (tx) => {
    const [removed] = await tx.sql<{ name: string }[]>`
      delete from screenshots where id = ${screenshotId} and project_id = ${projectId} returning name`;
    if (!removed) throw screenshotNotFound();
    tx.record({ type: 'screenshot.deleted', projectId, actor, entity: { type: 'screenshot', id: screenshotId }, before: { name: removed.name } });
  });
  const objectKey = screenshotObjectKey(projectId, screenshotId);
  await deps.objects.delete([objectKey]).catch((error: unknown) => deps.log.warn('screenshot image not removed', { objectKey, error: String(error) }));
});
