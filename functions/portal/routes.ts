// The portal: server-rendered pages (hono/jsx) over the same core use-cases as the API, acting as
// the signed-in user (actor { type: 'user' }). Who may do what is core/users/permissions.ts; a
// project the user's accounts do not own answers 404, exactly like one that does not exist.
import { compress } from 'hono/compress';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { getCookie, setCookie } from 'hono/cookie';
import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../../core/deps.ts';
import { transaction } from '../../core/db/transaction.ts';
import { claimKey, findAnswer, storeAnswer } from '../../core/db/idempotency-keys.ts';
import type { FC } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/app-env.ts';
import { routeGroup } from '../http/route-group.ts';
import { requestBodyLimit } from '../http/body-limit.ts';
import { statusOf } from '../http/errors.ts';
import { AppError } from '../../core/errors.ts';
import { toDomainError } from '../../core/db/errors.ts';
import type { Actor } from '../../core/actor.ts';
import { needsSetup, setupFirstOwner } from '../../core/users/setup.ts';
import { signIn } from '../../core/users/sign-in.ts';
import { createSession, endAllSessions, endSession } from '../../core/users/sessions.ts';
import { acceptInvite, createInvite, findInvite, pendingInvites, revokeInvite } from '../../core/users/invites.ts';
import { changeRole, removeMember } from '../../core/users/members.ts';
import { listMemberships, listProjectsOf, projectAccess, type ProjectAccess } from '../../core/users/memberships.ts';
import { assertMay, may, mayEditLanguage, type Permission } from '../../core/users/permissions.ts';
import { editorPage } from '../../core/portal/editor-page.ts';
import { bulkDeleteKeys } from '../../core/keys/bulk-delete-keys.ts';
import { bulkSetStatus } from '../../core/keys/bulk-set-status.ts';
import { bulkTagKeys } from '../../core/keys/bulk-tag-keys.ts';
import { listTags } from '../../core/keys/list-tags.ts';
import { splitTags } from '../../core/keys/tags.ts';
import { deleteTag, renameTag } from '../../core/keys/project-tags.ts';
import { listGroups } from '../../core/groups/list-groups.ts';
import { renameGroup } from '../../core/groups/rename-group.ts';
import { isExactTimestamp, listTrash, restoringShownDelete, type TrashCursor } from '../../core/portal/trash.ts';
import { decodeCursor } from '../../core/keys/key-cursor.ts';
import { listAccountActivity, listActivity, valueAfterEvent, valueHistory, type ActivityItem } from '../../core/portal/activity.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';
import { restoreGroup } from '../../core/groups/restore-group.ts';
import { assertApiKeyOfProject } from '../../core/portal/api-keys.ts';
import { commentsInLanguage, valuesInLanguage, valuesPerLanguage } from '../../core/languages/value-counts.ts';
import { apiKeysForTab } from '../../core/accounts/admin-reads.ts';
import type { CreatedApiKey } from '../../core/accounts/api-key-schemas.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { createApiKey } from '../../core/accounts/create-api-key.ts';
import { revokeApiKey } from '../../core/accounts/revoke-api-key.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { editKeyAsShown, maxLengthOfForm, sameTags } from '../../core/portal/key-edit.ts';
import { valueById } from '../../core/keys/by-id.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { getTranslation } from '../../core/translations/get-translation.ts';
import { markUpToDate } from '../../core/translations/mark-up-to-date.ts';
import { listLanguages } from '../../core/languages/list-languages.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { LanguageValuesChanged, languageNotRegistered, removeLanguage } from '../../core/languages/remove-language.ts';
import type { ShownValues } from '../../core/languages/schemas.ts';
import { canonicalLanguageCode } from '../../core/languages/language-code.ts';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { cacheStatus } from '../../core/cache/read-cached.ts';
import type { TranslationStatus } from '../../core/translations/schemas.ts';
import type { PortalEnv } from './portal-env.ts';
import { clearSessionCookie, portalSession, requireUser, sessionToken, setSessionCookie } from './session.ts';
import { portalHeaders } from './security-headers.ts';
import { formBody } from './form-body.ts';
import { PORTAL_CSS, PORTAL_JS } from './assets.ts';
import { ErrorPage, P } from './views/layout.tsx';
import { InvitePage, SetupPage, SignInPage } from './views/auth-pages.tsx';
import { fieldProblems, type FieldProblems } from './views/field-problems.tsx';
import { MembersPage, ProjectCreatedPage, ProjectsPage, type MemberRow, type MembersDraft } from './views/projects-page.tsx';
import { EditorView, type EditorFilters, type FormError, type ValueError } from './views/editor-page.tsx';
import { ApiKeysPage, LanguagesPage, TrashPage, UsagePage, type ApiKeyDraft } from './views/project-pages.tsx';
import { readUsage } from '../../core/usage/read-usage.ts';
import { ActivityPage, HistoryPage } from './views/activity-pages.tsx';
import { listComments } from '../../core/comments/list-comments.ts';
import { addComment } from '../../core/comments/add-comment.ts';
import { commentNotFound, deleteComment } from '../../core/comments/delete-comment.ts';
import { resolveComment } from '../../core/comments/resolve-comment.ts';
import { openCommentsPerLanguage } from '../../core/comments/open-per-language.ts';
import type { Comment } from '../../core/comments/schemas.ts';
import { valueTarget, type ActivityNames } from './views/activity-words.ts';
import { FilesPage, type ImportChoice, type ImportRefusal, type ShownPreview } from './views/files-page.tsx';
import { againWhenNameTaken, importAsPreviewed, importFile, previewImport } from '../../core/files/import-file.ts';
import { exportFile } from '../../core/files/export-file.ts';
import type { ImportPreview, ImportResult } from '../../core/files/schemas.ts';
import { FORMATS, isFormatId } from '../../core/formats/index.ts';
import { suggestTranslations } from '../../core/memory/suggest-translations.ts';
import { qualitySettings } from '../../core/quality/approval-gate.ts';
import type { QualityCheck } from '../../core/quality/check-translation.ts';
import { translateMissing, type TranslateResult } from '../../core/translate/translate-missing.ts';
import { SuggestionsPage } from './views/assistant-pages.tsx';
import { findOutcome, keepOutcome, type Outcome, type Place } from './outcomes.ts';
import { listTerms } from '../../core/glossary/list-terms.ts';
import { getTerm } from '../../core/glossary/get-term.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { deleteTerm } from '../../core/glossary/delete-term.ts';
import { termNotFound } from '../../core/glossary/term-rows.ts';
import type { GlossaryTerm } from '../../core/glossary/schemas.ts';
import { GLOSSARY_PAGE, GlossaryPage, glossaryPath, translationField, type GlossaryDraft } from './views/glossary-page.tsx';
import { importGlossaryAsPreviewed, previewGlossaryImport, type GlossaryImportPreview } from '../../core/glossary/import-glossary.ts';
import { exportGlossary } from '../../core/glossary/export-glossary.ts';
import type { GlossaryImportResult } from '../../core/glossary/schemas.ts';
import { assertMayImportGlossary, fileProblemLines, glossaryFormatOf, glossaryPreviewFingerprint, GlossaryPreviewChanged, type GlossaryFormat } from './glossary-files.ts';
import { importCounts, importedSentence, type GlossaryFilePreview, type GlossaryFilesDraft } from './views/glossary-files.tsx';
import { screenshotRoutes, screenshotsOfKey, type PortalKit } from './screenshots.ts';
import { screenshotCounts } from '../../core/screenshots/screenshot-counts.ts';
import { taskChoices, taskRoutes, type TasksKit } from './tasks.ts';
import { listMyTasks } from '../../core/tasks/my-tasks.ts';
import { utcDay } from './views/task-parts.tsx';

type C = Context<PortalEnv>;

/** A well-formed UUID (Postgres refuses anything else with an error, which must not become a 500). */
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** The largest file the portal imports: the limit of POST /v1/import (functions/import/routes.ts). */
const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** A page component's output as the answer (hono/jsx renders components to escaped HTML strings). */
const page = (c: C, node: ReturnType<FC>, status: 200 | 201 | ContentfulStatusCode = 200, headers?: Record<string, string>) =>
  c.html(node as unknown as string | Promise<string>, status as ContentfulStatusCode, headers);

const userActor = (c: C): Actor => ({ type: 'user', id: requireUser(c).id });
const wantsJson = (c: C) => (c.req.header('accept') ?? '').includes('application/json');

/** The submitted form's text fields (files and repeated fields are not part of these forms). */
async function form(c: C): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `value` when it is a path of the portal on this site (no scheme, no host, no backslash), else undefined. */
function portalPath(value: string | undefined): string | undefined {
  if (!value || !value.startsWith(`${P}/`) || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return undefined;
  try {
    const url = new URL(value, 'http://portal.invalid');
    return url.origin === 'http://portal.invalid' && url.pathname.startsWith(`${P}/`) ? url.pathname + url.search : undefined;
  } catch {
    return undefined;
  }
}

class AlreadyCreated extends Error {}

/**
 * A create form sent twice (a reload of the page its answer is, a double click) creates once. The
 * form carries a one-time token (`submission`), claimed in the creation's own transaction in the
 * store the API's Idempotency-Key uses (scope `portal:<user id>`), so the claim commits if and only
 * if the creation does. A second sending of the same input gets `replayed`: what the first stored,
 * never a secret (a key is shown once, by the first answer). The same page sent again with other
 * input (back, another name) is another creation. A form without a token (an old page) just creates.
 */
async function createOnce<T>(
  c: C,
  submission: string | undefined,
  kind: 'project' | 'api-key' | 'invite' | 'import' | 'comment' | 'term' | 'glossary-import' | 'screenshot' | 'task',
  /** The input that decides what is created: the same token with other input creates again. */
  input: unknown,
  work: (deps: Deps) => Promise<T>,
  remember: (created: T) => Record<string, string>,
): Promise<{ created: T } | { replayed: Record<string, string> }> {
  const deps = c.get('deps');
  if (!submission || !isUuid(submission)) return { created: await work(deps) };
  const scope = `portal:${requireUser(c).id}`;
  const key = `${kind}:${submission.toLowerCase()}:${createHash('sha256').update(JSON.stringify(input)).digest('base64url')}`;
  const replay = async () => {
    const earlier = await findAnswer(deps.sql, scope, key);
    return earlier ? { replayed: JSON.parse(earlier.body) as Record<string, string> } : undefined;
  };
  const earlier = await replay();
  if (earlier) return earlier;
  try {
    return await transaction(deps, async (tx) => {
      if (!(await claimKey(tx.sql, scope, key, kind))) throw new AlreadyCreated();
      const created = await work({ ...deps, tx });
      await storeAnswer(tx.sql, scope, key, { status: 201, body: JSON.stringify(remember(created)) });
      return { created };
    });
  } catch (error) {
    // A concurrent sending of the same form committed first.
    if (error instanceof AlreadyCreated) return (await replay()) ?? Promise.reject(new AppError('conflict', 'This form was just sent; reload the page'));
    throw error;
  }
}

/** The editor's shown languages, remembered per project (the cookie's path is the project's pages). */
const SHOWN_LANGUAGES_COOKIE = 'tms_shown_languages';

/** A portal path with one query parameter set (a path that does not parse is kept as it is, and back() judges it). */
function withParam(path: string, name: string, value: string): string {
  if (!value) return path;
  try {
    const url = new URL(path, 'http://portal.invalid');
    url.searchParams.set(name, value);
    return url.origin === 'http://portal.invalid' ? url.pathname + url.search : path;
  } catch {
    return path;
  }
}

const BULK_DONE: Record<string, (n: number) => string> = {
  deleted: (n) => `${n} ${n === 1 ? 'key' : 'keys'} deleted: restore ${n === 1 ? 'it' : 'them'} from the Trash tab.`,
  approved: (n) => `${n} ${n === 1 ? 'value' : 'values'} approved.`,
  review: (n) => `${n} ${n === 1 ? 'value' : 'values'} sent to review.`,
  draft: (n) => `${n} ${n === 1 ? 'value' : 'values'} set back to draft.`,
  tagged: (n) => (n > 0 ? `Tagged ${n} ${n === 1 ? 'key' : 'keys'}.` : 'Nothing changed: the selected keys already had that tag.'),
  untagged: (n) => (n > 0 ? `Removed the tag from ${n} ${n === 1 ? 'key' : 'keys'}.` : 'Nothing changed: none of the selected keys had that tag.'),
  tagdeleted: (n) => `Deleted the tag: taken off ${n} ${n === 1 ? 'key' : 'keys'} (no key was deleted).`,
};

/**
 * The values the editor showed for the bulk form (`shown`: key id/language/version, "none" for a
 * value it showed missing), of the selected keys in the languages acted on: the versions the
 * bulk use-case compares (expected_versions), and the values that must still be missing.
 */
function shownValues(entries: string[], keyIds: string[], languages: string[]) {
  const selected = new Set(keyIds.map((id) => id.toLowerCase()));
  const versions: { key_id: string; language: string; version: number }[] = [];
  const none = new Set<string>();
  for (const entry of entries) {
    const match = /^([0-9a-f-]{36})\/([^/]+)\/(none|\d{1,15})$/i.exec(entry);
    if (!match || !isUuid(match[1]!)) throw new AppError('validation', 'The page sent values it cannot have shown: reload it', { issues: [{ loc: ['shown'], msg: 'not a value the page showed', type: 'value_error' }] });
    const keyId = match[1]!.toLowerCase();
    const language = match[2]!;
    if (!selected.has(keyId) || !languages.includes(language)) continue;
    if (match[3] === 'none') none.add(`${keyId}/${language}`);
    else versions.push({ key_id: keyId, language, version: Number(match[3]) });
  }
  return { versions, none };
}

/** A bulk status change refused because values changed after the page was loaded (412), in the editor's words. */
function bulkChanged(n: number): AppError {
  const which = n === 1 ? '1 of the selected values' : n > 1 ? `${n} of the selected values` : 'Selected values';
  return new AppError(
    'precondition_failed',
    `Nothing was changed: ${which} changed since this page was loaded. They are shown below as they are now, with your selection kept: check them and apply again.`,
  );
}

/**
 * A bulk action whose selection names a key deleted since the page was loaded: the use-case's 404
 * (which names ids) becomes a refusal naming the keys, answered on the editor with the selection
 * kept (orEditorError), as for a value changed meanwhile. Nothing was changed either way.
 */
async function keysStillThere<T>(c: C, a: ProjectAccess, keyIds: string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (!(error instanceof AppError) || error.code !== 'not_found') throw thrown;
    const ids = keyIds.filter(isUuid);
    const gone = await c.get('deps').sql<{ key: string }[]>`
      select key from translation_keys where project_id = ${a.projectId} and deleted_at is not null and id = any(${ids}::uuid[]) order by key limit 11`;
    if (gone.length === 0) throw thrown;
    const names = gone.slice(0, 10).map((k) => k.key).join(', ') + (gone.length > 10 ? ' and more' : '');
    throw new AppError(
      'precondition_failed',
      `Nothing was changed: ${gone.length === 1 ? 'the selected key' : 'selected keys'} ${names} ${gone.length === 1 ? 'was' : 'were'} deleted since this page was loaded (the Trash can restore ${gone.length === 1 ? 'it' : 'them'}). The others are still selected: apply again.`,
    );
  }
}

