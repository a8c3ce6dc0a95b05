// GET /v1/screenshots/{id}/image: the image's bytes, from the object store. An id's image never
// changes, so its SHA-256 is a strong validator: a client that has it gets a 304 without the object
// store being asked.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import * as v from 'valibot';
import { imageEtag, screenshotNotFound, screenshotObjectKey } from './screenshot-rows.ts';
import { ScreenshotCommand, type ScreenshotType } from './schemas.ts';

const ReadImageCommand = v.object({ ...ScreenshotCommand.entries, ifNoneMatch: v.optional(v.string()) });

export type ScreenshotImage =
  | { kind: 'image'; body: Uint8Array; contentType: ScreenshotType; etag: string; name: string }
  | { kind: 'not-modified'; etag: string };

/** Whether an If-None-Match header names this validator (a list, weak forms and * included, RFC 9110 13.1.2). */
const matches = (header: string, etag: string) =>
  header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);

export const readScreenshotImage = useCase(ReadImageCommand, async (deps: Pick<Deps, 'sql' | 'objects'>, input): Promise<ScreenshotImage> => {
  const [row] = await deps.sql<{ sha256: string; content_type: ScreenshotType; name: string }[]>`
    select sha256, content_type, name from screenshots where id = ${input.screenshotId} and project_id = ${input.projectId}`;
  if (!row) throw screenshotNotFound();
  const etag = imageEtag(row.sha256);
  if (input.ifNoneMatch !== undefined && matches(input.ifNoneMatch, etag)) return { kind: 'not-modified', etag };
  const stored = await deps.objects.get(screenshotObjectKey(input.projectId, input.screenshotId));
  // Deleted between the two reads: as if the row had been gone already.
  if (stored.kind !== 'found') throw screenshotNotFound();
  return { kind: 'image', body: stored.object.body, contentType: row.content_type, etag, name: row.name };
});
