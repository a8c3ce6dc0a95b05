// GET /v1/screenshots: the project's screenshots in upload order, all or a page; with key_id, those
// that show that key (the portal's key page, a translator's "where is this?").
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { screenshotColumns, toScreenshot, type ScreenshotRow } from './screenshot-rows.ts';
import { ListScreenshotsCommand, type ScreenshotList } from './schemas.ts';

export const listScreenshots = useCase(ListScreenshotsCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<ScreenshotList> => {
  const { sql } = deps;
  const { projectId, keyId, limit, cursor } = input;
  if (keyId !== undefined) {
    const [key] = await sql`select 1 from translation_keys where id = ${keyId} and project_id = ${projectId} and deleted_at is null`;
    if (!key) throw notFound('Key not found');
  }
  const showing = keyId === undefined ? sql`` : sql`and exists (select 1 from screenshot_keys l where l.screenshot_id = s.id and l.key_id = ${keyId})`;
  const paged = limit !== undefined || cursor !== undefined;
  const take = limit ?? 100;
  const [rows, [{ count } = { count: 0 }]] = await Promise.all([
    sql<ScreenshotRow[]>`
      select ${screenshotColumns(sql)} from screenshots s
      where s.project_id = ${projectId} ${showing} ${cursor === undefined ? sql`` : sql`and s.seq > ${cursor}::bigint`}
      order by s.seq ${paged ? sql`limit ${take + 1}` : sql``}`,
    sql<{ count: number }[]>`select count(*)::int as count from screenshots s where s.project_id = ${projectId} ${showing}`,
  ]);
  const more = paged && rows.length > take;
  const page = more ? rows.slice(0, take) : rows;
  return {
    project_id: projectId,
    screenshots: page.map(toScreenshot),
    count,
    ...(paged ? { next_cursor: more ? page[page.length - 1]!.seq : null } : {}),
  };
});