/** The line a bulk action leaves on the editor (`done=<action>-<count>` from its redirect). */
function bulkNotice(done: string | null): string | undefined {
  const match = /^(deleted|approved|review|draft|tagged|untagged|tagdeleted)-(\d{1,6})$/.exec(done ?? '');
  if (!match) return undefined;
  const n = Number(match[2]);
  if (n > 0 || match[1] === 'deleted' || match[1] === 'tagged' || match[1] === 'untagged' || match[1] === 'tagdeleted') return BULK_DONE[match[1]!]!(n);
  return 'Nothing changed: the selected keys have no value in the shown languages you may edit, or their values already had that status (an approved value is changed only by a reviewer).';
}

/**
 * The page of this project a header form (Publish, Auto-publish) was sent from, to return to it:
 * only a path of this project's pages (never another project's, never another site), else the editor.
 */
function projectPage(a: ProjectAccess, returnTo: string | undefined): string {
  const base = `${P}/projects/${a.projectId}`;
  const path = portalPath(returnTo);
  return path && (path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`)) ? path : base;
}

/**
 * Back to the page the form came from: only a portal path, never an address elsewhere, and never
 * one with a control character (a line break in a Location header failed after the write was done).
 */
function back(c: C, returnTo: string | undefined, fallback: string) {
  return c.redirect(returnTo === P ? P : (portalPath(returnTo) ?? fallback), 303);
}

/**
 * A language code from the address, as the core stores it (`DE` is `de`): checked and written as
 * one code, so a check cannot look at a language the write then does not touch. A code that is none
 * stays as typed, for the use-case's own 422.
 */
const languageParam = (c: C, name = 'language') => {
  const raw = c.req.param(name) ?? '';
  return canonicalLanguageCode(raw) ?? raw;
};

/**
 * A key id from the address, as the database writes it (5D78… is 5d78…): checked and canonical in
 * one step, as languageParam does for codes, so that ids compared as text (the events' entity ids,
 * a revert's event) match whatever case the address had. Anything else stays as given (no key).
 */
const keyIdParam = (c: C) => {
  const raw = c.req.param('key_id') ?? '';
  return isUuid(raw) ? raw.toLowerCase() : raw;
};

/**
 * Post/Redirect/Get: keeps what the write did and sends the browser, 303, to the GET page that
 * shows it (`outcome=` there names it: functions/portal/outcomes.ts). A reload or Back then reads
 * that page again and never repeats the write.
 */
async function redirectWithOutcome(c: C, place: Place, path: string, outcome: Outcome) {
  const id = await keepOutcome(c.get('deps'), requireUser(c).id, place, outcome);
  return c.redirect(withParam(path, 'outcome', id), 303);
}

/** The outcome the page's `outcome=` names (a write's redirect), if it is this user's and this place's. */
const outcomeFor = (c: C, place: Place) => findOutcome(c.get('deps'), requireUser(c).id, place, c.req.query('outcome'));

/** The user's access to the project, checked against a permission: 404 if not a member, 403 if the role does not allow it. */
async function access(c: C, permission: Permission): Promise<ProjectAccess> {
  const user = requireUser(c);
  const projectId = c.req.param('project_id') ?? '';
  const found = isUuid(projectId) ? await projectAccess(c.get('deps'), user.id, projectId) : null;
  if (!found) throw new AppError('not_found', 'Project not found');
  assertMay(found.role, permission);
  return found;
}

/**
 * The headers an error's status needs beyond the page's own: a 429 says when to come back
 * (Retry-After, from the error's retryAfterSeconds), on a page as in the API.
 */
function errorHeaders(error: AppError): Record<string, string> {
  const retry = (error.data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return error.code === 'rate_limited' && typeof retry === 'number' && retry > 0 ? { 'Retry-After': String(Math.ceil(retry)) } : {};
}

/** A rendered page answered with an error's status and headers (every form's error answer is made here). */
function asErrorAnswer(res: Response, error: AppError): Response {
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(errorHeaders(error))) headers.set(name, value);
  return new Response(res.body, { status: statusOf(error.code), headers });
}

/** Runs a form's use-case; an AppError becomes the form page again with its message (status and headers kept). */
async function orFormError<T>(work: () => Promise<T>, render: (error: string, problems: FieldProblems) => Response | Promise<Response>, c: C): Promise<T | Response> {
  try {
    return await work();
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (!(error instanceof AppError)) throw thrown;
    return asErrorAnswer(await render(error.message, fieldProblems(error)), error);
  }
}

const cacheOf = (c: C, projectId: string) => cacheStatus(c.get('deps'), { projectId });

/**
 * A save refused because the value is not what the page showed (If-Match or create-only failed).
 * Their version is then shown beside the field and the form names it, so Save again replaces it
 * knowingly; a reload would only lose the typed text.
 */
const VALUE_CHANGED = 'Someone else changed this value since the page was loaded; nothing was saved. Their version is shown below your text: Save again to replace it with yours.';

/**
 * What a value form's `version` asks of the write: the value as the page showed it (If-Match), or
 * none at all ("none": If-None-Match). A form without one (an older page) asks nothing.
 */
/** The source text's number an editor form names (source_rev), when it is one. */
const sourceRevOf = (rev: string | undefined) => (/^\d{1,15}$/.test(rev ?? '') ? Number(rev) : undefined);

const versionCondition = (version: string | undefined) =>
  version === 'none' ? { ifNoneMatch: '*' as const } : /^\d{1,15}$/.test(version ?? '') ? { ifMatch: [Number(version)] } : {};

/** A revert refused because the value changed after History was loaded. */
const HISTORY_CHANGED = 'Not reverted: someone else changed this value since this page was loaded, and a revert would overwrite what they wrote unseen. The history below is as it is now: revert again if you still want that version.';

/** The value as stored now (text, status, version), or null when there is none. */
async function storedValue(c: C, a: ProjectAccess, keyId: string, language: string): Promise<{ value: string; status: string; version: number } | null> {
  if (!isUuid(keyId)) return null;
  const sql = c.get('deps').sql;
  const [row] = await sql<{ value: string; status: string; version: string }[]>`
    select v.value, v.status, v.version from ${valueById(sql, keyId, language)} v where v.project_id = ${a.projectId}`;
  return row ? { value: row.value, status: row.status, version: Number(row.version) } : null;
}

/**
 * Where the owner's browser reached the portal, for a link handed to someone else. The browser's own
 * `Origin` on the form's POST says it best: behind CloudFront the function sees the API Gateway
 * address (CloudFront does not forward Host), and an invitee sent there would get session cookies
 * for a domain nobody else uses. The POST passed the CSRF check, so that header came from the
 * portal's page; a client that forges it only fools itself. Without one (or "null"): the request's
 * own address, https behind a proxy that ends TLS (portalSession's `secure`).
 */
function publicOrigin(c: Context<PortalEnv>): string {
  const origin = c.req.header('origin');
  if (origin && /^https?:\/\/[^/\s]+$/i.test(origin) && URL.canParse(origin)) return new URL(origin).origin;
  const url = new URL(c.req.url);
  return `${c.get('secure') ? 'https:' : url.protocol}//${url.host}`;
}

/** File imports take up to 10 MiB, and the preview's "Apply" sends the file back base64-encoded (multipart, so not grown further). */
const MAX_PORTAL_BODY_BYTES = Math.ceil((MAX_IMPORT_BYTES * 4) / 3) + 64 * 1024;

/** The helpers the screenshots' routes (screenshots.ts) share with these: passed, so that neither file imports the other. */
const kit: PortalKit = { access, page, createOnce, redirectWithOutcome, outcomeFor, asErrorAnswer, cacheOf };
/** The same helpers, for the tasks' routes (tasks.ts). */
const tasksKit: TasksKit = { access, page, createOnce, redirectWithOutcome, outcomeFor, asErrorAnswer, cacheOf };

const routes = new Hono<PortalEnv>()
  .use('*', portalHeaders())
  // Pages gzip-compressed for browsers that ask (all do): an editor page of 50 keys in 10 languages
  // is 1.26 MB of HTML (a form per value, alike), 52 KB compressed. The API's answers are not
  // compressed here (cached files are stored compressed; live answers' ETags name their bytes).
  .use('*', compress())
  // Here, not in front of the router: a file over the limit gets the portal's page (onError below), not JSON.
  .use('*', requestBodyLimit(MAX_PORTAL_BODY_BYTES))
  .get('/assets/portal.css', (c) => c.body(PORTAL_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }))
  .get('/assets/portal.js', (c) => c.body(PORTAL_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }))
  // The home page is /portal; /portal/ (the printed address, a typed one) leads there.
  .use('*', async (c, next) => (c.req.path === `${P}/` ? c.redirect(`${P}${new URL(c.req.url).search}`, 308) : next()))
  .use('*', formBody())
  .use('*', portalSession())

  // Home: setup on a fresh installation, sign-in when signed out, the projects otherwise.
  .get('/', async (c) => {
    const deps = c.get('deps');
    if (await needsSetup(deps)) return c.redirect(`${P}/setup`, 303);
    const session = c.get('session');
    if (!session) return c.redirect(`${P}/sign-in`, 303);
    // "My tasks": the member's open tasks across their accounts' projects, soonest due first.
    const [memberships, projects, myTasks] = await Promise.all([listMemberships(deps, session.user.id), listProjectsOf(deps, session.user.id), listMyTasks(deps, { userId: session.user.id })]);
    return page(c, ProjectsPage({ user: session.user, csrf: c.get('csrf'), memberships, projects, myTasks, today: utcDay(deps.clock.now()), submission: randomUUID() }));
  })

  .get('/setup', async (c) => {
    if (!(await needsSetup(c.get('deps')))) return c.redirect(`${P}/sign-in`, 303);
    return page(c, SetupPage({ csrf: c.get('csrf') }));
  })
  .post('/setup', async (c) => {
    const f = await form(c);
    const result = await orFormError(
      () => setupFirstOwner(c.get('deps'), { adminToken: f.admin_token ?? '', email: f.email ?? '', password: f.password ?? '', accountName: f.account_name ?? '', plan: (f.plan ?? 'unlimited') as 'unlimited', address: c.get('clientAddress') }),
      (error, problems) => page(c, SetupPage({ csrf: c.get('csrf'), error, problems, email: f.email, accountName: f.account_name, plan: f.plan })),
      c,
    );
    if (result instanceof Response) return result;
    setSessionCookie(c, (await createSession(c.get('deps'), result.id)).token);
    return c.redirect(`${P}`, 303);
  })

  // `next`: the portal page a signed-out visitor asked for (an emailed or bookmarked link), opened
  // after signing in; only a path of the portal, never another site.
  .get('/sign-in', (c) => {
    const next = portalPath(c.req.query('next'));
    if (c.get('session')) return c.redirect(next ?? `${P}`, 303);
    return page(c, SignInPage({ csrf: c.get('csrf'), next }));
  })
  .post('/sign-in', async (c) => {
    const f = await form(c);
    const next = portalPath(f.next);
    const result = await orFormError(
      () => signIn(c.get('deps'), { email: f.email ?? '', password: f.password ?? '', address: c.get('clientAddress') }),
      (error) => page(c, SignInPage({ csrf: c.get('csrf'), error, email: f.email, next })),
      c,
    );
    if (result instanceof Response) return result;
    setSessionCookie(c, (await createSession(c.get('deps'), result.id)).token);
    return c.redirect(next ?? `${P}`, 303);
  })
  .post('/sign-out', async (c) => {
    const token = sessionToken(c);
    if (token) await endSession(c.get('deps'), token);
    clearSessionCookie(c);
    return c.redirect(`${P}/sign-in`, 303);
  })
  .post('/sign-out-everywhere', async (c) => {
    await endAllSessions(c.get('deps'), requireUser(c).id);
    clearSessionCookie(c);
    return c.redirect(`${P}/sign-in`, 303);
  })

  .get('/invite/:token', async (c) => {
    const invite = await findInvite(c.get('deps'), c.req.param('token'));
    if (!invite) throw new AppError('not_found', 'This invitation link is unknown, already used or expired: ask for a new one');
    return page(c, InvitePage({ csrf: c.get('csrf'), token: c.req.param('token'), accountName: invite.account_name, role: invite.role, languages: invite.languages }));
  })
  .post('/invite/:token', async (c) => {
    const token = c.req.param('token');
    const f = await form(c);
    const invite = await findInvite(c.get('deps'), token);
    const result = await orFormError(
      () => acceptInvite(c.get('deps'), { token, email: f.email ?? '', password: f.password ?? '', address: c.get('clientAddress') }),
      (error) =>
        page(c, InvitePage({ csrf: c.get('csrf'), error, email: f.email, token, accountName: invite?.account_name ?? 'the account', role: invite?.role ?? '', languages: invite?.languages ?? null })),
      c,
    );
    if (result instanceof Response) return result;
    setSessionCookie(c, (await createSession(c.get('deps'), result.id)).token);
    return c.redirect(`${P}`, 303);
  })

  // Accounts: members (owners) and new projects.
  .get('/accounts/:account_id/members', async (c) => renderMembers(c, undefined, undefined, (await outcomeFor(c, { account: c.req.param('account_id') }))?.notice))
  .post('/accounts/:account_id/invites', async (c) => {
    const user = requireUser(c);
    const f = await form(c);
    const languages = (f.languages ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const accountId = c.req.param('account_id');
    // A role or language refused: said on the Members page, like a role change's refusal. The form
    // carries a one-time token, like the project and API key forms: a reload of the page showing
    // the link (its secret is shown once, so this answer cannot be a redirect) creates no second one.
    const outcome = await orFormError(
      () =>
        createOnce(
          c,
          f.submission,
          'invite',
          { accountId, role: f.role ?? '', languages },
          (deps) => createInvite(deps, { userId: user.id, accountId, role: (f.role ?? '') as 'translator', languages }),
          (invite) => ({ id: invite.id }),
        ),
      (error, problems) => renderMembers(c, undefined, error, undefined, { role: f.role ?? '', languages: f.languages ?? '', problems }),
      c,
    );
    if (outcome instanceof Response) return outcome;
    if ('replayed' in outcome) return renderMembers(c, undefined, undefined, INVITE_ONCE_SENT);
    return renderMembers(c, `${publicOrigin(c)}${P}/invite/${outcome.created.token}`);
  })
  .post('/accounts/:account_id/invites/:invite_id/revoke', async (c) => {
    const user = requireUser(c);
    const inviteId = c.req.param('invite_id');
    if (!isUuid(inviteId)) throw new AppError('not_found', 'Invitation not found');
    const done = await orFormError(
      () => revokeInvite(c.get('deps'), { userId: user.id, accountId: c.req.param('account_id'), inviteId }),
      (error) => renderMembers(c, undefined, error),
      c,
    );
    return done instanceof Response
      ? done
      : redirectWithOutcome(c, { account: c.req.param('account_id') }, `${P}/accounts/${c.req.param('account_id')}/members`, { notice: 'Invitation revoked: its link no longer works.' });
  })
  .post('/accounts/:account_id/members/:member_id/role', async (c) => {
    const user = requireUser(c);
    const f = await form(c);
    const languages = (f.languages ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const done = await orFormError(
      () => changeRole(c.get('deps'), { userId: user.id, accountId: c.req.param('account_id'), memberId: c.req.param('member_id'), role: (f.role ?? '') as 'translator', languages }),
      (error) => renderMembers(c, undefined, error, undefined, { memberId: c.req.param('member_id'), role: f.role ?? '', languages: f.languages ?? '' }),
      c,
    );
    return done instanceof Response ? done : c.redirect(membersPageOf(c), 303);
  })
  .post('/accounts/:account_id/members/:member_id/remove', async (c) => {
    const user = requireUser(c);
    const done = await orFormError(
      () => removeMember(c.get('deps'), { userId: user.id, accountId: c.req.param('account_id'), memberId: c.req.param('member_id') }),
      (error) => renderMembers(c, undefined, error),
      c,
    );
    return done instanceof Response ? done : c.redirect(membersPageOf(c), 303);
  })
  .post('/accounts/:account_id/projects', async (c) => {
    const user = requireUser(c);
    const accountId = c.req.param('account_id');
    const membership = (await listMemberships(c.get('deps'), user.id)).find((m) => m.account_id === accountId);
    if (!membership) throw new AppError('not_found', 'Account not found');
    assertMay(membership.role, 'projects.create');
    const f = await form(c);
    // A refusal (a name of spaces, the plan's project limit) is said at the form, the name kept.
    const outcome = await orFormError(
      () =>
        createOnce(
          c,
          f.submission,
          'project',
          { name: f.name ?? '', accountId },
          (deps) => createProject(deps, { accountId, name: f.name ?? '', actor: userActor(c) }),
          (project) => ({ id: project.id, name: project.name }),
        ),
      async (error) => {
        const deps = c.get('deps');
        const [memberships, projects, myTasks] = await Promise.all([listMemberships(deps, user.id), listProjectsOf(deps, user.id), listMyTasks(deps, { userId: user.id })]);
        return page(
          c,
          ProjectsPage({ user, csrf: c.get('csrf'), memberships, projects, myTasks, today: utcDay(deps.clock.now()), error, submission: randomUUID(), draft: { accountId, name: f.name ?? '' } }),
        );
      },
      c,
    );
    if (outcome instanceof Response) return outcome;
    if ('replayed' in outcome) return page(c, ProjectCreatedPage({ user, csrf: c.get('csrf'), projectId: outcome.replayed.id!, name: outcome.replayed.name! }), 200);
    const project = outcome.created;
    return page(c, ProjectCreatedPage({ user, csrf: c.get('csrf'), projectId: project.id, name: project.name, apiKey: project.api_key.key }), 201);
  })

  // The editor.
  .get('/projects/:project_id', async (c) => {
    const a = await access(c, 'project.view');
    const outcome = await outcomeFor(c, { project: a.projectId });
    return renderEditor(c, a, new URL(c.req.url).searchParams, undefined, 200, {
      ...(outcome?.translated ? { translated: outcome.translated } : {}),
      ...(outcome?.notice ? { notice: outcome.notice } : {}),
      ...(outcome?.error ? { error: outcome.error } : {}),
    });
  })
  .post('/projects/:project_id/groups/:group_name/rename', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const name = c.req.param('group_name');
    const renamed = await orEditorError(
      c,
      a,
      f.return_to,
      'rename-group',
      'new_name',
      () => renameGroup(c.get('deps'), { projectId: a.projectId, name, newName: f.new_name ?? '', actor: userActor(c) }),
      { new_name: f.new_name ?? '' },
    );
    if (renamed instanceof Response) return renamed;
    // Its keys' names change in the published files (group-split builds), as after a bulk action.
    await publishAfter(c, a);
    // Back to the same view, now filtered by the new name.
    const query = returnQuery(a, f.return_to);
    query.set('group', renamed.new_name);
    query.delete('cursor');
    return c.redirect(`${P}/projects/${a.projectId}?${query}`, 303);
  })
  // A tag across the project (core/keys/project-tags.ts): renamed, or taken off every key. Tags are
  // the key form's (keys.manage) and not published: nothing to build after.
  .post('/projects/:project_id/tags/:tag/rename', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const renamed = await orEditorError(
      c,
      a,
      f.return_to,
      'rename-tag',
      'name',
      () => renameTag(c.get('deps'), { projectId: a.projectId, tag: c.req.param('tag'), name: f.name ?? '', actor: userActor(c) }),
      { name: f.name ?? '' },
    );
    if (renamed instanceof Response) return renamed;
    // Back to the same view, now filtered by the new name.
    const query = returnQuery(a, f.return_to);
    query.set('tag', renamed.to);
    query.delete('cursor');
    return c.redirect(`${P}/projects/${a.projectId}?${query}`, 303);
  })
  .post('/projects/:project_id/tags/:tag/delete', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const deleted = await orEditorError(c, a, f.return_to, 'delete-tag', 'tag', () => deleteTag(c.get('deps'), { projectId: a.projectId, tag: c.req.param('tag'), actor: userActor(c) }), {});
    if (deleted instanceof Response) return deleted;
    // The same view without the tag filter (no key has it now), saying what was done.
    const query = returnQuery(a, f.return_to);
    query.delete('tag');
    query.delete('cursor');
    query.set('done', `tagdeleted-${deleted.changed}`);
    return c.redirect(`${P}/projects/${a.projectId}?${query}`, 303);
  })
  .post('/projects/:project_id/keys', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const newTags = splitTags(f.tags ?? '');
    const created = await orEditorError(
      c,
      a,
      f.return_to,
      'new-key',
      'key',
      () => {
        // The Character limit field's text ("" or absent: none); anything but 1 to 10000 is refused at the field.
        const maxLength = maxLengthOfForm(f.max_length);
        return createKey(c.get('deps'), {
          projectId: a.projectId,
          actor: userActor(c),
          key: f.key ?? '',
          ...(f.group_name ? { group_name: f.group_name } : {}),
          description: f.description ? f.description : null,
          // Typed as one text ("mobile, release-2.3"), as in the key's Edit form; blank: none.
          ...(newTags.length > 0 ? { tags: newTags } : {}),
          ...(maxLength !== null ? { max_length: maxLength } : {}),
        });
      },
      { key: f.key ?? '', group_name: f.group_name ?? '', description: f.description ?? '', tags: f.tags ?? '', max_length: f.max_length ?? '' },
    );
    if (created instanceof Response) return created;
    return back(c, f.return_to, `${P}/projects/${a.projectId}`);
  })
  .post('/projects/:project_id/keys/:key_id', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const keyId = c.req.param('key_id');
    // Only the fields the user changed from what the form showed (`*_was`), and only over those
    // shown values: a colleague's change to another field stays, one to this field is a 412 with
    // the typed text kept. A description the form did not send is left as it is; the group is the
    // form's required field (without it, the use-case's 422, as before).
    const change = (name: 'group_name' | 'description') => {
      const now = name === 'group_name' ? (f.group_name ?? '') : f[name];
      const was = f[`${name}_was`];
      return now === undefined || (was !== undefined && now.replace(/\r\n?/g, '\n') === was.replace(/\r\n?/g, '\n')) ? {} : { [name]: { now, ...(was !== undefined ? { was } : {}) } };
    };
    // Tags are typed as one text ("mobile, release-2.3"): the same set in another order or spacing
    // is no change; a form without the field leaves them as they are.
    const tagsNow = f.tags === undefined ? undefined : splitTags(f.tags);
    const tagsWas = f.tags_was === undefined ? undefined : splitTags(f.tags_was);
    const tags = tagsNow === undefined || (tagsWas !== undefined && sameTags(tagsNow, tagsWas)) ? {} : { tags: { now: tagsNow, ...(tagsWas !== undefined ? { was: tagsWas } : {}) } };
    // The character limit likewise ("" removes it): " 30 " is the 30 shown. Its text is checked by the use-case.
    const maxNow = f.max_length;
    const maxWas = f.max_length_was;
    const maxLength = maxNow === undefined || (maxWas !== undefined && maxNow.trim() === maxWas.trim()) ? {} : { max_length: { now: maxNow, ...(maxWas !== undefined ? { was: maxWas } : {}) } };
    const typed = Object.fromEntries(['group_name', 'description', 'tags', 'max_length'].flatMap((n) => (f[n] !== undefined ? [[n, f[n]!]] : [])));
    const updated = await orEditorError(
      c,
      a,
      f.return_to,
      `key-${keyId}`,
      'key',
      () => editKeyAsShown(c.get('deps'), { projectId: a.projectId, keyId, actor: userActor(c), ...change('group_name'), ...change('description'), ...tags, ...maxLength }),
      typed,
    );
    if (updated instanceof Response) return updated;
    return back(c, f.return_to, `${P}/projects/${a.projectId}`);
  })
  .post('/projects/:project_id/keys/:key_id/delete', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    await deleteKey(c.get('deps'), { projectId: a.projectId, keyId: c.req.param('key_id'), actor: userActor(c) });
    // Its approved values leave the published files, as after a bulk delete.
    await publishAfter(c, a);
    return back(c, f.return_to, `${P}/projects/${a.projectId}`);
  })
  .post('/projects/:project_id/keys/:key_id/values/:language', async (c) => {
    const a = await access(c, 'values.edit');
    const language = languageParam(c);
    const keyId = keyIdParam(c);
    const f = await form(c);
    const status = (f.status ?? 'draft') as TranslationStatus;
    const deps = c.get('deps');
    // The editor always sends the field (empty to clear the value): a form without it, cut off or
    // empty, asks for nothing and must not save "" over the value.
    if (f.value === undefined) throw new AppError('validation', 'value: Field required', { issues: [{ loc: ['value'], msg: 'Field required', type: 'missing' }] });
    // The version the editor showed: a value changed by someone else since is not overwritten; and
    // "none" (it showed no value): one someone else created since is not overwritten either.
    const condition = versionCondition(f.version);
    let written;
    // An approved value taken back (to review or draft) leaves the published files too: read before
    // the write, which the version condition ties to what was read.
    let wasApproved = false;
    try {
      await assertMayWriteValue(c, a, language, status);
      if (status !== 'approved') wasApproved = (await storedValue(c, a, keyId, language))?.status === 'approved';
      // Written against the source text the page showed (source_rev): one changed since leaves it outdated.
      const sourceRev = sourceRevOf(f.source_rev);
      written = await putTranslation(deps, {
        projectId: a.projectId,
        keyId,
        language,
        value: f.value ?? '',
        status,
        actor: userActor(c),
        ...condition,
        ...(sourceRev !== undefined ? { sourceRev } : {}),
      });
    } catch (thrown) {
      const error = toDomainError(thrown);
      // Refusals that depend on what others did meanwhile (a change, an approval, the key deleted or
      // the language removed, the member's languages changed) or on the text.
      const approved = error instanceof ValueApproved;
      const gone = error instanceof AppError && (error.code === 'not_found' || error.code === 'forbidden') && !approved;
      if (!(error instanceof AppError) || (error.code !== 'precondition_failed' && error.code !== 'validation' && !approved && !gone)) throw thrown;
      const changed = error.code === 'precondition_failed' || approved;
      // The script shows the message at the value itself (a validation's issues as they are), and
      // for a value someone changed, their version beside the typed text (`current`). The typed
      // text stays in its field there whatever the refusal.
      if (wantsJson(c)) {
        if (!changed) throw thrown;
        const message = approved ? VALUE_APPROVED : VALUE_CHANGED;
        return asErrorAnswer(c.json({ detail: message, current: await storedValue(c, a, keyId, language) }), error);
      }
      // Without script: the editor again, as the form was sent from, the typed text kept in the
      // value's field (or, when the key is no longer listed, at the top of the page) and the refusal
      // next to it: never an error page that loses the text. An approved or changed value's stored
      // text is shown beside the typed one.
      const [key] = isUuid(keyId) ? await deps.sql<{ key: string; deleted: boolean }[]>`select key, deleted_at is not null as deleted from translation_keys where id = ${keyId} and project_id = ${a.projectId}` : [];
      const message = approved
        ? VALUE_APPROVED
        : error.code === 'precondition_failed'
          ? VALUE_CHANGED
          : gone
            ? `Not saved: ${key?.deleted ? 'this key was deleted since the page was loaded (the Trash can restore it)' : error.message}. Your text is kept here to copy.`
            : `Not saved: ${error.issues?.map((i) => i.msg).join('; ') ?? error.message}`;
      const stored = changed ? await storedValue(c, a, keyId, language) : undefined;
      const valueError: ValueError = { keyId, keyName: key?.key ?? keyId, language, value: f.value ?? '', status, version: f.version, message, changed, ...(changed ? { stored } : {}) };
      return asErrorAnswer(await renderEditor(c, a, returnQuery(a, f.return_to), undefined, 200, { valueError }), error);
    }
    if (status === 'approved' || wasApproved) await publishAfter(c, a);
    // The write's answer carries the value's quality warnings: the editor shows them for the text just
    // saved; and whether it is still outdated (a save of the same text keeps the mark). The save has
    // committed: a key deleted in the instant since answers "not outdated", not an error.
    if (wantsJson(c)) {
      const outdated = await getTranslation(deps, { projectId: a.projectId, keyId, language }).then((v) => v.outdated, () => false);
      return c.json({ ...written, outdated });
    }
    // Back at the value just saved (its field's id), not the top of a long page.
    const res = back(c, f.return_to, `${P}/projects/${a.projectId}`);
    res.headers.set('Location', `${res.headers.get('Location')}#v-${keyId}-${language}`);
    return res;
  })

  // "Mark up to date" on an outdated value (core/translations/mark-up-to-date.ts), over the value's
  // version and the source's version the page showed: a text or a source changed since is not
  // confirmed unseen, and the editor says so at the top of the page it comes back to.
  .post('/projects/:project_id/keys/:key_id/values/:language/up-to-date', async (c) => {
    const a = await access(c, 'values.edit');
    const language = languageParam(c);
    const keyId = keyIdParam(c);
    const f = await form(c);
    // Confirming an approved value confirms an approval: a reviewer's call, as changing it is.
    const stored = await storedValue(c, a, keyId, language);
    await assertMayWriteValue(c, a, language, (stored?.status ?? 'draft') as TranslationStatus);
    const ifMatch = /^\d{1,15}$/.test(f.version ?? '') ? [Number(f.version)] : undefined;
    const sourceRev = sourceRevOf(f.source_rev);
    const editor = portalPath(f.return_to) ?? `${P}/projects/${a.projectId}`;
    try {
      await markUpToDate(c.get('deps'), { projectId: a.projectId, keyId, language, actor: userActor(c), ...(ifMatch ? { ifMatch } : {}), ...(sourceRev !== undefined ? { sourceRev } : {}) });
    } catch (thrown) {
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || (error.code !== 'precondition_failed' && error.code !== 'not_found')) throw thrown;
      return redirectWithOutcome(c, { project: a.projectId }, editor, { error: `Not marked up to date: ${error.message}. The page below is as it is now.` });
    }
    const res = c.redirect(editor, 303);
    res.headers.set('Location', `${editor}#v-${keyId}-${language}`);
    return res;
  })

  // Translation memory for one value (the use-case of GET /v1/keys/{key_id}/suggestions/{language}):
  // JSON for the editor's script, a page of its own without script.
  .get('/projects/:project_id/keys/:key_id/suggestions/:language', async (c) => {
    const a = await access(c, 'project.view');
    const keyId = c.req.param('key_id');
    if (!isUuid(keyId)) throw new AppError('not_found', 'Key not found');
    const found = await suggestTranslations(c.get('deps'), { projectId: a.projectId, keyId, language: languageParam(c) });
    if (wantsJson(c)) return c.json(found);
    const [key] = await c.get('deps').sql<{ key: string }[]>`select key from translation_keys where id = ${keyId} and project_id = ${a.projectId}`;
    return page(c, SuggestionsPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache: await cacheOf(c, a.projectId), keyName: key?.key ?? keyId, suggestions: found }));
  })

  // "Translate missing": the use-case of POST /v1/translate/{language} (memory first, then the
  // provider), for the missing values of one language, as drafts, optionally of one group.
  .post('/projects/:project_id/translate', async (c) => {
    const a = await access(c, 'values.edit');
    const f = await form(c);
    const language = f.language ?? '';
    if (!mayEditLanguage(a, language)) throw new AppError('forbidden', `Your membership does not include ${language}`);
    const query = returnQuery(a, f.return_to);
    let result: TranslateResult;
    try {
      result = await translateMissing(c.get('deps'), {
        projectId: a.projectId,
        actor: userActor(c),
        language,
        only_missing: true,
        status: 'draft',
        ...(f.group ? { group: f.group } : {}),
      });
    } catch (thrown) {
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || error.code === 'forbidden' || error.code === 'not_found' || error.code === 'dependency') throw thrown;
      return asErrorAnswer(await renderEditor(c, a, query, undefined, 200, { translateError: translateErrorMessage(error) }), error);
    }
    if (result.translated > 0) await publishAfter(c, a);
    // Shown after a redirect: a reload of the answer must not translate (and charge) again.
    return redirectWithOutcome(c, { project: a.projectId }, `${P}/projects/${a.projectId}?${query}`, { translated: result });
  })

  .post('/projects/:project_id/bulk', async (c) => {
    const a = await access(c, 'project.view');
    const body = await c.req.parseBody({ all: true });
    const list = (name: string) => ([] as unknown[]).concat(body[name] ?? []).filter((x): x is string => typeof x === 'string');
    const action = list('action')[0];
    const keyIds = list('key');
    const returnTo = list('return_to')[0];
    const deps = c.get('deps');
    const invalid = (field: string, message: string) => new AppError('validation', message, { issues: [{ loc: [field], msg: message, type: 'value_error' }] });
    // The same use-cases as POST /v1/keys/bulk-delete and bulk-status (one transaction, all or nothing).
    let outcome = '';
    /** "Create a task from the selected keys": the New task form, the keys carried. */
    let newTask: string | undefined;
    // A refusal shows the editor again with the selection and the action kept. A selected key
    // deleted since the page was loaded is said by name, as a value changed since is.
    const done = await orEditorError(c, a, returnTo, 'bulk', 'action', () => keysStillThere(c, a, keyIds, async () => {
      if (keyIds.length === 0) throw invalid('action', 'Select at least one key first');
      if (action === 'task') {
        // Nothing is written here: the form asks for the rest (name, kind, language, assignees) and
        // creates the task over these keys. The editor's shown languages choose its first language.
        assertMay(a.role, 'tasks.manage');
        const query = new URLSearchParams();
        for (const id of keyIds.filter(isUuid)) query.append('key', id);
        for (const l of list('lang')) query.append('lang', l);
        newTask = `${P}/projects/${a.projectId}/tasks/new?${query.toString()}`;
      } else if (action === 'delete') {
        assertMay(a.role, 'keys.manage');
        const { deleted } = await bulkDeleteKeys(deps, { projectId: a.projectId, key_ids: keyIds, actor: userActor(c) });
        outcome = `deleted-${deleted}`;
        await publishAfter(c, a);
      } else if (action === 'tag-add' || action === 'tag-remove') {
        // Tags are the key's, as its group is: the key form's permission. Not published (the files carry no tags).
        assertMay(a.role, 'keys.manage');
        const tag = list('tag')[0] ?? '';
        if (tag.trim() === '') throw invalid('tag', `Type the tag to ${action === 'tag-add' ? 'add to' : 'remove from'} the selected keys`);
        const { changed } = await bulkTagKeys(deps, { projectId: a.projectId, key_ids: keyIds, actor: userActor(c), ...(action === 'tag-add' ? { add: [tag] } : { remove: [tag] }) }).catch(
          (thrown: unknown) => {
            // The tag refused (too long, a comma, a key over its limit of tags): said at the tag's field.
            const error = toDomainError(thrown);
            const about = error instanceof AppError && error.code === 'validation' ? error.issues?.filter((i) => i.loc.includes('add') || i.loc.includes('remove')) : undefined;
            throw about?.length ? invalid('tag', about.map((i) => i.msg).join('; ')) : thrown;
          },
        );
        outcome = `${action === 'tag-add' ? 'tagged' : 'untagged'}-${changed}`;
      } else if (action === 'approved' || action === 'review' || action === 'draft') {
        assertMay(a.role, action === 'approved' ? 'values.approve' : 'values.edit');
        // Only the shown languages the member may edit.
        const languages = list('lang').filter((l) => mayEditLanguage(a, l));
        if (languages.length === 0) throw new AppError('forbidden', 'None of the shown languages is yours to edit');
        // The values as the page showed them: a text changed since (or created since, where the
        // page showed none) is not given a status its reader never saw it with; nothing is.
        const shown = shownValues(list('shown'), keyIds, languages);
        const { changed } = await transaction(deps, async (tx) => {
          const result = await bulkSetStatus(
            { ...deps, tx },
            {
              projectId: a.projectId,
              key_ids: keyIds,
              languages,
              status: action,
              skipApproved: !may(a.role, 'values.approve'),
              actor: userActor(c),
              ...(shown.versions.length ? { expected_versions: shown.versions } : {}),
            },
          ).catch((thrown: unknown) => {
            const error = toDomainError(thrown);
            throw error instanceof AppError && error.code === 'precondition_failed' ? bulkChanged((error.data as { conflicts?: unknown[] } | undefined)?.conflicts?.length ?? 0) : thrown;
          });
          // The use-case locked the values it changed: one the page showed as missing is new.
          const created = result.values.filter((v) => shown.none.has(`${v.key_id}/${v.language}`)).length;
          if (created > 0) throw bulkChanged(created);
          return result;
        });
        outcome = `${action}-${changed}`;
        if (changed > 0) await publishAfter(c, a);
      } else {
        throw invalid('action', 'Choose an action: approve, send to review, set to draft, add or remove a tag, delete, or create a task');
      }
    }), { key: keyIds.join(','), action: action ?? '', tag: list('tag')[0] ?? '' });
    if (done instanceof Response) return done;
    if (newTask) return c.redirect(newTask, 303);
    // What happened, said on the page it returns to: a code and a count, never text from the request.
    return back(c, returnTo && withParam(returnTo, 'done', outcome), `${P}/projects/${a.projectId}?done=${outcome}`);
  })

  .get('/projects/:project_id/usage', async (c) => {
    const a = await access(c, 'project.view');
    const [usage, cache] = await Promise.all([readUsage(c.get('deps'), { projectId: a.projectId }), cacheOf(c, a.projectId)]);
    return page(c, UsagePage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, usage }));
  })

  // Activity and history.
  .get('/projects/:project_id/activity', async (c) => {
    const a = await access(c, 'project.view');
    const deps = c.get('deps');
    const before = Number(c.req.query('before'));
    const [log, cache] = await Promise.all([listActivity(deps, a.projectId, Number.isSafeInteger(before) && before > 0 ? before : undefined), cacheOf(c, a.projectId)]);
    return page(c, ActivityPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, ...log, names: await activityNames(deps, a.projectId, log.items) }));
  })
  .get('/projects/:project_id/keys/:key_id/values/:language/history', async (c) => {
    const a = await access(c, 'project.view');
    return renderHistory(c, a, (await outcomeFor(c, { project: a.projectId }))?.notice);
  })
  .post('/projects/:project_id/keys/:key_id/values/:language/revert', async (c) => {
    const a = await access(c, 'values.edit');
    const f = await form(c);
    const deps = c.get('deps');
    // side=before: the text that write replaced (History's entry for a text an import created).
    const version = await valueAfterEvent(deps, a.projectId, f.event_id, f.side === 'before' ? 'before' : 'after');
    if (!version || version.keyId !== keyIdParam(c) || version.language !== languageParam(c)) throw new AppError('not_found', 'That version of the value was not found');
    // The old text comes back; an approval comes back only from someone who may approve.
    const status = (version.status === 'approved' && !may(a.role, 'values.approve') ? 'review' : version.status) as TranslationStatus;
    await assertMayWriteValue(c, a, version.language, status);
    // Over the value History showed as current (its version, or "none": it showed no value), as a
    // value form writes: a change saved after the page was loaded is not reverted unseen.
    const condition = versionCondition(f.version);
    const wasApproved = status !== 'approved' && (await storedValue(c, a, version.keyId, version.language))?.status === 'approved';
    try {
      await putTranslation(deps, { projectId: a.projectId, keyId: version.keyId, language: version.language, value: version.value, status, actor: userActor(c), ...condition });
    } catch (thrown) {
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || error.code !== 'precondition_failed') throw thrown;
      return renderHistory(c, a, undefined, { error, message: HISTORY_CHANGED });
    }
    if (status === 'approved' || wasApproved) await publishAfter(c, a);
    // Back to the history by a redirect: reloading it must not revert again over a later change.
    return redirectWithOutcome(c, { project: a.projectId }, historyPath(a, version.keyId, version.language), { notice: `Reverted to "${version.value}" (${status}).` });
  })

  // Comments on a value (core/comments), on its History page: both forms answer 303 back to it, so
  // a reload never posts again. Adding is for whoever may write the language; deleting, for the
  // comment's author, and for owners and developers any comment ('comments.moderate').
  .post('/projects/:project_id/keys/:key_id/values/:language/comments', async (c) => {
    const a = await access(c, 'values.edit');
    const language = languageParam(c);
    const keyId = keyIdParam(c);
    // As for a value write there: a translator limited to other languages does not comment on this one.
    if (!mayEditLanguage(a, language)) throw new AppError('forbidden', `Your membership does not include ${language}`);
    const f = await form(c);
    const text = f.text ?? '';
    try {
      // A double click (or a form sent again) adds the comment once: the form's one-time token.
      await createOnce(
        c,
        f.submission,
        'comment',
        { keyId, language, text },
        (deps) => addComment(deps, { projectId: a.projectId, keyId, language, text, actor: userActor(c) }),
        (comment) => ({ id: comment.id }),
      );
    } catch (thrown) {
      // Refused text (blank, too long, a thread at its cap): the page again, the text kept in its field.
      // The key or language gone is the error page's, as for every other value form.
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || error.code !== 'validation') throw thrown;
      const problem = error.issues?.length ? error.issues.map((i) => i.msg).join('; ') : error.message;
      return renderHistory(c, a, undefined, { error, message: `Comment not added: ${problem}` }, { text, problem });
    }
    return backToComments(c, a, keyId, language, 'Comment added.');
  })
  // Resolve (or reopen) a comment: whoever may comment on the language, whoever wrote it (resolving
  // hides nothing, unlike a delete). The form says which state it asks for, so a form sent twice (or
  // an old page) leaves the comment as asked, and records nothing the second time.
  .post('/projects/:project_id/keys/:key_id/values/:language/comments/:comment_id/resolve', async (c) => {
    const a = await access(c, 'values.edit');
    const slot = { projectId: a.projectId, keyId: keyIdParam(c), language: languageParam(c) };
    if (!mayEditLanguage(a, slot.language)) throw new AppError('forbidden', `Your membership does not include ${slot.language}`);
    const commentId = c.req.param('comment_id');
    if (!isUuid(commentId)) throw commentNotFound();
    const f = await form(c);
    if (f.resolved !== 'yes' && f.resolved !== 'no') throw new AppError('validation', 'resolved must be yes or no', { issues: [{ loc: ['resolved'], msg: 'resolved must be yes or no', type: 'value' }] });
    const resolved = f.resolved === 'yes';
    await resolveComment(c.get('deps'), { ...slot, commentId, resolved, actor: userActor(c) });
    return backToComments(c, a, slot.keyId, slot.language, resolved ? 'Comment resolved.' : 'Comment reopened.');
  })
  .post('/projects/:project_id/keys/:key_id/values/:language/comments/:comment_id/delete', async (c) => {
    const a = await access(c, 'project.view');
    const slot = { projectId: a.projectId, keyId: keyIdParam(c), language: languageParam(c) };
    const commentId = c.req.param('comment_id');
    if (!isUuid(commentId)) throw commentNotFound();
    const onlyOwn = !may(a.role, 'comments.moderate');
    try {
      await deleteComment(c.get('deps'), { ...slot, commentId, actor: userActor(c), ...(onlyOwn ? { onlyAuthor: requireUser(c).id } : {}) });
    } catch (thrown) {
      throw onlyOwn ? await whyNotDeleted(c, a, slot, commentId, thrown) : thrown;
    }
    return backToComments(c, a, slot.keyId, slot.language, 'Comment deleted.');
  })

  // Publishing.
  .post('/projects/:project_id/publish', async (c) => {
    const a = await access(c, 'project.publish');
    const f = await form(c);
    await requestRebuild(c.get('deps'), { projectId: a.projectId, actor: userActor(c) });
    return c.redirect(projectPage(a, f.return_to), 303);
  })
  .get('/projects/:project_id/cache-status', async (c) => {
    const a = await access(c, 'project.view');
    return c.json(await cacheOf(c, a.projectId));
  })
  .post('/projects/:project_id/settings', async (c) => {
    const a = await access(c, 'project.publish');
    const f = await form(c);
    if (f.auto_rebuild !== 'true' && f.auto_rebuild !== 'false') throw new AppError('validation', 'auto_rebuild must be true or false', { issues: [{ loc: ['auto_rebuild'], msg: 'must be true or false', type: 'value' }] });
    await updateProject(c.get('deps'), { projectId: a.projectId, auto_rebuild: f.auto_rebuild === 'true', actor: userActor(c) });
    return c.redirect(projectPage(a, f.return_to), 303);
  })

  // Languages.
  .get('/projects/:project_id/languages', async (c) => {
    const a = await access(c, 'project.view');
    return renderLanguages(c, a, undefined, (await outcomeFor(c, { project: a.projectId }))?.notice);
  })
  .post('/projects/:project_id/languages', async (c) => {
    const a = await access(c, 'languages.manage');
    const f = await form(c);
    try {
      await addLanguage(c.get('deps'), { projectId: a.projectId, code: f.code ?? '', actor: userActor(c) });
    } catch (thrown) {
      // A code that is not one, already registered, or over the plan: said on the Languages tab.
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || !['validation', 'conflict', 'plan_limit'].includes(error.code)) throw thrown;
      const message = error.code === 'validation' && error.issues?.length ? `${f.code ?? ''}: ${error.issues.map((i) => i.msg).join('; ')}` : error.message;
      return renderLanguages(c, a, undefined, undefined, message, statusOf(error.code), f.code ?? '');
    }
    return c.redirect(`${P}/projects/${a.projectId}/languages`, 303);
  })
  .post('/projects/:project_id/languages/:code/remove', async (c) => {
    const a = await access(c, 'languages.manage');
    const code = languageParam(c, 'code');
    const f = await form(c);
    const deps = c.get('deps');
    // First the count, to confirm; the removal only with the confirmation, and only of the values it
    // counted: one written, changed or deleted since asks again with the new count (a form of an
    // earlier version, without them, asks again too).
    const shown = { values: Number(f.values), digest: f.digest ?? '' };
    const confirmed = f.confirmed === 'yes' && f.values !== undefined && Number.isSafeInteger(shown.values) && /^(?:[0-9a-f]{32}|none)$/.test(shown.digest);
    if (!confirmed) return renderLanguages(c, a, { code, ...(await valuesInLanguage(deps, a.projectId, code)) });
    let removed;
    try {
      removed = await removeLanguage(deps, { projectId: a.projectId, code, actor: userActor(c), shown });
    } catch (thrown) {
      if (!(thrown instanceof LanguageValuesChanged)) throw thrown;
      return renderLanguages(c, a, { code, ...thrown.now }, undefined, `The values of ${code} changed since you were asked (${shown.values} then, ${thrown.now.values} now). Nothing was removed: confirm again to remove them.`, 412);
    }
    // A reload of this answer must not remove the language again (re-added by someone meanwhile).
    return redirectWithOutcome(c, { project: a.projectId }, `${P}/projects/${a.projectId}/languages`, { notice: `Removed ${removed.code} and its ${removed.translations_deleted} values.` });
  })
  // Quality: the source language (memory, machine translation and checks compare with it) and the
  // checks that block approval (docs/quality.md), through the admin API's project update.
  .post('/projects/:project_id/quality', async (c) => {
    const a = await access(c, 'languages.manage');
    const body = await c.req.parseBody({ all: true });
    const one = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const many = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
    try {
      await updateProject(c.get('deps'), {
        projectId: a.projectId,
        actor: userActor(c),
        ...(one(body.source_language) ? { source_language: one(body.source_language) } : {}),
        // Checked against the known checks by the use-case (an unknown name is the 422 below).
        quality_blocking: many(body.quality_blocking) as QualityCheck[],
      });
    } catch (thrown) {
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || error.code !== 'validation') throw thrown;
      return renderLanguages(c, a, undefined, undefined, error.issues?.map((i) => i.msg).join('; ') ?? error.message, 422);
    }
    // A reload of this answer must not set the settings again over a colleague's later change.
    return redirectWithOutcome(c, { project: a.projectId }, `${P}/projects/${a.projectId}/languages`, { notice: 'Quality settings saved.' });
  })

  // The glossary (core/glossary): every member reads it; glossary.manage (owners, developers,
  // reviewers) adds, edits and deletes terms, a member limited to some languages only those
  // languages' translations. Each write answers 303 back to the page it came from (its search and
  // page kept), saying what it did; a refusal shows that page again, the typed text kept and the
  // message at its field. A term id that is not one of this project's terms is a 404.
  .get('/projects/:project_id/glossary', async (c) => {
    const a = await access(c, 'project.view');
    const outcome = await outcomeFor(c, { project: a.projectId });
    return renderGlossary(c, a, { q: c.req.query('q'), cursor: c.req.query('cursor'), notice: outcome?.notice });
  })
  // Glossary files (core/glossary/export-glossary.ts, import-glossary.ts): every member downloads
  // the glossary; a member who may import (glossary.manage, every language) previews a file (the
  // dry run) and applies it, as the Files page imports a translation file. Registered before the
  // term routes: "import" is no term id.
  .get('/projects/:project_id/glossary/export', async (c) => {
    const a = await access(c, 'project.view');
    // A format that is none is the use-case's 422, on the error page.
    const file = await exportGlossary(c.get('deps'), { projectId: a.projectId, format: (c.req.query('format') ?? 'csv') as GlossaryFormat });
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.filename}"` });
  })
  .post('/projects/:project_id/glossary/import', async (c) => {
    const a = await access(c, 'glossary.manage');
    assertMayImportGlossary(a);
    const body = await c.req.parseBody();
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const apply = text('apply') === 'yes';
    const file = body.file;
    const filename = apply ? text('filename') : file instanceof File ? file.name : '';
    const bytes = apply ? new Uint8Array(Buffer.from(text('file_base64'), 'base64')) : file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array(0);
    const chosen = text('format');
    const deps = c.get('deps');
    const here = glossaryPath(a.projectId);
    try {
      if (bytes.length === 0) throw new AppError('validation', 'Choose a file to import', { issues: [{ loc: ['file'], msg: 'Choose a file to import', type: 'missing' }] });
      if (bytes.length > MAX_IMPORT_BYTES) throw new AppError('too_large', 'The file is larger than 10 MiB');
      const format = glossaryFormatOf(chosen, filename);
      const command = { projectId: a.projectId, actor: userActor(c), format, body: bytes };
      if (!apply) {
        const preview = await previewGlossaryImport(deps, { ...command, dryRun: true });
        return renderGlossary(c, a, { filePreview: glossaryPreview(preview, filename, Buffer.from(bytes).toString('base64')) });
      }
      // Apply: once per preview (its one-time token, claimed in the import's transaction: Back to the
      // preview and Apply again, or a double click, imports nothing the second time), and only when
      // the import does what the preview showed: checked by the import itself once it has read the
      // glossary (the project's row and the terms it compares locked) and before it writes; when it
      // differs (a term added or changed since), nothing is written and this is the new preview.
      const shown = text('preview');
      const fileHash = createHash('sha256').update(bytes).digest('base64url');
      const once = await createOnce(
        c,
        text('submission') || undefined,
        'glossary-import',
        { project: a.projectId, format, fileHash },
        (tokenDeps) =>
          importGlossaryAsPreviewed(tokenDeps, { ...command, dryRun: false }, (now) => {
            if (glossaryPreviewFingerprint(now) !== shown) throw new GlossaryPreviewChanged(now);
          }),
        (result) => ({ result: JSON.stringify(result) }),
      );
      if ('replayed' in once) {
        const first = JSON.parse(once.replayed.result ?? 'null') as GlossaryImportResult | null;
        return redirectWithOutcome(c, { project: a.projectId }, here, { notice: glossaryOnceApplied(first) });
      }
      // Shown after a redirect: a reload of the answer to this POST must not import the file again.
      return redirectWithOutcome(c, { project: a.projectId }, here, { notice: importedSentence(once.created) });
    } catch (thrown) {
      if (thrown instanceof GlossaryPreviewChanged) {
        const preview = { ...glossaryPreview(thrown.preview, filename, text('file_base64')), notice: GLOSSARY_PREVIEW_CHANGED };
        return asErrorAnswer(await renderGlossary(c, a, { filePreview: preview }), new AppError('precondition_failed', GLOSSARY_PREVIEW_CHANGED));
      }
      const error = toDomainError(thrown);
      if (!(error instanceof AppError) || (error.code !== 'validation' && error.code !== 'conflict')) throw thrown;
      // The file's problems at the file field (by its lines), the format's at the format select; the
      // choice kept. A term added meanwhile under a spelling of the file (409) is said at the top.
      const field = error.issues?.[0]?.loc[0] === 'format' ? 'format' : 'file';
      const filesDraft: GlossaryFilesDraft = { format: chosen, ...(error.code === 'validation' ? { refusal: { field, lines: fileProblemLines(error) } } : {}) };
      const said = error.code === 'validation' ? 'Not imported: nothing was written. The problems are listed at the form below.' : `Not imported: ${error.message}`;
      return asErrorAnswer(await renderGlossary(c, a, { error: said, filesDraft }), error);
    }
  })
  .post('/projects/:project_id/glossary', async (c) => {
    const a = await access(c, 'glossary.manage');
    const f = await form(c);
    const place = glossaryPlace(a, f.return_to);
    // An empty translation field is no translation.
    const translations = Object.fromEntries(typedTranslations(f).filter(([, text]) => text.trim() !== ''));
    assertOwnTranslations(a, Object.keys(translations));
    const command = {
      term: f.term ?? '',
      description: oneNewline(f.description ?? ''),
      case_sensitive: f.case_sensitive === 'yes',
      translatable: f.do_not_translate !== 'yes',
      forbidden: f.forbidden === 'yes',
      translations,
    };
    try {
      // A double click (or the form sent again) adds the term once: the form's one-time token.
      const outcome = await createOnce(
        c,
        f.submission,
        'term',
        { project: a.projectId, ...command },
        (deps) => createTerm(deps, { projectId: a.projectId, actor: userActor(c), ...command }),
        (term) => ({ id: term.id, term: term.term }),
      );
      const notice = 'replayed' in outcome ? `This form was already sent: the term ${outcome.replayed.term ?? ''} was added once.` : `Added the term ${outcome.created.term}.`;
      return redirectWithOutcome(c, { project: a.projectId }, place.path, { notice });
    } catch (thrown) {
      const refused = termRefusal(thrown);
      return asErrorAnswer(await renderGlossary(c, a, { ...place, error: `Not added: ${refused.message}`, draft: { form: 'new', values: f, problems: refused.problems } }), refused.error);
    }
  })
  .post('/projects/:project_id/glossary/:term_id', async (c) => {
    const a = await access(c, 'glossary.manage');
    const termId = termIdParam(c);
    const f = await form(c);
    const place = glossaryPlace(a, f.return_to);
    const deps = c.get('deps');
    // Only what was changed from what the form showed (`*_was`): a colleague's change to another
    // field, or another language, since the page was loaded stays.
    const changes = termChanges(f);
    assertOwnTranslations(a, Object.keys(changes.translations ?? {}));
    try {
      if (Object.keys(changes).length === 0) {
        const term = await getTerm(deps, { projectId: a.projectId, termId });
        return redirectWithOutcome(c, { project: a.projectId }, place.path, { notice: `Nothing to save: the term ${term.term} is as it was.` });
      }
      const term = await updateTerm(deps, { projectId: a.projectId, actor: userActor(c), termId, ...changes });
      return redirectWithOutcome(c, { project: a.projectId }, place.path, { notice: `Saved the term ${term.term}.` });
    } catch (thrown) {
      const refused = termRefusal(thrown);
      return asErrorAnswer(await renderGlossary(c, a, { ...place, error: `Not saved: ${refused.message}`, draft: { form: termId, values: f, problems: refused.problems } }), refused.error);
    }
  })
  .post('/projects/:project_id/glossary/:term_id/delete', async (c) => {
    const a = await access(c, 'glossary.manage');
    const termId = termIdParam(c);
    const f = await form(c);
    const deps = c.get('deps');
    const term = await getTerm(deps, { projectId: a.projectId, termId });
    // Its translations go with it: a member limited to some languages deletes only a term translated in theirs.
    assertOwnTranslations(a, Object.keys(term.translations));
    await deleteTerm(deps, { projectId: a.projectId, termId, actor: userActor(c) });
    return redirectWithOutcome(c, { project: a.projectId }, glossaryPlace(a, f.return_to).path, { notice: `Deleted the term ${term.term}.` });
  })

  // Screenshots (core/screenshots): the tab, a screenshot's page and forms, and the image route the
  // pages' <img> read (functions/portal/screenshots.ts).
  .route('/projects/:project_id/screenshots', screenshotRoutes(kit))

  // Tasks (core/tasks): the tab, the New task form, a task's page and its forms (functions/portal/tasks.ts).
  .route('/projects/:project_id/tasks', taskRoutes(tasksKit))

  // Import (dry run first, then apply) and export: the files API's core functions.
  .get('/projects/:project_id/files', async (c) => {
    const a = await access(c, 'files.transfer');
    const outcome = await outcomeFor(c, { project: a.projectId });
    return renderFiles(c, a, { applied: outcome?.imported, appliedTag: outcome?.importTag, notice: outcome?.notice });
  })
  .post('/projects/:project_id/import', async (c) => {
    const a = await access(c, 'files.transfer');
    const body = await c.req.parseBody();
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const choice: ImportChoice = { language: text('language'), format: text('format'), status: text('status') || 'draft', conflict: text('conflict') || 'overwrite', group: text('group') || 'Default', tag: text('tag') };
    // A blank tag field is no tag; the core's Tag trims one that is given (and refuses what no tag can be).
    const tag = choice.tag.trim() === '' ? undefined : choice.tag;
    const apply = text('apply') === 'yes';
    const file = body.file;
    const bytes = apply ? new Uint8Array(Buffer.from(text('file_base64'), 'base64')) : file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array(0);
    const command = {
      projectId: a.projectId,
      actor: userActor(c),
      language: choice.language,
      format: choice.format as 'json',
      status: choice.status as TranslationStatus,
      conflict: choice.conflict as 'overwrite',
      group: choice.group,
      ...(tag !== undefined ? { tag } : {}),
      body: bytes,
    };
    const attached = () => {
      if (bytes.length === 0) throw new AppError('validation', 'Choose a file to import', { issues: [{ loc: ['file'], msg: 'Choose a file to import', type: 'missing' }] });
      if (bytes.length > MAX_IMPORT_BYTES) throw new AppError('too_large', 'The file is larger than 10 MiB');
    };
    if (apply) {
      // The preview's Apply carries a one-time token: Back to an old preview and Apply again (or a
      // double click) imports once, over nothing colleagues changed since, and shows the first counts.
      const fileHash = createHash('sha256').update(bytes).digest('base64url');
      // The import runs inside the token's transaction, where it cannot run itself again when a key
      // of the file is created meanwhile (core/files/import-file.ts): token and import run again together.
      // The import checks what it decided against the preview before it writes (one read, its
      // project lock held through the write): when it would do other than the preview showed (a
      // value approved or changed since, a key created), nothing is imported and the new preview is
      // shown instead. A form without the preview's fingerprint (an older page) imports as it asks.
      const shown = typeof body.preview === 'string' ? body.preview : undefined;
      const once = await orImportError(c, a, choice, () =>
        againWhenNameTaken({}, (attempt) =>
          createOnce(
            c,
            text('submission') || undefined,
            'import',
            { project: a.projectId, choice, fileHash },
            (tokenDeps) => {
              // Run again after a race, the import locks what it reads (core/files/import-file.ts).
              const deps = { ...tokenDeps, lockBeforeRead: attempt > 1 };
              return shown === undefined
                ? importFile(deps, { ...command, dryRun: false })
                : importAsPreviewed(deps, command, (now) => {
                    if (previewFingerprint(now) !== shown) throw new PreviewChanged(now);
                  });
            },
            (applied) => ({ result: JSON.stringify(applied) }),
          ),
        ).catch((thrown: unknown) => (thrown instanceof PreviewChanged ? thrown : Promise.reject(thrown))),
      );
      if (once instanceof Response) return once;
      if (once instanceof PreviewChanged) {
        const preview = { result: once.preview, choice, file: text('file_base64'), submission: randomUUID(), fingerprint: previewFingerprint(once.preview) };
        return renderFiles(c, a, { preview, notice: IMPORT_PREVIEW_CHANGED }, 412);
      }
      const files = `${P}/projects/${a.projectId}/files`;
      // The counts name the tag (the result has only how many keys got it); a replay's form is the
      // first import's, tag included (the token's request is the choice).
      const importTag = tag === undefined ? {} : { importTag: tag.trim() };
      if ('replayed' in once) return redirectWithOutcome(c, { project: a.projectId }, files, { notice: IMPORT_ONCE_APPLIED, imported: JSON.parse(once.replayed.result ?? 'null') as ImportResult, ...importTag });
      await publishAfter(c, a);
      // The counts are shown after a redirect: a reload of the answer to this POST would import the
      // file again, over what colleagues changed since.
      return redirectWithOutcome(c, { project: a.projectId }, files, { imported: once.created, ...importTag });
    }
    // The preview: the import's dry run, with a sample of the keys and values it would change.
    const result = await orImportError(c, a, choice, () => {
      attached();
      return previewImport(c.get('deps'), command);
    });
    if (result instanceof Response) return result;
    return renderFiles(c, a, { preview: { result, choice, file: Buffer.from(bytes).toString('base64'), submission: randomUUID(), fingerprint: previewFingerprint(result) } });
  })
  .get('/projects/:project_id/export', async (c) => {
    const a = await access(c, 'files.transfer');
    const deps = c.get('deps');
    const format = c.req.query('format') ?? 'json';
    // XLIFF carries the source text beside each value: the chosen source language, else the
    // project's (the API asks for ?source=; the form offers it, defaulting to the project's).
    const source = isFormatId(format) && FORMATS[format].needsSource ? c.req.query('source') || (await qualitySettings(deps.sql, a.projectId))?.sourceLanguage : undefined;
    // The form's "Every key" is a blank tag: no filter (the API refuses a blank ?tag=); a blank
    // pseudo-language is none.
    const tag = c.req.query('tag');
    const pseudo = c.req.query('pseudo')?.trim();
    const file = await exportFile(deps, {
      projectId: a.projectId,
      language: c.req.query('language') ?? '',
      format: format as 'json',
      status: (c.req.query('status') ?? 'approved') as 'approved',
      ...(source ? { source } : {}),
      ...(tag !== undefined && tag.trim() !== '' ? { tag } : {}),
      ...(pseudo ? { pseudo } : {}),
    });
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.filename}"` });
  })

  // Trash: the admin API's restores, as the portal user.
  .get('/projects/:project_id/trash', async (c) => {
    const a = await access(c, 'keys.manage');
    return renderTrash(c, a, (await outcomeFor(c, { project: a.projectId }))?.notice);
  })
  .post('/projects/:project_id/trash/keys/:key_id/restore', async (c) => {
    const a = await access(c, 'keys.manage');
    const keyId = c.req.param('key_id');
    if (!isUuid(keyId)) throw new AppError('not_found', 'Deleted key not found');
    // The page the Restore was on (an older one names its cursor): the answer shows that page again.
    const f = await form(c);
    const at = isExactTimestamp(f.before) ? { deletedAt: f.before, key: f.key ?? '' } : undefined;
    const result = await orFormError(
      () => restoreKey(c.get('deps'), { projectId: a.projectId, keyId, actor: userActor(c) }),
      (error) => renderTrash(c, a, undefined, `Not restored: ${error}`, at),
      c,
    );
    const trash = `${P}/projects/${a.projectId}/trash${at ? `?${new URLSearchParams({ before: at.deletedAt, key: at.key })}` : ''}`;
    if (result instanceof Response) return result;
    // Its approved values are served again, as a deleted key's stop being.
    await publishAfter(c, a);
    // A reload must not restore again (a key deleted again meanwhile would come back).
    return redirectWithOutcome(c, { project: a.projectId }, trash, { notice: `Restored ${result.key}.` });
  })
  .post('/projects/:project_id/trash/groups/:group_name/restore', async (c) => {
    const a = await access(c, 'keys.manage');
    const f = await form(c);
    const deps = c.get('deps');
    const command = { projectId: a.projectId, name: c.req.param('group_name'), actor: userActor(c) };
    // The line's delete (its deleted_at), not whatever delete of the group is the latest when the
    // form arrives: one made after the page was loaded is not undone behind its author's back. A
    // form that does not say which delete (a page from before forms said so) restores nothing.
    const shown = f.deleted_at;
    const result = await orFormError(
      () =>
        isExactTimestamp(shown)
          ? transaction(deps, (tx) => restoringShownDelete(tx, a.projectId, command.name, shown, () => restoreGroup({ ...deps, tx }, command)))
          : Promise.reject(new AppError('validation', TRASH_LINE_UNKNOWN, { issues: [{ loc: ['deleted_at'], msg: TRASH_LINE_UNKNOWN, type: 'value_error' }] })),
      (error) => renderTrash(c, a, undefined, `Not restored: ${error}`),
      c,
    );
    if (result instanceof Response) return result;
    await publishAfter(c, a);
    return redirectWithOutcome(c, { project: a.projectId }, `${P}/projects/${a.projectId}/trash`, { notice: `Restored ${result.keys_restored} ${result.keys_restored === 1 ? 'key' : 'keys'} of ${result.group_name}.` });
  })

  // API keys.
  .get('/projects/:project_id/api-keys', async (c) => renderApiKeys(c, await access(c, 'api_keys.manage')))
  .post('/projects/:project_id/api-keys', async (c) => {
    const a = await access(c, 'api_keys.manage');
    const f = await form(c);
    // Origins one a line (or separated by commas or spaces), languages separated by commas; empty: no restriction.
    const list = (text: string | undefined, separator: RegExp) => {
      const items = (text ?? '').split(separator).map((s) => s.trim()).filter(Boolean);
      return items.length ? items : undefined;
    };
    // A kind the form does not offer is the use-case's 422, not silently a live key.
    const kind = (f.kind || 'live') as 'live' | 'delivery';
    const delivery = kind === 'delivery';
    const result = await orFormError(
      () =>
        createOnce(
          c,
          f.submission,
          'api-key',
          // The project too: the same page's token sent to another project's form creates there.
          { project: a.projectId, kind, name: f.name ?? '', origins: f.allowed_origins ?? '', languages: f.allowed_languages ?? '' },
          (deps) =>
            createApiKey(deps, {
              projectId: a.projectId,
              actor: userActor(c),
              kind,
              ...(f.name?.trim() ? { name: f.name } : {}),
              ...(delivery ? { allowed_origins: list(f.allowed_origins, /[\s,]+/), allowed_languages: list(f.allowed_languages, /,/) } : {}),
            }),
          (created) => ({ id: created.id }),
        ),
      (error, problems) =>
        renderApiKeys(c, a, undefined, 200, error, undefined, {
          name: f.name ?? '',
          kind: f.kind ?? 'live',
          allowed_origins: f.allowed_origins ?? '',
          allowed_languages: f.allowed_languages ?? '',
          problems,
        }),
      c,
    );
    if (result instanceof Response) return result;
    if ('replayed' in result) return renderApiKeys(c, a, undefined, 200, undefined, ONCE_SENT);
    return renderApiKeys(c, a, result.created, 201);
  })
  .post('/projects/:project_id/api-keys/:api_key_id/revoke', async (c) => {
    const a = await access(c, 'api_keys.manage');
    const id = c.req.param('api_key_id');
    if (!isUuid(id)) throw new AppError('not_found', 'API key not found');
    await assertApiKeyOfProject(c.get('deps'), a.projectId, id);
    await revokeApiKey(c.get('deps'), { apiKeyId: id, actor: userActor(c) });
    return c.redirect(`${P}/projects/${a.projectId}/api-keys`, 303);
  });

