// `tms screenshots push|list|delete`: screenshots of the product's screens, linked to the keys they
// show (POST, GET and DELETE /v1/screenshots), so that translators see where a text appears. Tests
// (Playwright, Cypress, simulators) take them and CI uploads them, as Tolgee's, Lokalise's and
// Crowdin's CLIs do. Everything that can be checked here (the arguments, every image file) is
// checked before any request; a key no key of the project has, before the first upload.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { shown } from '../flags.ts';
import { readImages, type ImageFile } from '../image-files.ts';
import { checkKeyNames, keysNamed } from '../key-names.ts';

const COMMON = 'Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota';

export const SCREENSHOTS_PUSH_HELP = `tms screenshots push <image> [<image>...] [--key K]... [--region K=X,Y,W,H]... [--name N] [--json]

Uploads each image (POST /v1/screenshots) as a screenshot linked to the keys named with --key, and
prints a line per image: its name, size in pixels, the keys linked and its id. Images are PNG, JPEG
or WebP files up to 4 MiB (16,384 pixels a side). Every file and every key is checked before the
first upload: a file that is missing, too large or no such image, or a key the project does not
have, is exit 2 naming it, and nothing is uploaded.
--key K          link the key K (repeatable, at most 100): its full name as in the translation
                 files and \`tms push\`'s output (home.title), not its group: a key's name is unique
                 in the project
--region K=X,Y,W,H
                 link the key K and mark where it is on the image: a box X, Y pixels from the
                 image's top left, W wide and H high (a test's element box: Playwright's
                 boundingBox() times the device scale factor); repeatable, once per key, only
                 with one image. The box must lie inside the image (else the server's 422, and
                 nothing is uploaded)
--name N         the screenshot's name, shown to translators; only with one image (by default
                 each is named after its file: sign-in.png)
With --json: {screenshots: [...]}, each as the API answers it (id, name, width, height, keys, ...).
${COMMON}`;

export const SCREENSHOTS_LIST_HELP = `tms screenshots list [--key K] [--json]

Lists the project's screenshots in upload order (GET /v1/screenshots, every page), a line each: id,
name, width x height, the keys it shows.
--key K          only the screenshots showing the key K (its full name, as for push)
With --json: {project_id, screenshots: [...], count}, as the API answers it.
${COMMON}`;

export const SCREENSHOTS_DELETE_HELP = `tms screenshots delete <id> [<id>...] [--json]

Deletes the screenshots (DELETE /v1/screenshots/{id}), their links and images; the keys stay.
Every id is checked first: one that is no screenshot of the project is exit 2, nothing deleted.
With --json: {deleted: [...]}, each screenshot as it was.
${COMMON}`;

export const SCREENSHOTS_HELP = `tms screenshots: screenshots of the app's screens, linked to the keys they show

  tms screenshots push <image>...   upload images (PNG, JPEG, WebP), --key K for each key shown,
                                    --region K=X,Y,W,H for where one is
  tms screenshots list              the project's screenshots (--key K: those showing K)
  tms screenshots delete <id>...    delete screenshots

${SCREENSHOTS_PUSH_HELP}

${SCREENSHOTS_LIST_HELP}

${SCREENSHOTS_DELETE_HELP}`;

/** The server's limits (core/screenshots/schemas.ts): keys per screenshot, a name's characters. */
const KEYS_MAX = 100;
const NAME_MAX_CHARS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A screenshot as the API answers it (core/screenshots/schemas.ts, Screenshot). */
type Screenshot = {
  id: string;
  name: string;
  width: number;
  height: number;
  keys: { key_id: string; key: string; group_name: string; region: unknown }[];
} & Record<string, unknown>;
type ScreenshotList = { project_id: string; screenshots: Screenshot[]; count: number; next_cursor?: string | null };
type Issue = { loc?: unknown; msg?: unknown };
/** A --region: a key's name and its box in the image's pixels. */
type KeyRegion = { key: string; x: number; y: number; width: number; height: number };

/** What a screenshots command was asked, checked before the config is read and any request. */
export type ScreenshotsRequest =
  | { command: 'push'; images: ImageFile[]; keys: string[]; regions: KeyRegion[]; name?: string }
  | { command: 'list'; key?: string }
  | { command: 'delete'; ids: string[] };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why `name` cannot be a screenshot's name as the server takes it (trimmed, 1 to 200 characters, no control characters). */
