// The portal's screenshots (core/screenshots, the same use-cases as /v1/screenshots): the Screenshots
// tab, one screenshot's page and its forms, and the image route the pages' <img> read. Every member
// of the project sees them (project.view); screenshots.manage (owners, developers, reviewers) uploads,
// renames, links keys (by name), marks regions, unlinks and deletes. Each write answers 303 to the
// page that shows what it did; a refusal shows the page again, the typed input kept and the message at
// its field, and writes nothing (the use-cases refuse before writing). The helpers it shares with the
// other portal routes come in `kit` (routes.ts), so that neither file imports the other.
import { createHash, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { FC } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Deps } from '../../core/deps.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, validationError, type ValidationIssue } from '../../core/errors.ts';
import { toDomainError } from '../../core/db/errors.ts';
import type { Permission } from '../../core/users/permissions.ts';
import type { ProjectAccess } from '../../core/users/memberships.ts';
import { requireUser } from './session.ts';
import type { PortalEnv } from './portal-env.ts';
import type { Outcome, Place } from './outcomes.ts';
import type { FieldProblems } from './views/field-problems.tsx';
import { keysByName } from '../../core/keys/keys-by-name.ts';
import { getKey } from '../../core/keys/get-key.ts';
import { KEYS_PER_SCREENSHOT_MAX, SCREENSHOT_NAME_MAX_CHARS, type Region, type Screenshot } from '../../core/screenshots/schemas.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';
import { listScreenshots } from '../../core/screenshots/list-screenshots.ts';
import { getScreenshot } from '../../core/screenshots/get-screenshot.ts';
import { readScreenshotImage } from '../../core/screenshots/read-screenshot-image.ts';
import { updateScreenshot } from '../../core/screenshots/update-screenshot.ts';
import { deleteScreenshot } from '../../core/screenshots/delete-screenshot.ts';
import { screenshotNotFound } from '../../core/screenshots/screenshot-rows.ts';
import { SCREENSHOTS_PAGE, ScreenshotsPage, type UploadDraft } from './views/screenshots-page.tsx';
import { keyFormId, ScreenshotPage, type ScreenshotDraft } from './views/screenshot-page.tsx';
import { screenshotPath, screenshotsPath } from './views/screenshot-figure.tsx';
import type { KeyScreenshots } from './views/key-screenshots.tsx';

type C = Context<PortalEnv>;

/** What these routes use of routes.ts's helpers (the same functions every other portal route uses). */
export type PortalKit = {
  access(c: C, permission: Permission): Promise<ProjectAccess>;
  page(c: C, node: ReturnType<FC>, status?: ContentfulStatusCode): Response | Promise<Response>;
  createOnce<T>(
    c: C,
    submission: string | undefined,
    kind: 'screenshot',
    input: unknown,
    work: (deps: Deps) => Promise<T>,
    remember: (created: T) => Record<string, string>,
  ): Promise<{ created: T } | { replayed: Record<string, string> }>;
  redirectWithOutcome(c: C, place: Place, path: string, outcome: Outcome): Promise<Response>;
  outcomeFor(c: C, place: Place): Promise<Outcome | undefined>;
  asErrorAnswer(res: Response, error: AppError): Response;
  cacheOf(c: C, projectId: string): Promise<{ last_rebuilt_at: string | null; ready: boolean; pending?: boolean }>;
};

/** An id's image never changes: the browser keeps it a day, then revalidates it with its ETag (as the API's). */
const IMAGE_CACHE_CONTROL = 'private, max-age=86400';
/** The screenshots a key's page shows; the tab (filtered to the key) shows them all. */
const KEY_PAGE_SCREENSHOTS = 12;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The listing's cursor as the core takes it (digits); anything else is a link the tab did not make. */
const CURSOR = /^[1-9]\d{0,17}$/;

const actorOf = (c: C): Actor => ({ type: 'user', id: requireUser(c).id });
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A screenshot id from the address, as stored (lower case); anything but a UUID is no screenshot of the project (404). */
function screenshotIdParam(c: C): string {
  const raw = c.req.param('screenshot_id') ?? '';
  if (!UUID.test(raw)) throw screenshotNotFound();
  return raw.toLowerCase();
}