/** Members a page of the Members page lists. */
const MEMBERS_PAGE = 100;

/** A `members_after` position: an email as stored (lower case, at most 320 characters), else the first page. */
const membersAfter = (value: string | undefined) => (value && value.length <= 320 && value.isWellFormed() && !value.includes('\u0000') ? value : undefined);

/** The Members page an action on a member came from (its `members_after`). */
const membersPageOf = (c: C) => {
  const after = membersAfter(c.req.query('members_after'));
  return `${P}/accounts/${c.req.param('account_id')}/members${after === undefined ? '' : `?members_after=${encodeURIComponent(after)}`}`;
};

async function renderMembers(c: C, inviteLink?: string, error?: string, notice?: string, draft?: MembersDraft) {
  const user = requireUser(c);
  const accountId = c.req.param('account_id') ?? '';
  const deps = c.get('deps');
  const membership = (await listMemberships(deps, user.id)).find((m) => m.account_id === accountId);
  if (!membership) throw new AppError('not_found', 'Account not found');
  assertMay(membership.role, 'members.manage');
  // A page of members by email (an account of hundreds rendered every one, 1.3 KB each); `members_after`
  // is the last email of the page before. The forms of a row carry it, so a role change stays on its page.
  const after = membersAfter(c.req.query('members_after'));
  const rows = await deps.sql<MemberRow[]>`
    select m.user_id, u.email, m.role, m.languages from memberships m join users u on u.id = m.user_id
    where m.account_id = ${accountId} ${after === undefined ? deps.sql`` : deps.sql`and u.email > ${after}`}
    order by u.email limit ${MEMBERS_PAGE + 1}`;
  const members = rows.slice(0, MEMBERS_PAGE);
  const membersPage = { after, next: rows.length > MEMBERS_PAGE ? members.at(-1)!.email : undefined };
  const before = Number(c.req.query('before'));
  const [invites, log] = await Promise.all([pendingInvites(deps, accountId), listAccountActivity(deps, accountId, Number.isSafeInteger(before) && before > 0 ? before : undefined)]);
  // Members by email in the log, removed ones too: only the users this account's own events name.
  const userIds = [...new Set(log.items.filter((e) => e.entity_type === 'member').map((e) => e.entity_id))].filter((id) => isUuid(id));
  const emails = userIds.length ? await deps.sql<{ id: string; email: string }[]>`select id, email from users where id = any(${userIds}::uuid[])` : [];
  const activity = { ...log, names: { members: Object.fromEntries(emails.map((u) => [u.id, u.email])) } };
  return page(
    c,
    MembersPage({ user, csrf: c.get('csrf'), accountId, accountName: membership.account_name, members, membersPage, inviteLink, error, notice, invites, activity, submission: randomUUID(), draft }),
    inviteLink ? 201 : 200,
  );
}

