// POST /v1/screenshots: an image of a screen, read from its own bytes (PNG, JPEG or WebP), stored in
// the object store, and linked to the keys it shows. Recorded as screenshot.added; nothing served
// changes: no rebuild, no webhook.
import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { readImageInfo } from './image-info.ts';
import { changeLinks } from './screenshot-links.ts';
import { screenshotColumns, screenshotObjectKey, toScreenshot, type ScreenshotRow } from './screenshot-rows.ts';
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_MAX_SIDE, SCREENSHOTS_PER_PROJECT_MAX, UploadScreenshotCommand, type Screenshot } from './schemas.ts';

const EXTENSION = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;

export const uploadScreenshot = useCase(
  UploadScreenshotCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'objects' | 'log' | 'clock'>, input): Promise<Screenshot> => {
    const { projectId, actor, body, keyIds, regions } = input;
    if (body.length > SCREENSHOT_MAX_BYTES) {
      throw validationError([{ loc: ['body'], msg: `the image is ${body.length.toLocaleString('en-US')} bytes; at most ${SCREENSHOT_MAX_BYTES.toLocaleString('en-US')} (4 MiB) are taken`, type: 'too_large' }]);
    }
    const reading = readImageInfo(body);
    if (!reading.ok) throw validationError([{ loc: ['body'], msg: reading.reason, type: 'image_invalid' }]);
    const { contentType, width, height } = reading.info;
    if (width > SCREENSHOT_MAX_SIDE || height > SCREENSHOT_MAX_SIDE) {
      throw validationError([{ loc: ['body'], msg: `the image is ${width} x ${height} pixels; each side may be at most ${SCREENSHOT_MAX_SIDE.toLocaleString('en-US')}`, type: 'image_invalid' }]);
    }
    const id = randomUUID();
    const name = input.name ?? `Screenshot ${deps.clock.now().toISOString().slice(0, 16).replace('T', ' ')}.${EXTENSION[contentType]}`;
    const objectKey = screenshotObjectKey(projectId, id);
    // The image first, the row after it: a row always names a stored image. Should the row not be
    // written (a refusal below, a lost connection), the image is removed again.
    await deps.objects.put(objectKey, body, { contentType, fresh: true });
    try {
      return await transaction(deps, async (tx) => {
        // The project's row, locked against other uploads, so that two cannot both pass the count.
        // The count is a statement of its own, sent with the lock (one round trip): in READ
        // COMMITTED a statement sees what was committed when it started, so a count inside the
        // locking statement would not see the upload it waited for (four uploads at 998 all passed).
        const [, [counted]] = await Promise.all([
          tx.sql`select 1 from projects where id = ${projectId} for no key update`,
          tx.sql<{ screenshots: number }[]>`select count(*)::int as screenshots from screenshots where project_id = ${projectId}`,
        ]);
        if ((counted?.screenshots ?? 0) >= SCREENSHOTS_PER_PROJECT_MAX) {
          throw validationError([{ loc: ['body'], msg: `the project already has ${SCREENSHOTS_PER_PROJECT_MAX.toLocaleString('en-US')} screenshots, the most it keeps: delete some before adding more`, type: 'too_many' }]);
        }
        await tx.sql`
          insert into screenshots (id, project_id, name, content_type, width, height, bytes, sha256)
          values (${id}, ${projectId}, ${name}, ${contentType}, ${width}, ${height}, ${body.length}, ${createHash('sha256').update(body).digest('hex')})`;
        // Each key once, with its region when a region parameter gives one; a refusal names the
        // parameter where the query first gave the key (its region parameter when it has one: a
        // region outside the image is that parameter's fault).
        const marked = new Map(regions.map((r, index) => [r.keyId, { region: r.region, index }]));
        const loc = (keyId: string) => {
          const mark = marked.get(keyId);
          return mark ? ['query', 'region', mark.index] : ['query', 'key_id', keyIds.indexOf(keyId)];
        };
        const { linked } = await changeLinks(tx.sql, {
          projectId,
          screenshotId: id,
          width,
          height,
          changes: [...new Set([...keyIds, ...marked.keys()])].map((keyId) => ({ keyId, link: marked.has(keyId) ? { region: marked.get(keyId)!.region } : {} })),
          loc,
          regionLoc: (keyId, field) => [...loc(keyId), field],
          tooManyLoc: ['query', regions.length > 0 && keyIds.length === 0 ? 'region' : 'key_id'],
        });
        const [row] = await tx.sql<ScreenshotRow[]>`select ${screenshotColumns(tx.sql)} from screenshots s where s.id = ${id}`;
        const record = toScreenshot(row!);
        tx.record({ type: 'screenshot.added', projectId, actor, entity: { type: 'screenshot', id }, after: { name, width, height, keys: linked } });
        return record;
      });
    } catch (error) {
      await deps.objects.delete([objectKey]).catch((cause: unknown) => deps.log.warn('screenshot image left after a refused upload', { objectKey, error: String(cause) }));
      throw error;
    }
  },
);
