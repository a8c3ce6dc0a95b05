// /v1/screenshots: images of the product's screens, linked to the keys they show (core/screenshots;
// docs/decisions.md, "Screenshots"). Nothing here changes what is served: no rebuild, no webhook.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { respond, respondJson } from '../http/response-headers.ts';
import { MAX_BODY_BYTES, requestBodyLimit } from '../http/body-limit.ts';
import { routeGroup } from '../http/route-group.ts';
import { Uuid } from '../../core/validation.ts';
import {
  KEYS_PER_SCREENSHOT_MAX,
  ListScreenshotsQuery,
  Screenshot,
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_MAX_SIDE,
  ScreenshotList,
  SCREENSHOTS_PER_PROJECT_MAX,
  UpdateScreenshotInput,
  UploadScreenshotQuery,
} from '../../core/screenshots/schemas.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';
import { listScreenshots } from '../../core/screenshots/list-screenshots.ts';
import { getScreenshot } from '../../core/screenshots/get-screenshot.ts';
import { readScreenshotImage } from '../../core/screenshots/read-screenshot-image.ts';
import { updateScreenshot } from '../../core/screenshots/update-screenshot.ts';
import { deleteScreenshot } from '../../core/screenshots/delete-screenshot.ts';

const tag = 'Screenshots';
const ScreenshotParam = v.object({ screenshot_id: Uuid });
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'];
/** An id's image never changes: a client (or the portal's browser) keeps it a day, then revalidates with its ETag. */
const IMAGE_CACHE_CONTROL = 'private, max-age=86400';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  // The upload first, with the image's body limit: a route's answer ends the chain, so the JSON
  // routes' 1 MiB limit registered after it never applies to it.
  .post(
    '/',
    requestBodyLimit(SCREENSHOT_MAX_BYTES),
    describe({
      operationId: 'uploadScreenshot',
      tag,
      idempotent: true,
      summary: 'Upload a screenshot (PNG, JPEG or WebP) and link it to the keys it shows',
      description:
        `The body is the image itself, up to 4 MiB and ${SCREENSHOT_MAX_SIDE.toLocaleString('en-US')} pixels a side; its format is read from its bytes ` +
        '(any Content-Type is accepted; SVG, GIF and other formats are a 422). name: shown to translators (default: "Screenshot" and the time). ' +
        `key_id, up to ${KEYS_PER_SCREENSHOT_MAX} times: live keys of the project it shows (422 at the id otherwise). ` +
        'region=<key_id>:<x>,<y>,<width>,<height>, once per key: links that key and marks where it is, in the image\'s pixels from its top left ' +
        '(inside the image: 422 otherwise); PATCH changes regions later. ' +
        `At most ${SCREENSHOTS_PER_PROJECT_MAX.toLocaleString('en-US')} screenshots per project (422 beyond). Recorded as screenshot.added; nothing served changes.`,
      body: { mediaTypes: IMAGE_TYPES, maxBytes: SCREENSHOT_MAX_BYTES, description: 'The image file itself.' },
      responses: { 201: Screenshot },
    }),
    validQuery(UploadScreenshotQuery),
    idempotencyKey(),
    async (c) => {
      const { name, key_id, region } = c.req.valid('query');
      const body = new Uint8Array(await c.req.arrayBuffer());
      const created = await uploadScreenshot(c.get('deps'), { ...keyScope(c), body, ...(name !== undefined ? { name } : {}), keyIds: key_id ?? [], regions: region ?? [] });
      // No Location, as no other create of the API sends one: a retry with the Idempotency-Key gets
      // the stored body again, and the id is in it.
      return respondJson(c, created, 201);
    },
  )
  .use('*', requestBodyLimit(MAX_BODY_BYTES))
  .get(
    '/',
    describe({
      operationId: 'listScreenshots',
      tag,
      summary: "The project's screenshots: all, a page, or those showing one key",
      description:
        'In upload order, each with the live keys it shows and where (region, in the image\'s pixels; null: somewhere on it). ' +
        'key_id: only those showing that live key (404 when it is not one of the project). Without limit and cursor every match is ' +
        'listed; with either, one page of limit screenshots (1 to 500, default 100) and next_cursor (null on the last page).',
      responses: { 200: ScreenshotList, 404: null },
    }),
    validQuery(ListScreenshotsQuery),
    async (c) => {
      const { key_id, ...query } = c.req.valid('query');
      return c.json(await listScreenshots(c.get('deps'), { projectId: c.get('principal').projectId, ...query, ...(key_id !== undefined ? { keyId: key_id } : {}) }));
    },
  )
  .get(
    '/:screenshot_id',
    describe({ operationId: 'getScreenshot', tag, summary: 'One screenshot, with the keys it shows', responses: { 200: Screenshot, 404: null } }),
    validParams(ScreenshotParam),
    async (c) => c.json(await getScreenshot(c.get('deps'), { projectId: c.get('principal').projectId, screenshotId: c.req.valid('param').screenshot_id })),
  )
  .get(
    '/:screenshot_id/image',
    describe({
      operationId: 'getScreenshotImage',
      tag,
      summary: "A screenshot's image",
      description: 'The bytes as uploaded, with their media type and a strong ETag: send it back in If-None-Match for a 304.',
      headers: ['IfNoneMatch'],
      responses: {
        200: {
          description: 'The image',
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': { schema: { type: 'string', format: 'binary' } }, 'image/webp': { schema: { type: 'string', format: 'binary' } } },
          headers: ['ETag', 'Cache-Control'],
        },
        304: { headers: ['ETag', 'Cache-Control'] },
        404: null,
      },
    }),
    validParams(ScreenshotParam),
    async (c) => {
      const ifNoneMatch = c.req.header('if-none-match');
      const image = await readScreenshotImage(c.get('deps'), {
        projectId: c.get('principal').projectId,
        screenshotId: c.req.valid('param').screenshot_id,
        ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}),
      });
      if (image.kind === 'not-modified') return respond(c, null, 304, { ETag: image.etag, 'Cache-Control': IMAGE_CACHE_CONTROL });
      return respond(c, image.body as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': image.contentType,
        ETag: image.etag,
        'Cache-Control': IMAGE_CACHE_CONTROL,
        // An image, never a document a browser would run: no sniffing, no scripts, no frames.
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
    },
  )
  .patch(
    '/:screenshot_id',
    describe({
      operationId: 'updateScreenshot',
      tag,
      body: 'json',
      summary: 'Rename a screenshot, link or unlink keys, mark where a key is',
      description:
        'keys are merged into its links: {"<key_id>": {}} links a key (an existing link keeps its region), ' +
        '{"<key_id>": {"region": {"x": 10, "y": 20, "width": 200, "height": 40}}} marks where on the image (inside it: 422 otherwise), ' +
        `{"region": null} clears that, null unlinks the key; other links stay. At most ${KEYS_PER_SCREENSHOT_MAX} keys per screenshot. ` +
        'Recorded as screenshot.updated; a PATCH that changes nothing records nothing.',
      responses: { 200: Screenshot, 404: null },
    }),
    validParams(ScreenshotParam),
    requireJsonBody(),
    validBody(UpdateScreenshotInput),
    async (c) => respondJson(c, await updateScreenshot(c.get('deps'), { ...keyScope(c), screenshotId: c.req.valid('param').screenshot_id, ...c.req.valid('json') }), 200),
  )
  .delete(
    '/:screenshot_id',
    describe({ operationId: 'deleteScreenshot', tag, body: 'none', summary: 'Delete a screenshot, its links and its image', responses: { 204: null, 404: null } }),
    validParams(ScreenshotParam),
    noBody(),
    async (c) => {
      await deleteScreenshot(c.get('deps'), { ...keyScope(c), screenshotId: c.req.valid('param').screenshot_id });
      return c.body(null, 204);
    },
  );

export const screenshotsGroup = routeGroup('screenshots', routes, { maxBodyBytes: SCREENSHOT_MAX_BYTES, limitsItsOwnBody: true });