/** A glossary term's id from the address, as stored (lower case); anything but a UUID is no term of the project (404). */
function termIdParam(c: C): string {
  const raw = c.req.param('term_id') ?? '';
  if (!isUuid(raw)) throw termNotFound();
  return raw.toLowerCase();
}

/** Line ends as one \n (a browser sends a textarea's as \r\n). */
const oneNewline = (text: string) => text.replace(/\r\n?/g, '\n');

/** The translation fields a glossary form sent (`translation_<code>`), by language code as typed. */
const typedTranslations = (f: Record<string, string>): [string, string][] =>
  Object.entries(f).flatMap(([name, text]) => {
    const match = /^translation_(.+)$/.exec(name);
    return match && !name.endsWith('_was') ? [[match[1]!, text] as [string, string]] : [];
  });

/** A membership limited to some languages writes only their translations (as a value's): 403 for another. */
function assertOwnTranslations(a: ProjectAccess, codes: string[]): void {
  const others = codes.map((code) => canonicalLanguageCode(code) ?? code).filter((code) => !mayEditLanguage(a, code));
  if (others.length) throw new AppError('forbidden', `Your membership does not include ${[...new Set(others)].join(', ')}: its glossary translations are not yours to change`);
}

/**
 * What an Edit form changes: each field the user changed from what it showed (`<name>_was`); a field
 * the form did not send is left as it is. An emptied translation is removed (null); one that was
 * empty and still is sends nothing. A checkbox sends `yes` only when ticked: its `_was` says the form
 * showed it, so its absence is "not ticked".
 */