/** The text fields of the request's form (files aside), and its files. */
async function formOf(c: C): Promise<{ text: (name: string) => string; file: (name: string) => File | undefined }> {
  const body = await c.req.parseBody();
  return {
    text: (name) => (typeof body[name] === 'string' ? (body[name] as string) : ''),
    file: (name) => (body[name] instanceof File ? (body[name] as File) : undefined),
  };
}

const problem = (field: string, msg: string, type = 'value_error') => validationError([{ loc: [field], msg, type }]);

/**
 * A key-names field's lines resolved to live keys of the project (one statement): refused at the
 * field, naming every line that is none, or over KEYS_PER_SCREENSHOT_MAX names.
 */
async function keysNamed(deps: Deps, projectId: string, text: string): Promise<{ id: string; key: string }[]> {
  const lines = text.split(/\r\n?|\n/).filter((l) => l.trim() !== '');
  if (lines.length > KEYS_PER_SCREENSHOT_MAX) throw problem('keys', `A screenshot shows at most ${KEYS_PER_SCREENSHOT_MAX} keys: this names ${lines.length}`, 'too_many');
  const { found, unknown } = await keysByName(deps, { projectId, lines });
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ` and ${unknown.length - 10} more` : '');
    throw problem('keys', `${unknown.length === 1 ? 'Not a key' : 'Not keys'} of this project (or in the trash): ${shown}`, 'key_unknown');
  }
  return found;
}

/**
 * A use-case's refusal (422) by the form's fields: the image's problems (its size, its format, the
 * project's 1,000) at the file, the keys' (a key gone meanwhile, too many) at the key names, the
 * name's at the name; a region's at the number it is about. Anything else is the error page's.
 */
function refusal(thrown: unknown): { error: AppError; problems: FieldProblems } {
  const error = toDomainError(thrown);
  if (!(error instanceof AppError) || error.code !== 'validation') throw thrown;
  const problems: Record<string, string> = {};
  const fieldOf = (issue: ValidationIssue): string => {
    const loc = issue.loc.filter((part) => part !== 'body' && part !== 'query');
    if (loc.includes('region')) return String(loc[loc.length - 1]);
    if (loc.includes('key_id') || loc.includes('keys')) return 'keys';
    if (loc[0] === 'name') return 'name';
    if (issue.type === 'too_many') return 'form';
    return typeof loc[0] === 'string' ? loc[0] : 'file';
  };
  for (const issue of error.issues ?? [{ loc: ['form'], msg: error.message, type: 'value_error' }]) {
    const field = fieldOf(issue);
    problems[field] = problems[field] ? `${problems[field]}; ${issue.msg}` : issue.msg;
  }
  return { error, problems };
}

/**
 * A region from the form's four fields: whole numbers of pixels (the core checks that it is inside
 * the image); a field that is none is refused at that field.
 */
function regionOf(text: (name: string) => string): Region {
  const issues: ValidationIssue[] = [];
  const read = (field: 'x' | 'y' | 'width' | 'height', min: number) => {
    const typed = text(field).trim();
    if (!/^\d{1,6}$/.test(typed) || Number(typed) < min) issues.push({ loc: [field], msg: `${field} must be a whole number of pixels, ${min} or more`, type: 'value_error' });
    return Number(typed);
  };
  const region = { x: read('x', 0), y: read('y', 0), width: read('width', 1), height: read('height', 1) };
  if (issues.length) throw validationError(issues);
  return region;
}

/** A file's name as a screenshot's: without its extension and control characters, cut to the longest name taken. */
const nameOfFile = (filename: string) =>
  [...filename.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, SCREENSHOT_NAME_MAX_CHARS).join('').trim();

/** null for a key or screenshot that is not there (any other failure stands). */
function orNullWhenNotFound(thrown: unknown): null {
  const error = toDomainError(thrown);
  if (error instanceof AppError && (error.code === 'not_found' || error.code === 'validation')) return null;
  throw thrown;
}

