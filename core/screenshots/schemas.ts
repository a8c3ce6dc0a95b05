// Screenshots of the product's screens, linked to the keys they show (migration 037).
// docs/decisions.md, "Screenshots".
import * as v from 'valibot';
import { labelText, nfc, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';

/**
 * The largest image taken: 4 MiB. On AWS a Lambda takes at most 6 MB of request, and API Gateway
 * hands it a binary body base64-encoded (4 bytes for every 3): 4 MiB is 5.6 MB there, and the image
 * read back the same (docs/deploy.md). A phone's or a 4K desktop's screenshot as PNG is 0.3-3 MB.
 */
export const SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;
/** Wider or taller than this is not a screen (16384 is the largest canvas browsers draw). */
export const SCREENSHOT_MAX_SIDE = 16_384;
export const SCREENSHOTS_PER_PROJECT_MAX = 1_000;
/** A screen shows tens of texts; a hundred is a whole page of settings. */
export const KEYS_PER_SCREENSHOT_MAX = 100;
export const SCREENSHOT_NAME_MAX_CHARS = 200;
export const SCREENSHOTS_LIST_LIMIT_MAX = 500;
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ScreenshotType = (typeof SCREENSHOT_TYPES)[number];

export const ScreenshotName = v.pipe(v.string('name must be a string'), v.transform(nfc), labelText('name', SCREENSHOT_NAME_MAX_CHARS));

const Coordinate = (field: string, min: number) =>
  v.pipe(
    v.number(`${field} must be a number of pixels`),
    v.integer(`${field} must be a whole number of pixels`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(SCREENSHOT_MAX_SIDE, `${field} must be at most ${SCREENSHOT_MAX_SIDE}`),
  );

/** Where on the image a key's text is: a rectangle in the image's pixels, from its top left corner. */
export const Region = v.strictObject({ x: Coordinate('x', 0), y: Coordinate('y', 0), width: Coordinate('width', 1), height: Coordinate('height', 1) });
export type Region = v.InferOutput<typeof Region>;

/** One key's link in a PATCH: `{}` links it (anywhere on the image), `{"region": {…}}` marks where, null unlinks it. */
const KeyLink = v.nullable(v.strictObject({ region: v.optional(v.nullable(Region)) }, 'each key is linked with an object ({} or {"region": {...}}) or unlinked with null'));

const KeyLinks = v.pipe(
  // An array is an object to valibot's record (and would pass as {}): refused first.
  v.unknown(),
  v.check((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'keys must be an object of key ids: {"<key_id>": {}} links, null unlinks'),
  v.record(v.pipe(v.string(), v.uuid('keys are named by key id (a UUID)'), v.transform((s) => s.toLowerCase())), KeyLink, 'keys must be an object of key ids'),
  v.check((r) => Object.keys(r).length <= KEYS_PER_SCREENSHOT_MAX, `keys names at most ${KEYS_PER_SCREENSHOT_MAX} keys`),
);

const KeyIds = v.pipe(
  v.union([v.string(), v.array(v.string())], 'key_id must be a key id'),
  v.transform((x) => (Array.isArray(x) ? x : [x])),
  v.array(Uuid),
  v.check((ids) => ids.length <= KEYS_PER_SCREENSHOT_MAX, `key_id may be given at most ${KEYS_PER_SCREENSHOT_MAX} times`),
);

/**
 * `region=<key_id>:<x>,<y>,<width>,<height>`: a key and where it is, in one query parameter, so that
 * an upload from CI (a test that knows each element's box) is one request that links and marks. The
 * key is linked by it; naming it in key_id as well is allowed.
 */
// Written out in both cases, not with the i flag: the pattern is the OpenAPI document's too, where
// flags do not travel. Up to 9 digits, so that a number out of range is said at its field.
const REGION_PARAM = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}):(\d{1,9}),(\d{1,9}),(\d{1,9}),(\d{1,9})$/;
const REGION_FIELDS = ['x', 'y', 'width', 'height'] as const;
const parseRegionParam = (s: string) => {
  const [, keyId, ...numbers] = REGION_PARAM.exec(s)!;
  return { keyId: keyId!.toLowerCase(), region: Object.fromEntries(REGION_FIELDS.map((f, i) => [f, Number(numbers[i])])) as Region };
};
// Checked field by field before the string is parsed (a refusal is at the parameter's field,
// query.region.0.width, as a region outside the image is), and described as the string it is.
const RegionParam = v.pipe(
  v.string(),
  v.regex(REGION_PARAM, 'region must be <key_id>:<x>,<y>,<width>,<height> in the image\'s pixels (region=9b2f…:24,80,200,40)'),
  v.rawCheck(({ dataset, addIssue }) => {
    // A check runs after the regex refused the string too: only a string of the shape is read.
    if (!dataset.typed || !REGION_PARAM.test(dataset.value)) return;
    const { region } = parseRegionParam(dataset.value);
    for (const field of REGION_FIELDS) {
      const min = field === 'x' || field === 'y' ? 0 : 1;
      const value = region[field];
      if (value >= min && value <= SCREENSHOT_MAX_SIDE) continue;
      addIssue({
        message: value < min ? `${field} must be at least ${min}` : `${field} must be at most ${SCREENSHOT_MAX_SIDE}`,
        path: [{ type: 'object', origin: 'value', input: region, key: field, value }],
      });
    }
  }),
  v.transform(parseRegionParam),
);
const RegionParams = v.pipe(
  v.union([v.string(), v.array(v.string())], 'region must be <key_id>:<x>,<y>,<width>,<height>'),
  v.transform((x) => (Array.isArray(x) ? x : [x])),
  v.array(RegionParam),
  v.check((rs) => rs.length <= KEYS_PER_SCREENSHOT_MAX, `region may be given at most ${KEYS_PER_SCREENSHOT_MAX} times`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    dataset.value.forEach(({ keyId }, index) => {
      if (seen.has(keyId)) addIssue({ message: 'a key has one region on a screenshot: this key\'s is given twice', path: [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: dataset.value[index] }] });
      seen.add(keyId);
    });
  }),
);