function termChanges(f: Record<string, string>) {
  const changed = (now: string | undefined, was: string | undefined, same: (a: string, b: string) => boolean) => now !== undefined && (was === undefined || !same(now, was));
  const trimmed = (a: string, b: string) => a.trim() === b.trim();
  const flag = (name: string) => (f[name] === 'yes' ? true : f[`${name}_was`] !== undefined ? false : undefined);
  const flagChanged = (name: string) => {
    const now = flag(name);
    return now !== undefined && (f[`${name}_was`] === undefined || now !== (f[`${name}_was`] === 'yes'));
  };
  const translations: Record<string, string | null> = {};
  for (const [code, now] of typedTranslations(f)) {
    const was = f[`${translationField(code)}_was`];
    if (was !== undefined && now.trim() === was.trim()) continue;
    translations[code] = now.trim() === '' ? null : now;
  }
  return {
    ...(changed(f.term, f.term_was, trimmed) ? { term: f.term! } : {}),
    ...(changed(f.description, f.description_was, (a, b) => oneNewline(a).trim() === oneNewline(b).trim()) ? { description: oneNewline(f.description!) } : {}),
    ...(flagChanged('case_sensitive') ? { case_sensitive: flag('case_sensitive')! } : {}),
    ...(flagChanged('do_not_translate') ? { translatable: !flag('do_not_translate')! } : {}),
    ...(flagChanged('forbidden') ? { forbidden: flag('forbidden')! } : {}),
    ...(Object.keys(translations).length ? { translations } : {}),
  };
}