function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'a name is not empty';
  if (!trimmed.isWellFormed() || /[\u0000-\u001f\u007f]/.test(trimmed)) return 'a name has no control characters';
  if ([...trimmed].length > NAME_MAX_CHARS) return `a name is at most ${NAME_MAX_CHARS} characters`;
  return undefined;
}

/** The largest side the server takes (core/screenshots/schemas.ts, SCREENSHOT_MAX_SIDE). */
const SIDE_MAX = 16_384;

/**
 * `--region K=X,Y,W,H` values: the key's name before the last `=` (a key's name may hold one), four
 * whole numbers of pixels after it. Each key once; checked before any request.
 */
function checkRegions(values: string[]): KeyRegion[] {
  const regions: KeyRegion[] = [];
  for (const value of values) {
    const at = value.lastIndexOf('=');
    const key = at < 0 ? '' : value.slice(0, at);
    const numbers = at < 0 ? [] : value.slice(at + 1).split(',').map((n) => n.trim());
    if (key === '' || numbers.length !== 4 || !numbers.every((n) => /^\d{1,9}$/.test(n))) {
      throw usageError(`--region ${shown(value)}: give a key's name and its box in the image's pixels, --region home.title=X,Y,WIDTH,HEIGHT (--region home.title=24,80,200,40); nothing was uploaded`);
    }
    const [x, y, width, height] = numbers.map(Number) as [number, number, number, number];
    if (width < 1 || height < 1) throw usageError(`--region ${shown(value)}: the box's width and height are at least 1 pixel; nothing was uploaded`);
    if (Math.max(x, y, width, height) > SIDE_MAX) throw usageError(`--region ${shown(value)}: an image is at most ${SIDE_MAX.toLocaleString('en-US')} pixels a side; nothing was uploaded`);
    if (regions.some((r) => r.key.normalize('NFC') === key.normalize('NFC'))) throw usageError(`--region given twice for ${shown(key)}: a key has one place on a screenshot; nothing was uploaded`);
    regions.push({ key, x, y, width, height });
  }
  return regions;
}

/** The arguments of `tms screenshots <command>`, and for push every image file, read. */
export async function screenshotsRequest(
  command: 'push' | 'list' | 'delete',
  cwd: string,
  positionals: string[],
  flags: { key?: string | string[]; region?: string[]; name?: string },
): Promise<ScreenshotsRequest> {
  if (command === 'list') {
    if (positionals.length > 0) throw usageError(`${positionals.map(shown).join(', ')}: list takes no arguments; --key K lists the screenshots of one key`);
    const [key] = checkKeyNames(flags.key === undefined ? undefined : [flags.key as string]);
    return key === undefined ? { command } : { command, key };
  }
  if (command === 'delete') {
    if (positionals.length === 0) throw usageError('name the screenshots: tms screenshots delete <id>... (tms screenshots list shows the ids)');
    const bad = positionals.filter((id) => !UUID.test(id));
    if (bad.length > 0) throw usageError(`${bad.map(shown).join(', ')}: not a screenshot id (a UUID, as tms screenshots list shows them); nothing was deleted`);
    return { command, ids: [...new Set(positionals.map((id) => id.toLowerCase()))] };
  }
  if (positionals.length === 0) throw usageError('name the image files: tms screenshots push shots/sign-in.png [--key K]...');
  const keys = checkKeyNames(flags.key as string[] | undefined);
  const regions = checkRegions(flags.region ?? []);
  // A box is a place on one image: the same box on several screens is rarely where the text is.
  if (regions.length > 0 && positionals.length > 1) throw usageError(`--region marks a place on one image, but ${positionals.length} images were given: push an image with its regions at a time; nothing was uploaded`);
  const distinct = new Set([...keys, ...regions.map((r) => r.key)].map((k) => k.normalize('NFC'))).size;
  if (distinct > KEYS_MAX) throw usageError(`--key and --region name ${distinct} keys: a screenshot shows at most ${KEYS_MAX}; nothing was uploaded`);
  if (flags.name !== undefined) {
    if (positionals.length > 1) throw usageError(`--name names one screenshot, but ${positionals.length} images were given: push them one at a time, or leave --name out (each is then named after its file)`);
    const problem = nameProblem(flags.name);
    if (problem) throw usageError(`--name ${shown(flags.name)}: ${problem}; nothing was uploaded`);
  }
  const images = await readImages(cwd, positionals);
  // Named after its file: a file name that can be no screenshot's name is said now, not as a 422 midway.
  for (const image of flags.name === undefined ? images : []) {
    const problem = nameProblem(basename(image.path));
    if (problem) throw usageError(`${image.path}: its file name cannot name the screenshot (${problem}): rename the file, or push it alone with --name; nothing was uploaded`);
  }
  return { command, images, keys, regions, ...(flags.name === undefined ? {} : { name: flags.name.trim() }) };
}