/** The screenshots a key's page shows; null when its key is not a live key of the project (in the trash: its page still shows its history). */
export async function screenshotsOfKey(deps: Deps, projectId: string, keyId: string, keyName: string): Promise<KeyScreenshots | null> {
  const listed = await listScreenshots(deps, { projectId, keyId, limit: KEY_PAGE_SCREENSHOTS }).catch(orNullWhenNotFound);
  return listed && { keyId, keyName, list: listed.screenshots, count: listed.count };
}

export function screenshotRoutes(kit: PortalKit) {
  /** The tab: a page of 100 (cursor), or the screenshots of one key (key: its id). */
  async function renderTab(c: C, a: ProjectAccess, view: { notice?: string | undefined; error?: string | undefined; draft?: UploadDraft } = {}) {
    const deps = c.get('deps');
    const cursorAsked = c.req.query('cursor');
    const keyAsked = c.req.query('key');
    const cursor = cursorAsked && CURSOR.test(cursorAsked) ? cursorAsked : undefined;
    const notices: string[] = view.notice ? [view.notice] : [];
    if (cursorAsked && !cursor) notices.push('That page link is not valid any more (or was changed): this is the first page.');
    let key: { id: string; name: string } | undefined;
    if (keyAsked) {
      const found = UUID.test(keyAsked) ? await getKey(deps, { projectId: a.projectId, keyId: keyAsked }).catch(orNullWhenNotFound) : null;
      if (found) key = { id: found.id, name: found.key };
      else notices.push('That key is not a key of this project any more (deleted, or in the trash): every screenshot is shown.');
    }
    const [list, cache] = await Promise.all([
      listScreenshots(deps, { projectId: a.projectId, limit: SCREENSHOTS_PAGE, ...(cursor ? { cursor } : {}), ...(key ? { keyId: key.id } : {}) }),
      kit.cacheOf(c, a.projectId),
    ]);
    return kit.page(
      c,
      ScreenshotsPage({
        user: requireUser(c),
        csrf: c.get('csrf'),
        access: a,
        cache,
        notice: notices.join(' ') || undefined,
        error: view.error,
        screenshots: list.screenshots,
        count: list.count,
        next: list.next_cursor ?? null,
        cursor,
        key,
        submission: randomUUID(),
        draft: view.draft,
      }),
    );
  }

  /** One screenshot's page, with a refused form shown again. */
  async function renderShot(c: C, a: ProjectAccess, view: { notice?: string | undefined; error?: string | undefined; draft?: ScreenshotDraft } = {}) {
    const deps = c.get('deps');
    const [shot, cache] = await Promise.all([getScreenshot(deps, { projectId: a.projectId, screenshotId: screenshotIdParam(c) }), kit.cacheOf(c, a.projectId)]);
    return kit.page(c, ScreenshotPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, notice: view.notice, error: view.error, shot, draft: view.draft }));
  }

  /** A refused form of a screenshot's page: the page again, with its status (422), what was typed kept. */
  async function refusedOnShot(c: C, a: ProjectAccess, thrown: unknown, form: string, values: Record<string, string>, said: string) {
    const { error, problems } = refusal(thrown);
    return kit.asErrorAnswer(await renderShot(c, a, { error: `${said}: ${Object.values(problems).join('; ')}`, draft: { form, values, problems } }), error);
  }

  const place = (a: ProjectAccess): Place => ({ project: a.projectId });

  return (
    new Hono<PortalEnv>()
      .get('/', async (c) => {
        const a = await kit.access(c, 'project.view');
        return renderTab(c, a, { notice: (await kit.outcomeFor(c, place(a)))?.notice });
      })
      // Upload: the file, a name, the keys it shows by name. Sent once per form (its one-time token,
      // claimed in the upload's own transaction): a double click uploads one screenshot.
      .post('/', async (c) => {
        const a = await kit.access(c, 'screenshots.manage');
        const f = await formOf(c);
        const deps = c.get('deps');
        const draft = { name: f.text('name'), keys: f.text('keys') };
        try {
          const file = f.file('file');
          if (!file || file.size === 0) throw problem('file', 'Choose an image file: PNG, JPEG or WebP', 'missing');
          const keys = await keysNamed(deps, a.projectId, draft.keys);
          const body = new Uint8Array(await file.arrayBuffer());
          // No name typed: the file's, without its extension ("sign-in.png" is "sign-in").
          const name = draft.name.trim() || nameOfFile(file.name) || undefined;
          const keyIds = keys.map((k) => k.id);
          const sha256 = createHash('sha256').update(body).digest('base64url');
          const once = await kit.createOnce(
            c,
            f.text('submission') || undefined,
            'screenshot',
            { project: a.projectId, name: name ?? '', keyIds, sha256 },
            (tokenDeps) => uploadScreenshot(tokenDeps, { projectId: a.projectId, actor: actorOf(c), body, ...(name !== undefined ? { name } : {}), keyIds }),
            (shot) => ({ id: shot.id, name: shot.name }),
          );
          if ('replayed' in once) {
            const id = once.replayed.id ?? '';
            const path = UUID.test(id) ? screenshotPath(a.projectId, id) : screenshotsPath(a.projectId);
            return kit.redirectWithOutcome(c, place(a), path, { notice: `This form was already sent: the screenshot ${once.replayed.name ?? ''} was uploaded once.` });
          }
          const shot = once.created;
          const linked = shot.keys.length ? `, linked to ${count(shot.keys.length, 'key')}` : '';
          return kit.redirectWithOutcome(c, place(a), screenshotPath(a.projectId, shot.id), {
            notice: `Uploaded the screenshot ${shot.name} (${shot.width} × ${shot.height} px)${linked}. Mark where each key is below.`,
          });
        } catch (thrown) {
          const { error, problems } = refusal(thrown);
          return kit.asErrorAnswer(await renderTab(c, a, { error: `Not uploaded: ${Object.values(problems).join('; ')}`, draft: { ...draft, problems } }), error);
        }
      })
      .get('/:screenshot_id', async (c) => {
        const a = await kit.access(c, 'project.view');
        return renderShot(c, a, { notice: (await kit.outcomeFor(c, place(a)))?.notice });
      })
      // The image, for the pages' <img>: to members of the project only (another account's user gets
      // the 404 of a project that is not theirs), revalidated by its ETag.
      .get('/:screenshot_id/image', async (c) => {
        const a = await kit.access(c, 'project.view');
        const ifNoneMatch = c.req.header('if-none-match');
        const image = await readScreenshotImage(c.get('deps'), { projectId: a.projectId, screenshotId: screenshotIdParam(c), ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}) });
        if (image.kind === 'not-modified') return c.body(null, 304, { ETag: image.etag, 'Cache-Control': IMAGE_CACHE_CONTROL });
        return c.body(image.body as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': image.contentType,
          ETag: image.etag,
          'Cache-Control': IMAGE_CACHE_CONTROL,
          // An image, never a document a browser would run (the portal's CSP is on it too).
          'X-Content-Type-Options': 'nosniff',
        });
      })
      // Rename: only when the name was changed from what the page showed.
      .post('/:screenshot_id', async (c) => {
        const a = await kit.access(c, 'screenshots.manage');
        const screenshotId = screenshotIdParam(c);
        const f = await formOf(c);
        const values = { name: f.text('name'), name_was: f.text('name_was') };
        const deps = c.get('deps');
        try {
          if (values.name.trim() === values.name_was.trim() && values.name_was !== '') {
            const shot = await getScreenshot(deps, { projectId: a.projectId, screenshotId });
            return kit.redirectWithOutcome(c, place(a), screenshotPath(a.projectId, screenshotId), { notice: `Nothing to save: the name of ${shot.name} is as it was.` });
          }
          const shot = await updateScreenshot(deps, { projectId: a.projectId, actor: actorOf(c), screenshotId, name: values.name });
          return kit.redirectWithOutcome(c, place(a), screenshotPath(a.projectId, screenshotId), { notice: `Renamed the screenshot to ${shot.name}.` });
        } catch (thrown) {
          return refusedOnShot(c, a, thrown, 'rename', values, 'Not renamed');
        }
      })
      // Link keys, by name: a key linked already keeps its region.
      .post('/:screenshot_id/keys', async (c) => {
        const a = await kit.access(c, 'screenshots.manage');
        const screenshotId = screenshotIdParam(c);
        const f = await formOf(c);
        const values = { keys: f.text('keys') };
        const deps = c.get('deps');
        try {
          const keys = await keysNamed(deps, a.projectId, values.keys);
          if (keys.length === 0) throw problem('keys', 'Type the name of a key to link', 'missing');
          const before = await getScreenshot(deps, { projectId: a.projectId, screenshotId });
          const had = new Set(before.keys.map((k) => k.key_id));
          await updateScreenshot(deps, { projectId: a.projectId, actor: actorOf(c), screenshotId, keys: Object.fromEntries(keys.map((k) => [k.id, {}])) });
          const added = keys.filter((k) => !had.has(k.id)).map((k) => k.key);
          const already = keys.filter((k) => had.has(k.id)).map((k) => k.key);
          const notice = [added.length ? `Linked ${added.join(', ')}.` : '', already.length ? `Already linked: ${already.join(', ')}.` : ''].filter(Boolean).join(' ');
          return kit.redirectWithOutcome(c, place(a), screenshotPath(a.projectId, screenshotId), { notice });
        } catch (thrown) {
          return refusedOnShot(c, a, thrown, 'link', values, 'Not linked');
        }
      })
      // One linked key: mark where it is (do=region), clear that (do=clear), or unlink it (do=unlink).
      .post('/:screenshot_id/keys/:key_id', async (c) => {
        const a = await kit.access(c, 'screenshots.manage');
        const screenshotId = screenshotIdParam(c);
        const rawKey = c.req.param('key_id') ?? '';
        if (!UUID.test(rawKey)) throw new AppError('not_found', 'That key is not linked to this screenshot');
        const keyId = rawKey.toLowerCase();
        const f = await formOf(c);
        const action = f.text('do');
        const values = { x: f.text('x'), y: f.text('y'), width: f.text('width'), height: f.text('height') };
        const deps = c.get('deps');
        const shot = await getScreenshot(deps, { projectId: a.projectId, screenshotId });
        const link = shot.keys.find((k) => k.key_id === keyId);
        // Unlinked (or its key deleted) since the page was loaded: a region saved now would link it again unseen.
        if (!link) throw new AppError('not_found', 'That key is not linked to this screenshot (any more): it was unlinked, or deleted, since the page was loaded');
        const path = screenshotPath(a.projectId, screenshotId);
        try {
          if (action === 'unlink') {
            await updateScreenshot(deps, { projectId: a.projectId, actor: actorOf(c), screenshotId, keys: { [keyId]: null } });
            return kit.redirectWithOutcome(c, place(a), path, { notice: `Unlinked ${link.key}.` });
          }
          if (action === 'clear') {
            await updateScreenshot(deps, { projectId: a.projectId, actor: actorOf(c), screenshotId, keys: { [keyId]: { region: null } } });
            return kit.redirectWithOutcome(c, place(a), path, { notice: `Cleared the region of ${link.key}: it is shown as somewhere on the screenshot.` });
          }
          if (action !== 'region') throw problem('form', 'Choose Save region, Clear region or Unlink');
          const region = regionOf(f.text);
          await updateScreenshot(deps, { projectId: a.projectId, actor: actorOf(c), screenshotId, keys: { [keyId]: { region } } });
          return kit.redirectWithOutcome(c, place(a), path, { notice: `Saved where ${link.key} is: at ${region.x}, ${region.y}, ${region.width} × ${region.height} px.` });
        } catch (thrown) {
          return refusedOnShot(c, a, thrown, keyFormId(keyId), values, `Not saved (${link.key})`);
        }
      })
      .post('/:screenshot_id/delete', async (c) => {
        const a = await kit.access(c, 'screenshots.manage');
        const screenshotId = screenshotIdParam(c);
        const deps = c.get('deps');
        const shot: Screenshot = await getScreenshot(deps, { projectId: a.projectId, screenshotId });
        await deleteScreenshot(deps, { projectId: a.projectId, screenshotId, actor: actorOf(c) });
        return kit.redirectWithOutcome(c, place(a), screenshotsPath(a.projectId), { notice: `Deleted the screenshot ${shot.name}.` });
      })
  );
}