/**
 * A glossary write refused for its input (422) or a spelling the glossary has (409): the message,
 * and the problems by the form's field (a translation's at `translation_<code>`, `translatable` at
 * the Do not translate checkbox, `forbidden` at the Forbidden checkbox, the 409 at the term).
 * Anything else is the error page's.
 */
function termRefusal(thrown: unknown): { error: AppError; message: string; problems: FieldProblems } {
  const error = toDomainError(thrown);
  if (!(error instanceof AppError) || (error.code !== 'validation' && error.code !== 'conflict')) throw thrown;
  if (error.code === 'conflict') return { error, message: error.message, problems: { term: error.message } };
  const problems: Record<string, string> = {};
  for (const issue of error.issues ?? []) {
    const loc = issue.loc.filter((part) => part !== 'body');
    const at = loc.indexOf('translations');
    const first = loc.find((part): part is string => typeof part === 'string');
    const code = at >= 0 ? loc[at + 1] : undefined;
    // A problem of no field of the form ("nothing to change") is said at the form's top.
    // (`forbidden` is its own field's name, as `term` and `description` are.)
    const field = at >= 0 ? (typeof code === 'string' ? translationField(canonicalLanguageCode(code) ?? code) : 'translations') : first === 'translatable' ? 'do_not_translate' : (first ?? 'form');
    problems[field] = problems[field] ? `${problems[field]}; ${issue.msg}` : issue.msg;
  }
  const message = error.issues?.length ? error.issues.map((i) => i.msg).join('; ') : error.message;
  return { error, message, problems };
}

