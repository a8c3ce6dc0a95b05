// What /openapi.json promises is what the service answers: every operation is called through the
// document (by operationId, its path and auth taken from it), and every answer's status must be one
// the operation documents, with the documented headers and a body valid against the documented
// schema. Every operation must be called with a 2xx at least once, so a new route gets a call here.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApp, type TestProject } from '../support/test-app.ts';
import { deref, operations, validate, type Doc, type Operation } from './openapi-support.ts';
import { webhookFixture } from '../support/webhook-receiver.ts';

// Webhook endpoints on loopback are allowed, so that the endpoint below sends nothing off this machine.
const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
let doc: Doc;
let byId: Map<string, Operation>;
let p: TestProject;
const answered = new Map<string, Set<number>>();

beforeAll(async () => {
  const res = await t.app.request('/openapi.json');
  expect(res.status).toBe(200);
  doc = await res.json();
  byId = new Map(operations(doc).map((o) => [o.id, o]));
  p = await t.newProject('solo');
});

type Call = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body with its Content-Type. */
  raw?: { type: string; body: string | Uint8Array };
  headers?: Record<string, string>;
  /** The API key to send (default: the test project's); null for none. */
  apiKey?: string | null;
};

/** Calls an operation as a generated client would, and holds the answer against the document. */
async function call(id: string, request: Call = {}): Promise<Response> {
  const o = byId.get(id);
  if (!o) throw new Error(`no operation ${id} in /openapi.json`);
  const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${id}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(request.query).toString();
  const scheme = Object.keys(o.op.security?.[0] ?? {})[0];
  const headers: Record<string, string> = { ...request.headers };
  if (scheme === 'apiKey' && request.apiKey !== null) headers['X-API-Key'] = request.apiKey ?? p.apiKey;
  if (scheme === 'adminToken') headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
  let body: string | Uint8Array | undefined;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.raw) {
    headers['Content-Type'] = request.raw.type;
    body = request.raw.body;
  }
  const res = await t.app.request(`${path}${query ? `?${query}` : ''}`, { method: o.method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
  await conforms(o, res.clone());
  return res;
}

async function conforms(o: Operation, res: Response) {
  const documented = o.op.responses[String(res.status)];
  const text = await res.text();
  expect(documented, `${o.id} answered ${res.status} (${text.slice(0, 200)}), which it does not document`).toBeDefined();
  const response = deref(doc, documented);
  for (const name of Object.keys(response.headers ?? {})) {
    expect(res.headers.get(name), `${o.id} ${res.status}: header ${name}`).not.toBeNull();
  }
  if (!answered.has(o.id)) answered.set(o.id, new Set());
  answered.get(o.id)!.add(res.status);
  if (!response.content) {
    expect(text, `${o.id} ${res.status} documents no body`).toBe('');
    return;
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const media = response.content[type];
  expect(media, `${o.id} ${res.status} answered ${type}, documented: ${Object.keys(response.content)}`).toBeDefined();
  if (type === 'application/json') {
    expect(validate(doc, media.schema, JSON.parse(text)), `${o.id} ${res.status}: ${text.slice(0, 300)}`).toEqual([]);
  }
}

const ids: Record<string, string> = {};

describe('every answer is one the document promises', () => {
  it('health, languages, keys, values, groups, live reads, usage', async () => {
    expect([200, 503]).toContain((await call('checkHealth')).status);
    expect((await call('addLanguage', { json: { code: 'de' } })).status).toBe(201);
    expect((await call('addLanguage', { json: { code: 'fr-ca' } })).status).toBe(201);
    expect((await call('addLanguage', { json: { code: 'de' } })).status).toBe(409);
    expect((await call('addLanguage', { json: { code: 'deutsch' } })).status).toBe(422);
    expect((await call('listLanguages')).status).toBe(200);

    const created = await call('createKey', { json: { key: 'home.title', group_name: 'home', description: 'The title' } });
    expect(created.status).toBe(201);
    ids.title = (await created.json()).id;
    expect((await call('createKey', { json: { key: 'home.title', group_name: 'home' } })).status).toBe(409);
    expect((await call('createKey', { json: { key: 'k'.repeat(501) } })).status).toBe(422);
    expect((await call('createKey', { raw: { type: 'text/plain', body: 'home.x' } })).status).toBe(415);
    expect((await call('listKeys', { query: { group: 'home' } })).status).toBe(200);
    expect((await call('updateKey', { params: { key_id: ids.title! }, json: { description: 'Title' } })).status).toBe(200);
    expect((await call('updateKey', { params: { key_id: randomUUID() }, json: { description: 'x' } })).status).toBe(404);
    expect((await call('listKeys', { apiKey: null })).status).toBe(401);
    expect((await call('listKeys', { headers: { 'X-Project-Id': randomUUID() } })).status).toBe(403);

    const value = { params: { key_id: ids.title!, language: 'de' }, json: { value: 'Hallo', status: 'approved' } };
    expect((await call('putTranslation', value)).status).toBe(200);
    expect((await call('putTranslation', { ...value, params: { ...value.params, language: 'fr-CA' }, json: { value: 'Bonjour' } })).status).toBe(200);
    expect((await call('putTranslation', { ...value, params: { ...value.params, language: 'it' } })).status).toBe(404);

    for (const status of ['approved', 'all']) {
      expect((await call('readLanguageTranslations', { params: { language: 'de' }, query: { status } })).status).toBe(200);
      expect((await call('readGroupTranslations', { params: { language: 'de', group: 'home' }, query: { status } })).status).toBe(200);
      expect((await call('readKeyTranslation', { params: { language: 'de', group: 'home', key: 'home.title' }, query: { status } })).status).toBe(200);
    }
    expect((await call('readLanguageTranslations', { params: { language: 'it' } })).status).toBe(404);
    expect((await call('readKeyTranslation', { params: { language: 'de', group: 'home', key: 'home.none' } })).status).toBe(404);
    expect((await call('readLanguageTranslations', { params: { language: 'de' }, query: { status: 'published' } })).status).toBe(422);
    expect((await call('readManifest')).status).toBe(200);
    expect((await call('listGroups')).status).toBe(200);
    expect((await call('validateGroup', { json: { name: 'other' } })).status).toBe(201);
    expect((await call('validateGroup', { json: { name: 'home' } })).status).toBe(409);
    expect((await call('readUsage')).status).toBe(200);
  });

  it('translation memory and machine translation', async () => {
    // The test project's source language is de, its first language; fr-CA is a target.
    expect((await call('suggestTranslations', { params: { key_id: ids.title!, language: 'fr-CA' } })).status).toBe(200);
    expect((await call('suggestTranslations', { params: { key_id: randomUUID(), language: 'fr-CA' } })).status).toBe(404);
    expect((await call('suggestTranslations', { params: { key_id: ids.title!, language: 'fr-CA' }, query: { limit: '99' } })).status).toBe(422);
    expect((await call('translateMissing', { params: { language: 'fr-CA' }, json: {} })).status).toBe(200);
    expect((await call('translateMissing', { params: { language: 'fr-CA' }, json: { status: 'approved' } })).status).toBe(422);
    expect((await call('translateMissing', { params: { language: 'it' }, json: {} })).status).toBe(404);
  });

  it('the cache and the cached reads, with their ETags and 304s', async () => {
    expect((await call('readCachedManifest')).status).toBe(503);
    expect((await call('rebuildCache')).status).toBe(202);
    await t.runtime.rebuilds!.idle();
    const status = await call('readCacheStatus');
    expect((await status.json()).ready).toBe(true);

    const reads: [string, Record<string, string>][] = [
      ['readCachedManifest', {}],
      ['readCachedLanguageTranslations', { language: 'de' }],
      ['readCachedGroupTranslations', { language: 'de', group: 'home' }],
      ['readCachedKeyTranslation', { language: 'de', group: 'home', key: 'home.title' }],
    ];
    for (const [id, params] of reads) {
      const res = await call(id, { params });
      expect(res.status, id).toBe(200);
      const etag = res.headers.get('etag')!;
      expect((await call(id, { params, headers: { 'If-None-Match': etag } })).status, id).toBe(304);
    }
    expect((await call('readCachedKeyTranslation', { params: { language: 'de', group: 'home', key: 'home.none' } })).status).toBe(404);
    expect((await call('readCachedLanguageTranslations', { params: { language: 'd' } })).status).toBe(422);

    // The versioned build URLs the cached manifest names.
    const build_id = (await (await call('readCachedManifest')).json()).build_id as string;
    for (const [id, params] of [
      ['readBuildLanguageTranslations', { build_id, language: 'de' }],
      ['readBuildGroupTranslations', { build_id, language: 'de', group: 'home' }],
    ] as const) {
      const res = await call(id, { params });
      expect(res.status, id).toBe(200);
      expect((await call(id, { params, headers: { 'If-None-Match': res.headers.get('etag')! } })).status, id).toBe(304);
    }
    expect((await call('readBuildLanguageTranslations', { params: { build_id: '20200101T000000000Z-00000000', language: 'de' } })).status).toBe(404);
    expect((await call('readBuildLanguageTranslations', { params: { build_id: 'latest', language: 'de' } })).status).toBe(422);
  });

  it('import and export', async () => {
    const file = { type: 'application/json', body: JSON.stringify({ 'home.subtitle': 'Untertitel', 'home.title': 'Hallo' }) };
    const dry = await call('importFile', { params: { language: 'de' }, query: { dry_run: 'true', format: 'json' }, raw: file });
    expect(dry.status).toBe(200);
    expect((await call('importFile', { params: { language: 'de' }, query: { status: 'approved' }, raw: file })).status).toBe(200);
    const csv = { type: 'text/csv', body: 'key,value\nhome.footer,Fuß\n' };
    expect((await call('importFile', { params: { language: 'de' }, query: { format: 'csv' }, raw: csv })).status).toBe(200);
    expect((await call('importFile', { params: { language: 'it' }, raw: file })).status).toBe(404);
    expect((await call('importFile', { params: { language: 'de' }, raw: { type: 'application/json', body: '{"a":' } })).status).toBe(422);
    expect((await call('importFile', { params: { language: 'de' }, query: { conflict: 'fail' }, raw: { ...file, body: '{"home.title":"Servus"}' } })).status).toBe(409);

    const exported = await call('exportFile', { params: { language: 'de' } });
    expect(exported.status).toBe(200);
    expect((await call('exportFile', { params: { language: 'de' }, headers: { 'If-None-Match': exported.headers.get('etag')! } })).status).toBe(304);
    for (const format of ['po', 'android', 'yaml', 'csv', 'ios-strings']) {
      expect((await call('exportFile', { params: { language: 'de' }, query: { format, status: 'all' } })).status, format).toBe(200);
    }
    expect((await call('exportFile', { params: { language: 'de' }, query: { format: 'xliff', source: 'fr-CA' } })).status).toBe(200);
    expect((await call('exportFile', { params: { language: 'de' }, query: { format: 'xliff' } })).status).toBe(422);
  });

  it('one key, one value, pages, conditional writes and bulk actions', async () => {
    expect((await call('getKey', { params: { key_id: ids.title! } })).status).toBe(200);
    expect((await call('getKey', { params: { key_id: randomUUID() } })).status).toBe(404);
    const page = await call('listKeys', { query: { search: 'title', limit: '1' } });
    expect(typeof (await page.json()).next_cursor).toBe('string'); // home.subtitle and home.title
    expect((await call('listKeys', { query: { serach: 'title' } })).status).toBe(422);
    const value = await call('getTranslation', { params: { key_id: ids.title!, language: 'de' } });
    expect(value.status).toBe(200);
    const etag = value.headers.get('etag')!;
    const put = { params: { key_id: ids.title!, language: 'de' }, json: { value: 'Hallo!', status: 'approved' } };
    expect((await call('putTranslation', { ...put, headers: { 'If-Match': etag } })).status).toBe(200);
    expect((await call('putTranslation', { ...put, headers: { 'If-Match': etag } })).status).toBe(412);
    expect((await call('deleteTranslation', { params: put.params, headers: { 'If-Match': etag } })).status).toBe(412);
    // de is this project's source language: nothing to be up to date with.
    const translated = { params: { key_id: ids.title!, language: 'fr-CA' } };
    expect((await call('markTranslationUpToDate', translated)).status).toBe(200);
    expect((await call('markTranslationUpToDate', { ...translated, headers: { 'If-Match': '"1"' } })).status).toBe(412);
    expect((await call('markTranslationUpToDate', { params: put.params })).status).toBe(422);
    expect((await call('markTranslationUpToDate', { params: { key_id: randomUUID(), language: 'fr-CA' } })).status).toBe(404);
    const thread = { params: { key_id: ids.title!, language: 'de' } };
    const comment = await call('addComment', { ...thread, json: { text: 'Du or Sie?' } });
    expect(comment.status).toBe(201);
    expect((await call('addComment', { ...thread, json: { text: '  ' } })).status).toBe(422);
    expect((await call('addComment', { params: { key_id: ids.title!, language: 'it' }, json: { text: 'x' } })).status).toBe(404);
    expect((await call('listComments', thread)).status).toBe(200);
    expect((await call('listComments', { params: { key_id: randomUUID(), language: 'de' } })).status).toBe(404);
    const commentId = (await comment.json()).id;
    expect((await call('resolveComment', { params: { ...thread.params, comment_id: commentId }, json: { resolved: true } })).status).toBe(200);
    expect((await call('resolveComment', { params: { ...thread.params, comment_id: commentId }, json: { resolved: 'yes' } })).status).toBe(422);
    expect((await call('resolveComment', { params: { ...thread.params, comment_id: randomUUID() }, json: { resolved: false } })).status).toBe(404);
    expect((await call('deleteComment', { params: { ...thread.params, comment_id: commentId } })).status).toBe(204);
    expect((await call('deleteComment', { params: { ...thread.params, comment_id: commentId } })).status).toBe(404);
    const bulk = { key_ids: [ids.title!], languages: ['de'], status: 'review' };
    expect((await call('bulkSetStatus', { json: { ...bulk, expected_versions: [{ key_id: ids.title!, language: 'de', version: 1 }] } })).status).toBe(412);
    expect((await call('bulkSetStatus', { json: bulk })).status).toBe(200);
    expect((await call('bulkSetStatus', { json: { ...bulk, status: 'approved' } })).status).toBe(200);
    expect((await call('bulkSetStatus', { json: { ...bulk, key_ids: [randomUUID()] } })).status).toBe(404);
    expect((await call('createKey', { json: { key: 'bulk.a', group_name: 'bulk', tags: ['mobile'] } })).status).toBe(201);
    expect((await call('bulkTagKeys', { json: { filter: { tag: 'mobile' }, add: ['release-2.3'] } })).status).toBe(200);
    expect((await call('bulkTagKeys', { json: { key_ids: [randomUUID()], add: ['x'] } })).status).toBe(404);
    expect((await call('bulkTagKeys', { json: { filter: { group: 'bulk' } } })).status).toBe(422);
    expect((await call('listTags', {})).status).toBe(200);
    expect((await call('renameTag', { params: { tag: 'release-2.3' }, json: { name: 'release-2.4' } })).status).toBe(200);
    expect((await call('renameTag', { params: { tag: 'release-2.3' }, json: { name: 'release-2.4' } })).status).toBe(404);
    expect((await call('renameTag', { params: { tag: 'mobile' }, json: { name: 'a,b' } })).status).toBe(422);
    expect((await call('deleteTag', { params: { tag: 'release-2.4' } })).status).toBe(200);
    expect((await call('deleteTag', { params: { tag: 'release-2.4' } })).status).toBe(404);
    const term = await call('createGlossaryTerm', { json: { term: 'Dashboard', translations: { 'fr-CA': 'Tableau de bord' } } });
    expect(term.status).toBe(201);
    const termId = (await term.json()).id;
    expect((await call('createGlossaryTerm', { json: { term: 'dashboard' } })).status).toBe(409);
    expect((await call('createGlossaryTerm', { json: { term: '' } })).status).toBe(422);
    expect((await call('listGlossaryTerms', {})).status).toBe(200);
    expect((await call('listGlossaryTerms', { query: { key_id: ids.title! } })).status).toBe(200);
    expect((await call('listGlossaryTerms', { query: { key_id: randomUUID() } })).status).toBe(404);
    expect((await call('listGlossaryTerms', { query: { limit: '0' } })).status).toBe(422);
    expect((await call('getGlossaryTerm', { params: { term_id: termId } })).status).toBe(200);
    const glossaryCsv = { type: 'text/csv', body: 'term,description,fr-CA\nDashboard,The start page,Tableau de bord\n' };
    expect((await call('importGlossary', { query: { dry_run: 'true' }, raw: glossaryCsv })).status).toBe(200);
    expect((await call('importGlossary', { query: { format: 'csv' }, raw: glossaryCsv })).status).toBe(200);
    expect((await call('importGlossary', { query: { format: 'tbx' }, raw: glossaryCsv })).status).toBe(422);
    expect((await call('exportGlossary', {})).status).toBe(200);
    expect((await call('exportGlossary', { query: { format: 'tbx' } })).status).toBe(200);
    expect((await call('exportGlossary', { query: { format: 'xlsx' } })).status).toBe(422);
    expect((await call('getGlossaryTerm', { params: { term_id: randomUUID() } })).status).toBe(404);
    expect((await call('updateGlossaryTerm', { params: { term_id: termId }, json: { translations: { 'fr-CA': 'Accueil' } } })).status).toBe(200);
    expect((await call('createGlossaryTerm', { json: { term: 'Home' } })).status).toBe(201);
    expect((await call('updateGlossaryTerm', { params: { term_id: termId }, json: { term: 'home' } })).status).toBe(409);
    expect((await call('updateGlossaryTerm', { params: { term_id: randomUUID() }, json: { term: 'x' } })).status).toBe(404);
    expect((await call('deleteGlossaryTerm', { params: { term_id: termId } })).status).toBe(204);
    expect((await call('deleteGlossaryTerm', { params: { term_id: termId } })).status).toBe(404);
    const png = { type: 'image/png', body: new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url))) };
    const shot = await call('uploadScreenshot', { query: { name: 'Sign in', key_id: ids.title! }, raw: png });
    expect(shot.status).toBe(201);
    const screenshotId = (await shot.json()).id;
    expect((await call('uploadScreenshot', { raw: { type: 'image/svg+xml', body: '<svg/>' } })).status).toBe(422);
    expect((await call('listScreenshots', {})).status).toBe(200);
    expect((await call('listScreenshots', { query: { key_id: ids.title!, limit: '1' } })).status).toBe(200);
    expect((await call('listScreenshots', { query: { key_id: randomUUID() } })).status).toBe(404);
    expect((await call('getScreenshot', { params: { screenshot_id: screenshotId } })).status).toBe(200);
    expect((await call('getScreenshot', { params: { screenshot_id: randomUUID() } })).status).toBe(404);
    const image = await call('getScreenshotImage', { params: { screenshot_id: screenshotId } });
    expect(image.status).toBe(200);
    expect((await call('getScreenshotImage', { params: { screenshot_id: screenshotId }, headers: { 'If-None-Match': image.headers.get('etag')! } })).status).toBe(304);
    expect((await call('getScreenshotImage', { params: { screenshot_id: randomUUID() } })).status).toBe(404);
    expect((await call('updateScreenshot', { params: { screenshot_id: screenshotId }, json: { keys: { [ids.title!]: { region: { x: 0, y: 0, width: 100, height: 20 } } } } })).status).toBe(200);
    expect((await call('updateScreenshot', { params: { screenshot_id: screenshotId }, json: { keys: { [ids.title!]: { region: { x: 0, y: 0, width: 1000, height: 20 } } } } })).status).toBe(422);
    expect((await call('updateScreenshot', { params: { screenshot_id: randomUUID() }, json: { name: 'x' } })).status).toBe(404);
    expect((await call('deleteScreenshot', { params: { screenshot_id: screenshotId } })).status).toBe(204);
    expect((await call('deleteScreenshot', { params: { screenshot_id: screenshotId } })).status).toBe(404);
    // Tasks: created over a live key (fr-CA has no value yet, so the key is still to translate).
    const created = await call('createTask', { json: { name: 'French', kind: 'translate', language: 'fr-CA', key_ids: [ids.title!] } });
    expect(created.status).toBe(201);
    const taskNumber = String((await created.json()).number);
    expect((await call('createTask', { json: { name: 'French', kind: 'translate', language: 'fr-CA' } })).status).toBe(422);
    expect((await call('listTasks', { query: { state: 'open' } })).status).toBe(200);
    expect((await call('getTask', { params: { number: taskNumber } })).status).toBe(200);
    expect((await call('getTask', { params: { number: '999999' } })).status).toBe(404);
    expect((await call('listTaskKeys', { params: { number: taskNumber }, query: { done: 'false' } })).status).toBe(200);
    expect((await call('listTaskKeys', { params: { number: '999999' } })).status).toBe(404);
    expect((await call('updateTask', { params: { number: taskNumber }, json: { state: 'done' } })).status).toBe(409);
    expect((await call('updateTask', { params: { number: taskNumber }, json: { due_date: '2027-01-31' } })).status).toBe(200);
    expect((await call('updateTask', { params: { number: '999999' }, json: { name: 'x' } })).status).toBe(404);
    expect((await call('deleteTask', { params: { number: taskNumber } })).status).toBe(204);
    expect((await call('deleteTask', { params: { number: taskNumber } })).status).toBe(404);
    expect((await call('bulkDeleteKeys', { json: { filter: { group: 'bulk' } } })).status).toBe(200);
    expect((await call('bulkDeleteKeys', { json: { key_ids: [randomUUID()] } })).status).toBe(404);
    expect((await call('bulkDeleteKeys', { json: {} })).status).toBe(422);
  });

  it('renames and deletes', async () => {
    expect((await call('renameGroup', { params: { group_name: 'home' }, json: { new_name: 'start' } })).status).toBe(200);
    expect((await call('renameGroup', { params: { group_name: 'home' }, json: { new_name: 'start' } })).status).toBe(404);
    const language = { key_id: ids.title!, language: 'fr-CA' };
    expect((await call('deleteTranslation', { params: language })).status).toBe(204);
    expect((await call('deleteTranslation', { params: language })).status).toBe(404);
    expect((await call('removeLanguage', { params: { code: 'fr-CA' } })).status).toBe(200);
    expect((await call('removeLanguage', { params: { code: 'fr-CA' } })).status).toBe(404);
    expect((await call('deleteKey', { params: { key_id: ids.title! } })).status).toBe(204);
    expect((await call('deleteKey', { params: { key_id: 'not-a-uuid' } })).status).toBe(422);
    expect((await call('createKey', { json: { key: 'misc.a', group_name: 'misc' } })).status).toBe(201);
    expect((await call('deleteGroup', { params: { group_name: 'misc' } })).status).toBe(204);
    expect((await call('deleteGroup', { params: { group_name: 'misc' } })).status).toBe(404);
  });

  it('the admin API', async () => {
    const account = await call('createAccount', { json: { name: 'Conformance', plan: 'solo' } });
    expect(account.status).toBe(201);
    const accountId = (await account.json()).id;
    expect((await call('updateAccount', { params: { account_id: accountId }, json: { daily_call_limit: 100 } })).status).toBe(200);
    expect((await call('updateAccount', { params: { account_id: randomUUID() }, json: { plan: 'team' } })).status).toBe(404);
    const project = await call('createProject', { params: { account_id: accountId }, json: { name: 'Site' } });
    expect(project.status).toBe(201);
    const projectId = (await project.json()).id;
    expect((await call('updateProject', { params: { project_id: projectId }, json: { auto_rebuild: true } })).status).toBe(200);
    const apiKey = await call('createApiKey', { params: { project_id: projectId } });
    expect(apiKey.status).toBe(201);
    const delivery = await call('createApiKey', { params: { project_id: projectId }, json: { name: 'Web', kind: 'delivery', allowed_origins: ['https://app.example'], allowed_languages: ['de'] } });
    expect(delivery.status).toBe(201);
    expect((await call('createApiKey', { params: { project_id: projectId }, json: { kind: 'live', allowed_languages: ['de'] } })).status).toBe(422);
    const apiKeyId = (await apiKey.json()).id;
    expect((await call('inviteToAccount', { params: { account_id: accountId } })).status).toBe(201);
    expect((await call('inviteToAccount', { params: { account_id: accountId }, json: { role: 'reviewer', languages: ['de'] } })).status).toBe(201);
    expect((await call('inviteToAccount', { params: { account_id: randomUUID() } })).status).toBe(404);
    expect((await call('inviteToAccount', { params: { account_id: accountId }, json: { role: 'root' } })).status).toBe(422);
    expect((await call('listAccounts', { query: { limit: '1' } })).status).toBe(200);
    expect((await call('listAccounts', { query: { limit: '0' } })).status).toBe(422);
    expect((await call('getAccount', { params: { account_id: accountId } })).status).toBe(200);
    expect((await call('getAccount', { params: { account_id: randomUUID() } })).status).toBe(404);
    expect((await call('listProjects', { params: { account_id: accountId } })).status).toBe(200);
    expect((await call('listProjects', { params: { account_id: randomUUID() } })).status).toBe(404);
    expect((await call('getProject', { params: { project_id: projectId } })).status).toBe(200);
    expect((await call('getProject', { params: { project_id: randomUUID() } })).status).toBe(404);
    expect((await call('listApiKeys', { params: { project_id: projectId }, query: { limit: '2' } })).status).toBe(200);
    expect((await call('listApiKeys', { params: { project_id: randomUUID() } })).status).toBe(404);
    expect((await call('getApiKey', { params: { api_key_id: apiKeyId } })).status).toBe(200);
    expect((await call('getApiKey', { params: { api_key_id: randomUUID() } })).status).toBe(404);
    expect((await call('revokeApiKey', { params: { api_key_id: apiKeyId } })).status).toBe(204);
    expect((await call('restoreKey', { params: { project_id: p.projectId, key_id: ids.title! } })).status).toBe(200);
    expect((await call('restoreGroup', { params: { project_id: p.projectId, group_name: 'misc' } })).status).toBe(200);
    expect((await call('restoreGroup', { params: { project_id: p.projectId, group_name: 'misc' } })).status).toBe(404);
  });

  it('webhook endpoints and their deliveries', async () => {
    const project = { project_id: p.projectId };
    const created = await call('createWebhook', { params: project, json: { url: 'http://127.0.0.1:9/hook', events: ['language.added'], description: 'ci' } });
    expect(created.status).toBe(201);
    const webhook = { ...project, webhook_id: (await created.json()).id };
    expect((await call('createWebhook', { params: project, json: { url: 'http://127.0.0.1:9/hook', events: ['nope'] } })).status).toBe(422);
    expect((await call('listWebhooks', { params: project })).status).toBe(200);
    expect((await call('getWebhook', { params: webhook })).status).toBe(200);
    expect((await call('getWebhook', { params: { ...project, webhook_id: randomUUID() } })).status).toBe(404);
    expect((await call('updateWebhook', { params: webhook, json: { enabled: false } })).status).toBe(200);
    expect((await call('listWebhookDeliveries', { params: webhook, query: { status: 'failed', limit: '10' } })).status).toBe(200);
    const fixture = await webhookFixture(t, p.projectId);
    const replay = { ...project, webhook_id: fixture.webhookId, delivery_id: fixture.deliveryId };
    expect((await call('replayWebhookDelivery', { params: replay })).status).toBe(202);
    expect((await call('listWebhookDeliveries', { params: { ...project, webhook_id: fixture.webhookId } })).status).toBe(200);
    expect((await call('replayWebhookDelivery', { params: { ...replay, delivery_id: randomUUID() } })).status).toBe(404);
    expect((await call('deleteWebhook', { params: webhook })).status).toBe(204);
    expect((await call('deleteWebhook', { params: webhook })).status).toBe(404);
  });

  it('has answered every operation with a 2xx at least once (a new route needs a call above)', () => {
    const missing = [...byId.values()].filter((o) => ![...(answered.get(o.id) ?? [])].some((s) => s >= 200 && s < 300)).map((o) => o.id);
    expect(missing).toEqual([]);
  });
});
