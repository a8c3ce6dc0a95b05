// GET /v1/screenshots/{id}: one screenshot of the project, with the live keys it shows.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { screenshotColumns, screenshotNotFound, toScreenshot, type ScreenshotRow } from './screenshot-rows.ts';
import { ScreenshotCommand, type Screenshot } from './schemas.ts';

export const getScreenshot = useCase(ScreenshotCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<Screenshot> => {
  const [row] = await deps.sql<ScreenshotRow[]>`
    select ${screenshotColumns(deps.sql)} from screenshots s where s.id = ${input.screenshotId} and s.project_id = ${input.projectId}`;
  if (!row) throw screenshotNotFound();
  return toScreenshot(row);
});