/**
 * The glossary page a form came from (`return_to`: its search and page), to come back to: only a
 * path of this project's glossary, else its first page.
 */
function glossaryPlace(a: ProjectAccess, returnTo: string | undefined): { path: string; q?: string | undefined; cursor?: string | undefined } {
  const first = glossaryPath(a.projectId);
  const path = portalPath(returnTo);
  if (!path) return { path: first };
  const url = new URL(path, 'http://portal.invalid');
  if (url.pathname !== first) return { path: first };
  const q = url.searchParams.get('q') ?? undefined;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  return { path: glossaryPath(a.projectId, q, cursor), q, cursor };
}

/**
 * The Glossary tab: a page of terms (100, by the core's cursor), searched by `q`, with the project's
 * languages but the source as columns. A page link that is not one the page made shows the first
 * page and says so; a search that cannot be one (too long, a NUL) is said at its field (422).
 */
async function renderGlossary(
  c: C,
  a: ProjectAccess,
  view: {
    q?: string | undefined;
    cursor?: string | undefined;
    notice?: string | undefined;
    error?: string | undefined;
    draft?: GlossaryDraft;
    filePreview?: GlossaryFilePreview;
    filesDraft?: GlossaryFilesDraft;
  },
) {
  const deps = c.get('deps');
  const q = view.q?.trim() || undefined;
  const badCursor = view.cursor !== undefined && view.cursor !== '' && (view.cursor.length > 4_000 || decodeCursor(view.cursor) === null);
  const cursor = badCursor || !view.cursor ? undefined : view.cursor;
  let searchProblem: string | undefined;
  const listed = listTerms(deps, { projectId: a.projectId, limit: GLOSSARY_PAGE, ...(q !== undefined ? { q } : {}), ...(cursor !== undefined ? { cursor } : {}) }).catch((thrown: unknown) => {
    const error = toDomainError(thrown);
    if (!(error instanceof AppError) || error.code !== 'validation') throw thrown;
    searchProblem = `Not searched: ${error.issues?.map((i) => i.msg).join('; ') ?? error.message}`;
    return { terms: [] as GlossaryTerm[], count: 0, next_cursor: null };
  });
  const [list, languages, quality, cache] = await Promise.all([listed, listLanguages(deps, { projectId: a.projectId }), qualitySettings(deps.sql, a.projectId), cacheOf(c, a.projectId)]);
  const sourceLanguage = quality?.sourceLanguage ?? 'en';
  let terms = list.terms;
  // A refused Edit of a term this page does not list (renamed out of the search meanwhile): shown first, with what was typed.
  const draft = view.draft;
  if (draft && draft.form !== 'new' && !terms.some((t) => t.id === draft.form)) {
    const term = await getTerm(deps, { projectId: a.projectId, termId: draft.form }).catch(() => null);
    if (term) terms = [term, ...terms];
  }
  const notice = badCursor ? 'That page link is not valid any more (or was changed): this is the first page.' : view.notice;
  const status = view.draft ? 200 : searchProblem ? 422 : 200;
  return page(
    c,
    GlossaryPage({
      user: requireUser(c),
      csrf: c.get('csrf'),
      access: a,
      cache,
      notice,
      error: view.error,
      terms,
      count: list.count,
      next: list.next_cursor ?? null,
      q,
      cursor,
      languages: languages.languages.map((l) => l.code).filter((code) => code !== sourceLanguage),
      sourceLanguage,
      submission: randomUUID(),
      draft,
      searchProblem,
      filePreview: view.filePreview,
      filesDraft: view.filesDraft,
    }),
    status,
  );
}

async function renderLanguages(c: C, a: ProjectAccess, confirm?: { code: string } & ShownValues, notice?: string, error?: string, status: ContentfulStatusCode = 200, typedCode?: string) {
  const deps = c.get('deps');
  const [list, counts, open, cache, quality, comments] = await Promise.all([
    listLanguages(deps, { projectId: a.projectId }),
    valuesPerLanguage(deps, a.projectId),
    openCommentsPerLanguage(deps, a.projectId),
    cacheOf(c, a.projectId),
    qualitySettings(deps.sql, a.projectId),
    // The comments go with the values: the confirmation says so (they are not in its check: they change nothing served).
    confirm ? commentsInLanguage(deps, a.projectId, confirm.code) : 0,
  ]);
  const languages = list.languages.map((l) => ({ code: l.code, values: counts.get(l.code) ?? 0, openComments: open.get(l.code) ?? 0 }));
  // Nothing to confirm for a language that is not there (removed meanwhile, or never added).
  if (confirm && !languages.some((l) => l.code === confirm.code)) throw languageNotRegistered(confirm.code);
  const shown = confirm && { ...confirm, comments };
  return page(c, LanguagesPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, languages, confirm: shown, notice, error, quality, typedCode }), status);
}

/**
 * The spec rebuilds the cache after portal approvals and bulk changes, whatever the project's
 * auto-rebuild setting. Queued at once: the builder's sequence check folds a burst of requests into
 * the builds it needs (as auto-rebuild does on Lambda).
 */
/** The editor's filters from a form's return_to (the page it was sent from), when it is this project's editor. */
function returnQuery(a: ProjectAccess, returnTo: string | undefined): URLSearchParams {
  const base = `${P}/projects/${a.projectId}`;
  if (!returnTo || !(returnTo === base || returnTo.startsWith(`${base}?`))) return new URLSearchParams();
  return new URLSearchParams(returnTo.slice(base.length + 1));
}

/** The editor page for these filters (the query string of /projects/:id), with a form's error shown at its field. */
async function renderEditor(
  c: C,
  a: ProjectAccess,
  q: URLSearchParams,
  formError?: FormError,
  status: ContentfulStatusCode = 200,
  outcome: { translated?: TranslateResult; translateError?: string; valueError?: ValueError; notice?: string; error?: string } = {},
) {
  const deps = c.get('deps');
  // A task's number (the Task filter); anything else is no filter (the select only offers numbers).
  const askedTask = /^[1-9]\d{0,8}$/.test(q.get('task') ?? '') ? q.get('task')! : undefined;
  const [languages, groups, tags, cache, tasks] = await Promise.all([
    listLanguages(deps, { projectId: a.projectId }),
    listGroups(deps, { projectId: a.projectId }),
    listTags(deps, { projectId: a.projectId }),
    cacheOf(c, a.projectId),
    // The Task filter's choices: the open tasks by number and name (and the one chosen).
    taskChoices(deps, a.projectId, askedTask === undefined ? undefined : Number(askedTask)),
  ]);
  const all = languages.languages.map((l) => l.code);
  const asked = q.getAll('lang').filter((l) => all.includes(l));
  // The languages chosen last in this project stay chosen (a cookie scoped to the project's pages),
  // across the tabs and after every form, until another choice.
  const remembered = (getCookie(c, SHOWN_LANGUAGES_COOKIE) ?? '').split(',').filter((l) => all.includes(l));
  if (asked.length) setCookie(c, SHOWN_LANGUAGES_COOKIE, asked.join(','), { path: `${P}/projects/${a.projectId}`, httpOnly: true, secure: c.get('secure'), sameSite: 'Lax', maxAge: 180 * 86_400 });
  const chosen = asked.length ? asked : remembered;
  const first = (name: string) => q.get(name) || undefined;
  // By default the source language, which every translation is made from, and the member's own
  // languages (or the first three), so a translator sees their work beside what it translates.
  const source = chosen.length ? undefined : (await qualitySettings(deps.sql, a.projectId))?.sourceLanguage;
  const own = all.filter((l) => mayEditLanguage({ role: a.role === 'owner' || a.role === 'developer' ? 'translator' : a.role, languages: a.languages }, l)).slice(0, 3);
  const filters: EditorFilters = {
    languages: chosen.length ? chosen : source && all.includes(source) && !own.includes(source) ? [source, ...own] : own,
    search: first('q'),
    group: first('group'),
    tag: first('tag'),
    status: first('status'),
    missing: first('missing'),
    outdated: first('outdated'),
    openComments: first('open_comments'),
    problems: first('problems'),
    task: askedTask,
    cursor: first('cursor'),
  };
  // A page link is only ever one the editor made; an edited or truncated one (a copy-paste cut at
  // the line end) shows the first page and says so, rather than the API's message about next_cursor.
  const badCursor = filters.cursor !== undefined && (filters.cursor.length > 4_000 || decodeCursor(filters.cursor) === null);
  if (badCursor) filters.cursor = undefined;
  // The API's listing (search, filters, cursor pages): the editor has no query of its own.
  const data = await editorPage(deps, {
    projectId: a.projectId,
    languages: filters.languages,
    search: filters.search,
    group: filters.group,
    tag: filters.tag,
    status: filters.status as TranslationStatus | undefined,
    missing: filters.missing && all.includes(filters.missing) ? filters.missing : undefined,
    outdated: filters.outdated && all.includes(filters.outdated) ? filters.outdated : undefined,
    open_comments: filters.openComments && all.includes(filters.openComments) ? filters.openComments : undefined,
    problems: filters.problems && all.includes(filters.problems) ? filters.problems : undefined,
    task: filters.task === undefined ? undefined : Number(filters.task),
    cursor: filters.cursor,
  });
  // How many screenshots show each key of the page: one grouped statement for the page.
  const screenshots = await screenshotCounts(deps, { projectId: a.projectId, keyIds: data.rows.map((r) => r.id) });
  return page(
    c,
    EditorView({ user: requireUser(c), csrf: c.get('csrf'), access: a, allLanguages: all, groups: groups.groups, tags: tags.tags, tasks, filters, page: data, screenshots, cache, formError, notice: badCursor ? 'That page link is not valid any more (or was changed): this is the first page.' : bulkNotice(q.get('done')), machineTranslation: deps.translator !== null, ...outcome }),
    status,
  );
}

/**
 * Runs an editor form's use-case; an AppError about the input shows the editor again, as the
 * form was sent from, with the message next to the field it is about (the validation issue's field,
 * else `field`), so the user can correct it where they typed it.
 */
async function orEditorError<T>(
  c: C,
  a: ProjectAccess,
  returnTo: string | undefined,
  form: string,
  field: string,
  work: () => Promise<T>,
  /** What the form sent, shown again in its fields. */
  values?: Record<string, string>,
): Promise<T | Response> {
  try {
    return await work();
  } catch (thrown) {
    const error = toDomainError(thrown);
    // Not yours, gone, or down: the error page says so; there is no field to show it at.
    if (!(error instanceof AppError) || error.code === 'forbidden' || error.code === 'not_found' || error.code === 'dependency') throw thrown;
    // A use-case's own refusal names the API's place (['body', field]): the form's field is the second.
    const at = error.code === 'validation' ? error.issues?.[0]?.loc : undefined;
    const loc = at?.[0] === 'body' && typeof at[1] === 'string' ? at[1] : at?.[0];
    const named = typeof loc === 'string' ? ({ newName: 'new_name', key_ids: 'action' } as Record<string, string>)[loc] ?? loc : field;
    const message = error.code === 'validation' && error.issues?.length ? error.issues.map((i) => i.msg).join('; ') : error.message;
    return asErrorAnswer(await renderEditor(c, a, returnQuery(a, returnTo), { form, field: named, message, ...(values ? { values } : {}) }), error);
  }
}

/** What a failed "Translate missing" tells the translator: the quota, the provider, the input. */
function translateErrorMessage(error: AppError): string {
  if (error.code === 'quota_exceeded') {
    const q = error.data as { used?: number; limit?: number; reset_date?: string } | undefined;
    const detail = q && q.limit !== undefined ? ` (it would bring this cycle's translation units to ${q.used}, over the limit of ${q.limit}${q.reset_date ? `; the allowance renews on ${q.reset_date}` : ''})` : '';
    return `Not translated: this would exceed the account's translation-unit quota${detail}. Nothing was written.`;
  }
  if (error.code === 'upstream') return `Not translated: the machine translation provider failed. ${error.message}`;
  if (error.code === 'writes_refused') return `Not translated: ${error.message}`;
  const issues = error.code === 'validation' && error.issues?.length ? error.issues.map((i) => i.msg).join('; ') : error.message;
  return `Not translated: ${issues}. Nothing was written.`;
}

async function publishAfter(c: C, a: ProjectAccess) {
  await requestRebuild(c.get('deps'), { projectId: a.projectId, actor: userActor(c) });
}

/** Language limits, approval, and a translator's hands off approved values. */
async function assertMayWriteValue(c: C, a: ProjectAccess, language: string, status: TranslationStatus) {
  if (!mayEditLanguage(a, language)) throw new AppError('forbidden', `Your membership does not include ${language}`);
  if (may(a.role, 'values.approve')) return;
  if (status === 'approved') throw new AppError('forbidden', `Your role (${a.role}) cannot approve values`);
  const keyId = c.req.param('key_id') ?? '';
  if (!isUuid(keyId)) return;
  // Changing an approved text would silently un-approve it: that is a reviewer's call.
  const [current] = await c.get('deps').sql<{ status: string }[]>`
    select v.status from ${valueById(c.get('deps').sql, keyId, language)} v where v.project_id = ${a.projectId}`;
  if (current?.status === 'approved') throw new ValueApproved();
}

/** A translator's write to an approved value: refused, and (a value form) told beside the typed text. */
class ValueApproved extends AppError {
  constructor() {
    super('forbidden', 'This value is approved: only a reviewer or developer can change it');
  }
}

const VALUE_APPROVED =
  'Not saved: this value was approved since the page was loaded, and only a reviewer or developer can change it now. The approved text is shown below; your text is kept here to copy or to send to a reviewer.';

/**
 * A value's page: its comments and its history. `draft`: a comment refused, its text kept in the
 * form and the reason beside it (`refusal` says it at the top).
 */