export async function screenshots(ctx: Context, client: Client, request: ScreenshotsRequest): Promise<number> {
  if (request.command === 'push') return await push(ctx, client, request);
  if (request.command === 'list') return await list(ctx, client, request.key);
  return await remove(ctx, client, request.ids);
}

const keysShown = (shot: Screenshot) => (shot.keys.length === 0 ? 'no keys' : `${plural(shot.keys.length, 'key')} (${shot.keys.map((k) => k.key).join(', ')})`);

/** One refusal of an upload, said in the user's terms: the --key it came from, the file, the name. */
function refusal(issue: Issue, image: ImageFile, keyNames: string[], regions: KeyRegion[], name: string): string {
  const loc = Array.isArray(issue.loc) ? (issue.loc as unknown[]) : [];
  const msg = typeof issue.msg === 'string' ? issue.msg : JSON.stringify(issue.msg);
  if (loc[0] === 'query' && loc[1] === 'key_id' && typeof loc[2] === 'number' && keyNames[loc[2]] !== undefined) return `--key ${shown(keyNames[loc[2]]!)}: ${msg}`;
  if (loc[0] === 'query' && loc[1] === 'region' && typeof loc[2] === 'number' && regions[loc[2]] !== undefined) {
    const r = regions[loc[2]]!;
    return `--region ${shown(`${r.key}=${r.x},${r.y},${r.width},${r.height}`)}: ${msg}`;
  }
  if (loc[0] === 'query' && loc[1] === 'name') return `the name ${shown(name)}: ${msg}`;
  if (loc.length === 0 || (loc.length === 1 && loc[0] === 'body')) return `${image.path}: ${msg}`;
  return `${loc.join('.')}: ${msg}`;
}

async function push(ctx: Context, client: Client, request: Extract<ScreenshotsRequest, { command: 'push' }>) {
  const { images } = request;
  // One read of the project's keys for both flags; an unknown name is said with the flag it came in.
  const named = new Set(request.keys.map((k) => k.normalize('NFC')));
  const found = await keysNamed(client, [...request.keys, ...request.regions.map((r) => r.key)], 'nothing was uploaded', (n) => (named.has(n.normalize('NFC')) ? '--key' : '--region'));
  const keys = found.filter((k) => named.has(k.key));
  // Each --region's key id, in the order given (a 422 names the region parameter by its index).
  const regionIds = request.regions.map((r) => found.find((k) => k.key === r.key.normalize('NFC'))!.id);
  const uploaded: Screenshot[] = [];
  // What happened to the images, after a failure at `image`: what a rerun would do again.
  const sofar = (image: ImageFile) => {
    const rest = images.length - uploaded.length - 1;
    if (uploaded.length === 0) return `nothing was uploaded${rest > 0 ? ` (${plural(rest, 'more image')} not sent)` : ''}`;
    return `${plural(uploaded.length, 'image')} before ${image.path} ${uploaded.length === 1 ? 'was' : 'were'} uploaded${rest > 0 ? `, ${rest} after it not sent` : ''}`;
  };
  try {
    await ctx.out.progress(
      'uploading',
      images.map((image) => async () => {
        const name = request.name ?? basename(image.path);
        const query = new URLSearchParams({ name });
        for (const key of keys) query.append('key_id', key.id);
        request.regions.forEach((r, i) => query.append('region', `${regionIds[i]}:${r.x},${r.y},${r.width},${r.height}`));
        const res = await client
          .request('POST', `/v1/screenshots?${query}`, {
            body: image.body,
            // One token per image and run: the client's retries of a 500 or 503 send the same one,
            // so a screenshot the server stored before failing to answer is answered, not stored twice.
            headers: { 'Content-Type': image.type, 'Idempotency-Key': randomUUID() },
            accept: [422],
            // Not the client's "run it again" (a push changes nothing twice): every upload is a new screenshot.
            ifLost: `the server may have stored it: see tms screenshots list before pushing ${image.path} again (each upload is a new screenshot)`,
          })
          .catch((error: unknown) => {
            if (error instanceof CliError) {
              error.message = /[.?]$/.test(error.message) ? `${image.path}: ${error.message} ${sentence(sofar(image))}.` : `${image.path}: ${error.message}; ${sofar(image)}`;
            }
            throw error;
          });
        if (res.status === 422) {
          const text = await res.text();
          let detail: unknown = text;
          try {
            detail = (JSON.parse(text) as { detail?: unknown }).detail ?? text;
          } catch {
            // Not the API's envelope: shown as it is.
          }
          const issues = Array.isArray(detail) ? (detail as Issue[]).map((issue) => refusal(issue, image, keyNamesOf(keys), request.regions, name)) : [`${image.path}: ${String(detail)}`];
          throw new CliError(`${image.path} was refused (422); ${sofar(image)}:\n${issues.map((i) => `  ${i}`).join('\n')}`, EXIT.failed);
        }
        const shot = (await res.json()) as Screenshot;
        uploaded.push(shot);
        ctx.out.line(`${image.path}: uploaded ${shown(shot.name)}, ${shot.width}x${shot.height}, ${keysShown(shot)}, id ${shot.id}`);
      }),
    );
  } catch (error) {
    if (error instanceof CliError) error.done = { screenshots: uploaded };
    throw error;
  }
  ctx.out.result({ screenshots: uploaded });
  return EXIT.ok;
}