/** POST /v1/screenshots's query: the body is the image itself. */
export const UploadScreenshotQuery = v.strictObject({
  name: v.optional(v.pipe(v.string('name must be given once'), ScreenshotName)),
  key_id: v.optional(KeyIds),
  region: v.optional(RegionParams),
});

export const UpdateScreenshotInput = v.pipe(
  v.strictObject({ name: v.optional(ScreenshotName), keys: v.optional(KeyLinks) }),
  v.check((o) => o.name !== undefined || o.keys !== undefined, 'Nothing to change: send name or keys'),
);

const Limit = v.pipe(v.number(), v.integer('limit must be an integer'), v.minValue(1, 'limit must be 1 to 500'), v.maxValue(SCREENSHOTS_LIST_LIMIT_MAX, 'limit must be 1 to 500'));
/** A page's position: the last screenshot's upload sequence, as digits (opaque to clients). */
const Cursor = v.pipe(v.string('cursor must be given once'), v.regex(/^[1-9]\d{0,17}$/, 'cursor is not valid: pass next_cursor from a previous page unchanged'));

export const ListScreenshotsQuery = v.strictObject({
  key_id: v.optional(v.pipe(v.string('key_id must be given once'), Uuid)),
  limit: v.optional(v.pipe(v.string('limit must be given once'), v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'), v.transform(Number), Limit)),
  cursor: v.optional(Cursor),
});

export const ListScreenshotsCommand = v.object({ ...InProject, keyId: v.optional(Uuid), limit: v.optional(Limit), cursor: v.optional(Cursor) });
export const ScreenshotCommand = v.object({ ...InProject, screenshotId: Uuid });
export const DeleteScreenshotCommand = v.object({ ...WriteInProject, screenshotId: Uuid });
export const UploadScreenshotCommand = v.object({
  ...WriteInProject,
  body: v.instance(Uint8Array),
  name: v.optional(ScreenshotName),
  keyIds: v.optional(v.array(Uuid), []),
  /** Keys linked with where they are (the query's region parameters), in the query's order. */
  regions: v.optional(v.array(v.object({ keyId: Uuid, region: Region })), []),
});
export const UpdateScreenshotCommand = v.pipe(
  v.object({ ...WriteInProject, screenshotId: Uuid, name: v.optional(ScreenshotName), keys: v.optional(KeyLinks) }),
  v.check((o) => o.name !== undefined || o.keys !== undefined, 'Nothing to change: send name or keys'),
);

export const ScreenshotKey = v.object({
  key_id: Uuid,
  key: v.string(),
  group_name: v.string(),
  /** Where on the image the key's text is, in the image's pixels; null: somewhere on it. */
  region: v.nullable(v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() })),
});

export type ScreenshotKey = v.InferOutput<typeof ScreenshotKey>;

export const Screenshot = v.object({
  id: Uuid,
  name: v.string(),
  content_type: v.picklist(SCREENSHOT_TYPES),
  width: v.number(),
  height: v.number(),
  bytes: v.number(),
  /** The image, for a client with the project's API key (GET /v1/screenshots/{id}/image). */
  image_url: v.string(),
  /** The live keys it shows, in key name order (keys in the trash are left out until restored). */
  keys: v.array(ScreenshotKey),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type Screenshot = v.InferOutput<typeof Screenshot>;

export const ScreenshotList = v.object({
  project_id: Uuid,
  /** In the order they were uploaded. */
  screenshots: v.array(Screenshot),
  /** Screenshots that match (key_id) in the whole project, not only on this page. */
  count: v.number(),
  /** Only on a page (limit or cursor asked): the cursor of the next page, null on the last one. */
  next_cursor: v.optional(v.nullable(v.string())),
});
export type ScreenshotList = v.InferOutput<typeof ScreenshotList>;