async function renderHistory(c: C, a: ProjectAccess, notice?: string, refusal?: { error: AppError; message: string }, draft?: { text: string; problem: string }) {
  const deps = c.get('deps');
  const keyId = keyIdParam(c);
  const language = languageParam(c);
  const [key] = isUuid(keyId) ? await deps.sql<{ key: string }[]>`select key from translation_keys where id = ${keyId} and project_id = ${a.projectId}` : [];
  if (!key) throw new AppError('not_found', 'Key not found');
  const [history, cache, comments, screenshots] = await Promise.all([
    valueHistory(deps, a.projectId, keyId, language),
    cacheOf(c, a.projectId),
    commentsOf(deps, a, keyId, language),
    screenshotsOfKey(deps, a.projectId, keyId, key.key),
  ]);
  const shown = [...history.items, ...history.items.flatMap((e) => (e.via ? [e.via] : [])), ...(history.unexplained?.source ? [history.unexplained.source] : [])];
  const { apiKeys } = await activityNames(deps, a.projectId, shown);
  return page(
    c,
    HistoryPage({
      user: requireUser(c),
      csrf: c.get('csrf'),
      access: a,
      cache,
      keyName: key.key,
      language,
      keyId,
      history,
      // An approved value is a reviewer's (assertMayWriteValue): a Revert offered to a translator would only be refused.
      mayRevert: mayEditLanguage(a, language) && (may(a.role, 'values.approve') || history.stored?.status !== 'approved'),
      revertNeedsReviewer: mayEditLanguage(a, language) && !may(a.role, 'values.approve') && history.stored?.status === 'approved',
      notice,
      error: refusal?.message,
      apiKeyNames: apiKeys,
      comments: comments && { list: comments, mayAdd: mayEditLanguage(a, language), moderator: may(a.role, 'comments.moderate'), draft, submission: randomUUID() },
      screenshots,
    }),
    refusal ? statusOf(refusal.error.code) : 200,
  );
}

/**
 * The value's comments, oldest first; null when its slot takes none (its key deleted, its language
 * removed or not a code): History is still shown for those, as before there were comments.
 */
async function commentsOf(deps: Deps, a: ProjectAccess, keyId: string, language: string): Promise<Comment[] | null> {
  try {
    return (await listComments(deps, { projectId: a.projectId, keyId, language })).comments;
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (error instanceof AppError && (error.code === 'not_found' || error.code === 'validation')) return null;
    throw thrown;
  }
}

/** A value's History page, where its comments are. */
const historyPath = (a: ProjectAccess, keyId: string, language: string) =>
  `${P}/projects/${a.projectId}/keys/${encodeURIComponent(keyId)}/values/${encodeURIComponent(language)}/history`;

/** After a comment was added or deleted: 303 to the value's comments, saying so. */
async function backToComments(c: C, a: ProjectAccess, keyId: string, language: string, notice: string) {
  const res = await redirectWithOutcome(c, { project: a.projectId }, historyPath(a, keyId, language), { notice });
  res.headers.set('Location', `${res.headers.get('Location')}#comments`);
  return res;
}

/**
 * A member who may delete only their own comments was answered "not found" (the core's answer to
 * an author who does not match). When the comment is there, another's (which the page shows them
 * anyway), the refusal is said as what it is, a 403, as the permission table has it; else the 404 stands.
 */
async function whyNotDeleted(c: C, a: ProjectAccess, slot: { projectId: string; keyId: string; language: string }, commentId: string, thrown: unknown): Promise<unknown> {
  const error = toDomainError(thrown);
  if (!(error instanceof AppError) || error.code !== 'not_found') return thrown;
  const thread = await listComments(c.get('deps'), slot).catch(() => null);
  const there = thread?.comments.some((cm) => cm.id === commentId.toLowerCase());
  return there ? new AppError('forbidden', `Your role (${a.role}) may delete only your own comments`) : thrown;
}

/**
 * The names the activity's words use that its events do not carry, for the events shown: keys (a
 * value's key, a key's; deleted keys too), the project's API keys that acted or were created or
 * revoked (revoked ones too: a key keeps its name; an id not found is told by its start) and
 * webhook endpoints (by url; a deleted one by its id).
 */
async function activityNames(deps: Deps, projectId: string, items: readonly ActivityItem[]): Promise<ActivityNames> {
  const ids = (pick: (e: ActivityItem) => string | null | undefined) => [...new Set(items.map(pick))].filter((id): id is string => typeof id === 'string' && isUuid(id));
  const keyIds = ids((e) => valueTarget(e)?.keyId ?? (e.entity_type === 'key' ? e.entity_id : null));
  const apiKeyIds = [...new Set([...ids((e) => (e.actor_type === 'api_key' ? e.actor_id : null)), ...ids((e) => (e.entity_type === 'api_key' ? e.entity_id : null))])];
  const webhookIds = ids((e) => (e.entity_type === 'webhook' ? e.entity_id : null));
  const [keys, apiKeys, webhooks] = await Promise.all([
    keyIds.length ? deps.sql<{ id: string; key: string }[]>`select id, key from translation_keys where project_id = ${projectId} and id = any(${keyIds}::uuid[])` : [],
    apiKeyIds.length ? deps.sql<{ id: string; name: string | null }[]>`select id, name from api_keys where project_id = ${projectId} and id = any(${apiKeyIds}::uuid[])` : [],
    webhookIds.length ? deps.sql<{ id: string; url: string }[]>`select id, url from webhook_endpoints where project_id = ${projectId} and id = any(${webhookIds}::uuid[])` : [],
  ]);
  return {
    keys: Object.fromEntries(keys.map((k) => [k.id, k.key])),
    apiKeys: Object.fromEntries(apiKeys.map((k) => [k.id, k.name])),
    webhooks: Object.fromEntries(webhooks.map((w) => [w.id, w.url])),
  };
}

/** The import form's fields a refusal can be about; anything else (the file's content, its size) is the file's. */
const IMPORT_FIELDS = ['language', 'format', 'status', 'conflict', 'group', 'tag'];

/**
 * Runs an import (or its preview); a refusal shows the Files page again with the choices kept (a
 * user re-attaching the fixed file must not import it into the default language) and the message
 * at the field it is about, tied to it with aria-describedby, as the editor's forms do.
 */
async function orImportError<T>(c: C, a: ProjectAccess, choice: ImportChoice, work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (!(error instanceof AppError)) throw thrown;
    // The command's own fields are named as such (['tag']); what the import decides, as the API's
    // query parameters (['query', 'tag']: a key the tag would take past 20 tags). ['body', key] is the file's.
    const loc = error.code === 'validation' ? error.issues?.[0]?.loc : undefined;
    const name = loc?.[0] === 'query' ? loc[1] : loc?.[0];
    const field = typeof name === 'string' && IMPORT_FIELDS.includes(name) ? name : 'file';
    return asErrorAnswer(await renderFiles(c, a, { choice, refusal: { field, message: error.message } }), error);
  }
}

async function renderFiles(
  c: C,
  a: ProjectAccess,
  extra: { preview?: ShownPreview; applied?: ImportResult | undefined; appliedTag?: string | undefined; notice?: string | undefined; choice?: ImportChoice; refusal?: ImportRefusal } = {},
  status: ContentfulStatusCode = 200,
) {
  const deps = c.get('deps');
  // The export's Tag select: listTags reads the partial index of tagged live keys, so a project
  // without tags reads no key for it (test/portal/page-costs.test.ts).
  const [list, cache, quality, tags] = await Promise.all([
    listLanguages(deps, { projectId: a.projectId }),
    cacheOf(c, a.projectId),
    qualitySettings(deps.sql, a.projectId),
    listTags(deps, { projectId: a.projectId }),
  ]);
  return page(
    c,
    FilesPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, languages: list.languages.map((l) => l.code), formats: Object.keys(FORMATS), sourceLanguage: quality?.sourceLanguage ?? 'en', tags: tags.tags, ...extra }),
    status,
  );
}

/**
 * What a preview showed, as a hash its Apply sends back: the dry run's counts and its listed changes
 * (descriptions and tagged keys too, and how many approved values lose that status, all of them). Apply runs the dry run again and
 * imports only when it finds the same (a key tagged meanwhile is one fewer to tag: 412, the new
 * preview); the file and choices are the Apply form's own.
 */
function previewFingerprint(p: ImportPreview): string {
  const { keys_created, values_created, values_updated, values_unchanged, values_kept, descriptions_updated, keys_tagged, translation_units, changes } = p;
  const shown = [keys_created, values_created, values_updated, values_unchanged, values_kept, descriptions_updated, keys_tagged, translation_units, changes];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url');
}

/** Apply's dry run found other than its preview showed: the new preview, to show instead of importing. */
class PreviewChanged extends Error {
  readonly preview: ImportPreview;
  constructor(preview: ImportPreview) {
    super('the import preview changed');
    this.preview = preview;
  }
}

/** A glossary import's preview to show: its Apply form carries the file, a new one-time token and what it shows. */
const glossaryPreview = (preview: GlossaryImportPreview, filename: string, file: string): GlossaryFilePreview => ({
  result: preview.result,
  filename,
  format: preview.result.format,
  file,
  submission: randomUUID(),
  fingerprint: glossaryPreviewFingerprint(preview),
});

const GLOSSARY_PREVIEW_CHANGED =
  'Nothing was imported: the glossary changed since the preview was made (terms added, changed or deleted meanwhile), so the import would not do what that preview showed. This is what it would do now: apply it if it is still right.';

/** What a glossary import's Apply sent a second time answers (Back to its preview, a double click). */
const glossaryOnceApplied = (first: GlossaryImportResult | null) =>
  `This preview was already applied, and nothing was imported again${first ? ` (that import: ${importCounts(first)})` : ''}. To import the file again, preview it again.`;

const IMPORT_PREVIEW_CHANGED =
  'Nothing was imported: the project changed since the preview was made (values saved, approved or created meanwhile), so the import would not do what that preview showed. This is what it would do now: apply it if it is still right.';

async function renderTrash(c: C, a: ProjectAccess, notice?: string, error?: string, cursor?: TrashCursor) {
  const deps = c.get('deps');
  // An older page: after the last key of the one before (the Older link), as Activity pages by id;
  // a refused Restore names the page it was on. A link that is not one the page made shows the newest keys.
  const before = c.req.method === 'GET' ? c.req.query('before') : undefined;
  const after = cursor ?? (isExactTimestamp(before) ? { deletedAt: before, key: c.req.query('key') ?? '' } : undefined);
  const [trash, cache] = await Promise.all([listTrash(deps, a.projectId, after), cacheOf(c, a.projectId)]);
  return page(c, TrashPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, ...trash, older: after !== undefined, at: after, notice, error }));
}

const TRASH_LINE_UNKNOWN = 'the form did not say which delete of the group to restore (a page loaded before a change of the trash, or cut short): use Restore on the line below.';

/** What an import's Apply sent a second time answers (Back to its preview, a double click). */
const IMPORT_ONCE_APPLIED = 'This preview was already applied, and nothing was imported again; these are the counts of that import. To import the file again, preview it again.';

/** What the invitation form sent a second time answers (the first sending created it and showed its link). */
const INVITE_ONCE_SENT =
  'This form was already sent, and that created the invitation (nothing was created again). Its link was shown once, then: if it was not copied, revoke it below and create another.';

/** What a create form sent a second time answers (the first sending created it and showed its key). */
const ONCE_SENT = 'This form was already sent, and that created the key: it was shown once, then. If it was not copied, create another and revoke this one.';

async function renderApiKeys(c: C, a: ProjectAccess, created?: CreatedApiKey, status: 200 | 201 = 200, error?: string, notice?: string, draft?: ApiKeyDraft) {
  const deps = c.get('deps');
  const [listed, cache] = await Promise.all([apiKeysForTab(deps, a.projectId), cacheOf(c, a.projectId)]);
  return page(c, ApiKeysPage({ user: requireUser(c), csrf: c.get('csrf'), access: a, cache, listed, created, error, notice, submission: randomUUID(), draft }), status);
}

// Errors as pages (or the API's envelope for the portal script's fetches), from the one status mapping.
// An HTTPException is about HTTP itself (a 415 for a body that is not a form): its own status and message.
routes.onError(async (thrown, c) => {
  const error = toDomainError(thrown);
  if (!(error instanceof AppError) && !(error instanceof HTTPException)) {
    c.get('deps')?.log.error('portal error', { request_id: c.get('requestId'), error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown) });
  }
  const status = error instanceof AppError ? statusOf(error.code) : error instanceof HTTPException ? (error.status as ContentfulStatusCode) : 500;
  const text =
    error instanceof AppError
      ? error.code === 'dependency'
        ? 'A dependency is unavailable; retry in a moment'
        : // The only large bodies a portal form sends are an import's file (a translation file, or a
          // glossary file) and a screenshot (whose use-case refuses one over 4 MiB itself, at its field).
          error.code === 'too_large' && c.req.path.endsWith('/glossary/import')
          ? 'The file is larger than 10 MiB, the most a glossary import takes: split it into several files and import each.'
          : error.code === 'too_large' && c.req.path.endsWith('/screenshots')
            ? 'The image is larger than 4 MiB, the most a screenshot may be: save it as JPEG or WebP, or at a smaller size.'
            : error.code === 'too_large' && c.req.path.endsWith('/import')
              ? 'The file is larger than 10 MiB, the most an import takes: split it, or import it in parts (a group at a time).'
              : error.message
      : error instanceof HTTPException
        ? error.message
        : 'Internal server error';
  const headers = error instanceof AppError ? errorHeaders(error) : {};
  if (wantsJson(c)) return c.json({ detail: error instanceof AppError && error.code === 'validation' && error.issues ? error.issues : text }, status, headers);
  // Signed out on a page: the sign-in link brings the visitor back to it.
  const url = new URL(c.req.url);
  let next = status === 401 && c.req.method === 'GET' ? portalPath(url.pathname + url.search) : undefined;
  // A form sent after the session ended (without script): the sign-in link goes back to the page it
  // came from, and a value's typed text is shown to copy, since signing in cannot carry it.
  let typed: { text: string; language: string | undefined } | undefined;
  if (status === 401 && c.req.method === 'POST') {
    const body: Record<string, unknown> = await c.req.parseBody().catch(() => ({}));
    next = portalPath(typeof body.return_to === 'string' ? body.return_to : undefined);
    if (typeof body.value === 'string' && body.value.trim() !== '') typed = { text: body.value, language: /\/values\/([A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)$/.exec(url.pathname)?.[1] };
  }
  return page(c, ErrorPage({ status, message: text, user: c.get('session')?.user, csrf: c.get('csrf') ?? '', next, typed }), status, headers);
});
// Last, for every address no route above answers: a mounted router's notFound() is never called
// (Hono calls the outer app's, which answers the API's JSON), so the page is a catch-all route.
routes.all('*', (c) => page(c, ErrorPage({ status: 404, message: 'There is no page at this address.', user: c.get('session')?.user, csrf: c.get('csrf') ?? '' }), 404));

// The group's routes are typed with the portal's context, a superset of AppEnv's.
export const portalGroup = routeGroup('portal', routes as unknown as Hono<AppEnv>, { maxBodyBytes: MAX_PORTAL_BODY_BYTES, limitsItsOwnBody: true });