/** The names of the keys sent, in the order of their key_id parameters (a 422 names its index). */
const keyNamesOf = (keys: { key: string }[]) => keys.map((k) => k.key);

/** Every screenshot (of a key), page after page: each page is bounded, whatever the project holds. */
async function allScreenshots(client: Client, keyId: string | undefined): Promise<ScreenshotList> {
  const screenshots: Screenshot[] = [];
  let projectId = '';
  let cursor: string | null | undefined;
  const seen = new Set<string>();
  do {
    // 100 a page: a page of 500 screenshots of 100 keys each is 7.5 MB of JSON, past the 6 MB a
    // Lambda answers with (found by review).
    const query = new URLSearchParams({ limit: '100' });
    if (keyId !== undefined) query.set('key_id', keyId);
    if (cursor) query.set('cursor', cursor);
    const page = await client.json<ScreenshotList>('GET', `/v1/screenshots?${query}`);
    projectId = page.project_id;
    screenshots.push(...page.screenshots);
    // A cursor seen before would loop forever: an answer the CLI does not expect ends the listing.
    cursor = page.next_cursor && !seen.has(page.next_cursor) ? page.next_cursor : null;
    if (cursor) seen.add(cursor);
  } while (cursor);
  return { project_id: projectId, screenshots, count: screenshots.length };
}

async function list(ctx: Context, client: Client, keyName: string | undefined) {
  const [key] = keyName === undefined ? [] : await keysNamed(client, [keyName]);
  const answer = await allScreenshots(client, key?.id);
  for (const shot of answer.screenshots) {
    ctx.out.line(`${shot.id}  ${shot.name}  ${shot.width}x${shot.height}  ${shot.keys.length === 0 ? '(no keys)' : shot.keys.map((k) => k.key).join(', ')}`);
  }
  const n = answer.screenshots.length;
  if (key === undefined) ctx.out.line(n === 0 ? 'no screenshots' : plural(n, 'screenshot'));
  else ctx.out.line(n === 0 ? `no screenshot shows ${key.key}` : `${plural(n, 'screenshot')} ${n === 1 ? 'shows' : 'show'} ${key.key}`);
  ctx.out.result(answer);
  return EXIT.ok;
}

async function remove(ctx: Context, client: Client, ids: string[]) {
  // Every id first: a mistyped or another project's id deletes nothing, not the ones before it.
  const found: Screenshot[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const res = await client.request('GET', `/v1/screenshots/${id}`, { accept: [404] });
    if (res.status === 404) {
      await res.arrayBuffer().catch(() => undefined);
      unknown.push(id);
    } else found.push((await res.json()) as Screenshot);
  }
  if (unknown.length > 0) throw usageError(`${unknown.join(', ')}: ${unknown.length === 1 ? 'no screenshot' : 'no screenshots'} of this project (tms screenshots list shows the ids); nothing was deleted`);
  const deleted: Screenshot[] = [];
  try {
    for (const shot of found) {
      const res = await client.request('DELETE', `/v1/screenshots/${shot.id}`, { accept: [404] });
      await res.arrayBuffer().catch(() => undefined);
      // Deleted by someone else since it was read: gone all the same.
      ctx.out.line(res.status === 404 ? `${shot.id}: already deleted (${shot.name})` : `deleted ${shot.id} (${shot.name})`);
      deleted.push(shot);
    }
  } catch (error) {
    if (error instanceof CliError) error.done = { deleted };
    throw error;
  }
  ctx.out.result({ deleted });
  return EXIT.ok;
}
