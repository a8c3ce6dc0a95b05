// Bad input gets a clear 4xx, never a 5xx, and never a half-written change (CONTRIBUTING.md, "Style"),
// proved for every operation of the served /openapi.json and every form of the portal at once. Each
// gets malformed paths, queries, headers and bodies, fixed ones and ones fast-check draws (a fixed
// seed: the same requests every run), sent through the same node server and edge as `npm start`.
// For every answer: no 5xx; a 4xx where the input is invalid as documented; the API's errors in the
// spec's envelope, the portal's as pages; and after every refused write, a database whose every table
// is row for row what it was (test/support/malformed-input.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { ADMIN_TOKEN, useTestApp } from '../support/test-app.ts';
import { BODIES, routeCases } from '../support/route-table.ts';
import { webhookFixture } from '../support/webhook-receiver.ts';
import { PortalClient } from '../portal/support/portal-client.ts';
import { createSession } from '../../core/users/sessions.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { generateOpenApi } from '../../scripts/openapi.ts';
import { deref, operations, type Doc, type Operation } from '../openapi/openapi-support.ts';
import {
  FOREIGN_ETAGS,
  MALFORMED_ETAGS,
  BAD_IDEMPOTENCY_KEYS,
  BAD_PROJECT_IDS,
  BAD_SEGMENTS,
  NO_BODY_CASES,
  SEED,
  envelopeProblems,
  garbageSegment,
  jsonBodyCases,
  parameterProblems,
  queryValues,
  randomBodies,
  repeated,
  serveOverHttp,
  watchDatabase,
  type Answer,
  type Case,
  type DatabaseWatch,
  type HttpEdge,
} from '../support/malformed-input.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

// Webhook endpoints on loopback are allowed (the fixture's sends nothing off this machine), and
// changes are handed to the outbox at once, so that settle() can wait for the worker to finish.
const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_DEBOUNCE_MS: '0' } });

// The operations are needed to name the tests, before any runs: the document as the app describes
// itself (the served one is compared with it below).
const DOC: Doc = JSON.parse(await generateOpenApi());
const OPERATIONS = operations(DOC);
const mounted = new Hono();
for (const group of allRouteGroups) mounted.route(group.prefix, group.routes);
const PORTAL_POSTS = routeCases(mounted, '/portal/', () => 'x').filter((r) => r.method === 'POST').map((r) => r.id.slice('POST '.length));

const PASSWORD = 'correct horse battery';
const fixtureFile = (name: string) => readFileSync(new URL(`../fixtures/screenshots/${name}`, import.meta.url));
const SCREENSHOT = new Uint8Array(fixtureFile('sign-in.png'));
/** How many values fast-check draws for each path parameter, query parameter and JSON body. */
// MALFORMED_RUNS=<n> multiplies them for a deeper search (with MALFORMED_SEED for other draws).
const RUNS_FACTOR = Math.max(1, wholeNumberFromEnv('MALFORMED_RUNS', 1));
const RANDOM_RUNS = { segment: 8 * RUNS_FACTOR, query: 8 * RUNS_FACTOR, body: 15 * RUNS_FACTOR };

type Fixture = {
  accountId: string;
  projectId: string;
  apiKey: string;
  extraApiKeyId: string;
  keyId: string;
  deletedKeyId: string;
  memberId: string;
  /** An invitation not used yet (the revoke form). */
  inviteId: string;
  webhookId: string;
  deliveryId: string;
  /** A comment on auth.case's de value (by the API key). */
  commentId: string;
  /** A glossary term (Auth case, fr: Cas). */
  termId: string;
  /** A screenshot (Chromium's PNG) showing auth.case. */
  screenshotId: string;
  /** A task (review, fr) over auth.case. */
  taskNumber: number;
  buildId: string;
  /** The ETag of auth.case's de value, as its GET gives it. */
  etag: string;
  /** The fixture's de values exported in every format, as the bytes the export answers. */
  files: Record<string, Buffer>;
  /** The fixture's glossary exported as csv and tbx. */
  glossaryFiles: Record<string, string>;
  owner: PortalClient;
};

let edge: HttpEdge;
let fx: Fixture;
let db: DatabaseWatch;

beforeAll(async () => {
  edge = await serveOverHttp(t.app.fetch);
  fx = await fixture();
  await settle();
  db = await watchDatabase(t.runtime.deps.sql);
}, 120_000);
afterAll(async () => {
  await edge?.close();
});

/**
 * One project (in the portal owner's account, so the forms reach it too): languages de and fr, the
 * key auth.case in group auth with an approved de value, a deleted key in group gone, a second API
 * key, a translator, a built cache, and a webhook (disabled: no delivery ever writes meanwhile).
 */
async function fixture(): Promise<Fixture> {
  const ok = async (res: Response | Promise<Response>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`fixture: ${r.status} ${await r.text()}`);
    return r.status === 204 ? undefined : r.json();
  };
  const owner = new PortalClient(t.app);
  await owner.get('/portal/setup');
  const setup = await owner.post('/portal/setup', { admin_token: ADMIN_TOKEN, email: 'owner@example.com', password: PASSWORD, account_name: 'Acme', plan: 'unlimited' });
  if (setup.status !== 303) throw new Error(`setup: ${setup.status}`);
  await owner.get('/portal');
  const accountId = (await t.runtime.deps.sql<{ account_id: string }[]>`select account_id from memberships`)[0]!.account_id;
  const project = await ok(t.admin('POST', `/accounts/${accountId}/projects`, { name: 'Malformed' }));
  const apiKey: string = project.api_key.key;
  const call = (method: string, path: string, body?: unknown) => t.call(apiKey, method, path, body);
  await ok(call('POST', '/v1/languages', { code: 'de' }));
  await ok(call('POST', '/v1/languages', { code: 'fr' }));
  const key = await ok(call('POST', '/v1/keys', { key: 'auth.case', group_name: 'auth', tags: ['auth-tag'] }));
  const value = await ok(call('PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Der Fall', status: 'approved' }));
  await ok(call('PUT', `/v1/keys/${key.id}/translations/fr`, { value: 'Le cas', status: 'approved' }));
  const deleted = await ok(call('POST', '/v1/keys', { key: 'gone.case', group_name: 'gone' }));
  await ok(call('DELETE', '/v1/groups/gone'));
  const extra = await ok(t.admin('POST', `/projects/${project.id}/api-keys`));
  const comment = await ok(call('POST', `/v1/keys/${key.id}/translations/de/comments`, { text: 'Formal?' }));
  const term = await ok(call('POST', '/v1/glossary', { term: 'Auth case', translations: { fr: 'Cas' } }));
  const screenshot = await ok(call('POST', `/v1/screenshots?key_id=${key.id}`, SCREENSHOT));
  const task = await ok(call('POST', '/v1/tasks', { name: 'Auth', kind: 'review', language: 'fr', key_ids: [key.id], include_done: true }));
  await ok(call('POST', '/v1/cache/rebuild'));
  await t.runtime.rebuilds!.idle();
  const manifest = await ok(call('GET', '/v1/cached/manifest'));
  const files: Record<string, Buffer> = {};
  for (const format of ['json', 'json-nested', 'i18next', 'xliff', 'xliff2', 'po', 'android', 'ios-strings', 'ios-stringsdict', 'arb', 'yaml', 'csv', 'properties', 'resx', 'xlsx', 'xcstrings']) {
    const res = await call('GET', `/v1/export/de?format=${format}&status=all&source=fr`);
    if (res.status !== 200) throw new Error(`export ${format}: ${res.status} ${await res.text()}`);
    files[format] = Buffer.from(await res.arrayBuffer());
  }
  const glossaryFiles: Record<string, string> = {};
  for (const format of ['csv', 'tbx']) glossaryFiles[format] = await (await call('GET', `/v1/glossary/export?format=${format}`)).text();
  const webhook = await webhookFixture(t, project.id);
  await ok(t.admin('PATCH', `/projects/${project.id}/webhooks/${webhook.webhookId}`, { enabled: false }));
  // A translator, for the member forms.
  const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'translator', languages: 'de' });
  const token = /\/portal\/invite\/([A-Za-z0-9_-]+)/.exec(invited.text)?.[1];
  if (!token) throw new Error(`invite: ${invited.status}`);
  const translator = new PortalClient(t.app);
  await translator.get(`/portal/invite/${token}`);
  await translator.post(`/portal/invite/${token}`, { email: 'translator@example.com', password: PASSWORD });
  const memberId = (await t.runtime.deps.sql<{ id: string }[]>`select id from users where email = 'translator@example.com'`)[0]!.id;
  await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer' });
  const inviteId = (await t.runtime.deps.sql<{ id: string }[]>`select id from invites where account_id = ${accountId} and accepted_at is null`)[0]!.id;
  await owner.get(`/portal/projects/${project.id}`);
  return {
    accountId,
    projectId: project.id,
    apiKey,
    extraApiKeyId: extra.id,
    keyId: key.id,
    deletedKeyId: deleted.id,
    memberId,
    inviteId,
    webhookId: webhook.webhookId,
    deliveryId: webhook.deliveryId,
    commentId: comment.id,
    termId: term.id,
    screenshotId: screenshot.id,
    taskNumber: task.number,
    buildId: manifest.build_id,
    etag: `"${value.version}"`,
    files,
    glossaryFiles,
    owner,
  };
}

// ---------------------------------------------------------------------------------------------
// Sending a case and judging the answer.

type Target = { method: string; path: string; api: boolean; auth: Record<string, string>; write: boolean };

/** Sends one case; returns what is wrong with the answer (nothing when the rule holds). */
async function check(target: Target, c: Case, options: { writesNothing?: boolean } = {}): Promise<string | undefined> {
  const path = `${c.path ?? target.path}${c.query === undefined ? '' : `?${c.query}`}`;
  let answer: Answer;
  try {
    answer = await edge.send({ method: target.method, path, headers: { ...target.auth, ...c.headers }, body: c.body });
  } catch (error) {
    return `${c.label}: no answer (${String(error)})`;
  }
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  else if (c.invalid && answer.status < 400) problems.push(`accepted invalid input with ${answer.status}`);
  if (answer.status >= 400) {
    if (target.api || c.expectsJson) problems.push(...envelopeProblems(DOC, answer));
    else if (!answer.contentType.startsWith('text/html')) problems.push(`error page is ${answer.contentType}`);
  }
  if (target.write) {
    const changed = await db.changes();
    if (changed.length > 0 && (answer.status >= 400 || options.writesNothing)) problems.push(`wrote to ${changed.join(', ')}`);
    // An accepted write may change things: later cases compare with what it left, once its
    // background work (a rebuild it queued, the webhook outbox) is done.
    if (changed.length > 0 || answer.status < 400) {
      await settle();
      await db.accept();
    }
  }
  if (problems.length === 0) return undefined;
  return `${c.label} [${target.method} ${path.slice(0, 120)}]: ${problems.join('; ')}; body: ${answer.text.slice(0, 200)}`;
}

/** Waits for the work a write leaves behind: queued rebuilds, and the webhook outbox they fill. */
async function settle() {
  for (let i = 0; i < 200; i++) {
    await t.runtime.rebuilds?.idle();
    const [row] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from webhook_outbox`;
    if (row!.n === 0 && (t.runtime.webhooks?.sending() ?? 0) === 0) return;
    t.runtime.webhooks?.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('background work did not settle');
}

async function checkAll(target: Target, cases: Case[], options: { writesNothing?: boolean } = {}): Promise<string[]> {
  const failures: string[] = [];
  for (const c of cases) {
    const failure = await check(target, c, options);
    if (failure) failures.push(failure);
  }
  return failures;
}

// ---------------------------------------------------------------------------------------------
// The API: every operation of /openapi.json.

/** The fixture's value for each path parameter of an operation. */
function paramValue(name: string, o: Operation): string {
  const restore = o.path.endsWith('/restore');
  const values: Record<string, string> = {
    key_id: restore ? fx.deletedKeyId : fx.keyId,
    language: 'de',
    code: 'fr',
    group: 'auth',
    group_name: restore ? 'gone' : 'auth',
    key: 'auth.case',
    account_id: fx.accountId,
    project_id: fx.projectId,
    api_key_id: fx.extraApiKeyId,
    webhook_id: fx.webhookId,
    delivery_id: fx.deliveryId,
    comment_id: fx.commentId,
    term_id: fx.termId,
    screenshot_id: fx.screenshotId,
    number: String(fx.taskNumber),
    build_id: fx.buildId,
    tag: 'auth-tag',
  };
  const value = values[name];
  if (value === undefined) throw new Error(`no fixture value for path parameter {${name}} (${o.id}): add one`);
  return value;
}

const parametersOf = (o: Operation, place: string) => (o.op.parameters ?? []).map((p: unknown) => deref(DOC, p)).filter((p: any) => p.in === place);
const pathWith = (o: Operation, raw: Record<string, string> = {}) =>
  o.path.replace(/\{(\w+)\}/g, (_, name: string) => raw[name] ?? encodeURIComponent(paramValue(name, o)));
const routeId = (o: Operation) => `${o.method.toUpperCase()} ${o.path.replace(/\{(\w+)\}/g, ':$1')}`;

function bodyKind(o: Operation): 'json' | 'file' | 'none' {
  const content = o.op.requestBody?.content;
  if (!content) return 'none';
  return Object.values<any>(content).some((m) => m.schema?.format === 'binary') ? 'file' : 'json';
}

/** A request of the operation that would succeed: the body every case keeps but for what it breaks. */
function validBody(o: Operation): Pick<Case, 'headers' | 'body'> {
  const kind = bodyKind(o);
  if (kind === 'none') return {};
  if (kind === 'file') return { body: fx.files.json, headers: { 'Content-Type': 'application/json' } };
  const sample = BODIES[routeId(o)];
  if (sample === undefined) throw new Error(`no sample body for ${routeId(o)} in test/support/route-table.ts`);
  return { body: JSON.stringify(sample), headers: { 'Content-Type': 'application/json' } };
}

const isWrite = (o: Operation) => o.method !== 'get' && o.method !== 'head';

function targetOf(o: Operation): Target {
  const scheme = Object.keys(o.op.security?.[0] ?? {})[0];
  const auth: Record<string, string> = scheme === 'apiKey' ? { 'X-API-Key': fx.apiKey } : scheme === 'adminToken' ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {};
  return { method: o.method.toUpperCase(), path: pathWith(o), api: true, auth, write: isWrite(o) };
}

/** A path segment drawn by fast-check that names nothing of the fixture's. */
function randomSegments(o: Operation, name: string): string[] {
  const real = paramValue(name, o).toLowerCase();
  return fc
    .sample(garbageSegment, { seed: SEED, numRuns: RANDOM_RUNS.segment })
    .filter((s) => {
      let decoded = s;
      try {
        decoded = decodeURIComponent(s);
      } catch {}
      return decoded.toLowerCase() !== real && !['de', 'fr', 'auth', 'gone'].includes(decoded.toLowerCase()) && !/^\.{1,2}$/.test(decoded);
    });
}

function pathCases(o: Operation): Case[] {
  const cases: Case[] = [];
  for (const p of parametersOf(o, 'path')) {
    for (const raw of [...BAD_SEGMENTS, ...randomSegments(o, p.name)]) {
      cases.push({ label: `path ${p.name}=${raw.slice(0, 40)}`, path: pathWith(o, { [p.name]: raw }), ...validBody(o), invalid: true });
    }
  }
  return cases;
}

/** A value the parameter accepts, for the cases that give it twice. */
function validQueryValue(schema: any): string {
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'integer' || /\\d/.test(schema.pattern ?? '')) return String(Math.max(schema.minimum ?? 1, 1));
  if (schema.pattern) return 'de';
  return 'x';
}

function queryCases(o: Operation): Case[] {
  const cases: Case[] = [];
  const write = isWrite(o);
  const keep = (c: Case) => !write || c.invalid; // a valid query on a write would write: not sent
  // Parameters this operation does not know are ignored (docs/decisions.md), whatever their bytes.
  for (const query of ['%zz=%zz', '%=%', '=', '&&&', 'a=%ff%fe', 'a[b]=1&a[b]=2', '__proto__=1', 'constructor[prototype]=1']) {
    if (!write) cases.push({ label: `stray query ${query}`, query, ...validBody(o), invalid: false });
  }
  for (const p of parametersOf(o, 'query')) {
    const schema = deref(DOC, p.schema);
    for (const { raw, decoded } of queryValues(schema)) {
      cases.push({ label: `query ${p.name}=${raw.slice(0, 40)}`, query: `${p.name}=${raw}`, ...validBody(o), invalid: parameterProblems(schema, decoded).length > 0 });
    }
    for (const query of repeated(p.name, validQueryValue(schema))) cases.push({ label: `query ${query}`, query, ...validBody(o), invalid: true });
    for (const s of fc.sample(fc.string({ unit: 'binary', maxLength: 30 }), { seed: SEED, numRuns: RANDOM_RUNS.query })) {
      const decoded = s.isWellFormed() ? s : s.toWellFormed();
      cases.push({ label: `random query ${p.name}=${JSON.stringify(decoded)}`, query: `${p.name}=${encodeURIComponent(decoded)}`, ...validBody(o), invalid: parameterProblems(schema, decoded).length > 0 });
    }
  }
  return cases.filter(keep);
}

function headerCases(o: Operation): Case[] {
  const cases: Case[] = [];
  const write = isWrite(o);
  for (const p of parametersOf(o, 'header')) {
    const values: [string, boolean][] =
      p.name === 'Idempotency-Key' ? BAD_IDEMPOTENCY_KEYS.map((v) => [v, true])
      : p.name === 'X-Project-Id' ? BAD_PROJECT_IDS.map((v) => [v, true])
      // A read may ignore a validator it cannot match (200 instead of 304). On a write, a field that
      // is not a tag list is refused; a tag naming no version fails If-Match (412), and satisfies
      // If-None-Match (the value is at none of those versions: the write goes ahead, RFC 9110 13.1.2).
      // The current tag inside a field that is no tag list must not be picked out of it either.
      : [
          ...[...MALFORMED_ETAGS, `*, ${fx.etag}`, `${fx.etag}, junk`, `${fx.etag}x`, `${fx.etag} ${fx.etag}`].map((v): [string, boolean] => [v, write]),
          ...FOREIGN_ETAGS.map((v): [string, boolean] => [v, write && p.name === 'If-Match']),
        ];
    for (const [value, invalid] of values) {
      cases.push({ label: `header ${p.name}: ${JSON.stringify(value.slice(0, 40))}`, ...validBody(o), headers: { ...validBody(o).headers, [p.name]: value }, invalid });
    }
  }
  return cases;
}

/**
 * Broken workbooks (xlsx, whose file is bytes, not text): cut, empty, damaged inside, an .xls, a
 * ZIP archive of something else, compressed otherwise. Each a 4xx that writes nothing.
 */
function workbookCases(bytes: Buffer, file: (label: string, format: string, body: string | Buffer) => Case): Case[] {
  // A byte of the sheet's deflated data changed: its CRC-32 no longer matches.
  const damaged = Buffer.from(bytes);
  const sheet = Buffer.from('xl/worksheets/sheet1.xml');
  const at = bytes.indexOf(sheet) + sheet.length + 10;
  damaged.writeUInt8(damaged.readUInt8(at) ^ 0xff, at);
  return [
    file('cut in half', 'xlsx', bytes.subarray(0, Math.floor(bytes.length / 2))),
    file('cut before its last byte', 'xlsx', bytes.subarray(0, bytes.length - 1)),
    file('with a byte changed inside', 'xlsx', damaged),
    file('empty', 'xlsx', ''),
    file('blank', 'xlsx', ' \n'),
    file('as an Excel 97-2003 .xls', 'xlsx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...bytes.subarray(8, 600)])),
    file('as a ZIP archive without a workbook', 'xlsx', Buffer.from(zipSync({ 'word/document.xml': new TextEncoder().encode('<w:document/>') }))),
    file('as gzip', 'xlsx', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02])),
  ];
}

/** Broken files for POST /v1/import/{language}: truncated, in another format, not UTF-8, empty, too large. */
function importCases(): { cases: Case[]; dryRuns: Case[] } {
  const cases: Case[] = [];
  const file = (label: string, format: string, body: string | Buffer, invalid = true): Case => ({ label: `${format} file ${label}`, query: `format=${format}`, body, headers: { 'Content-Type': 'application/octet-stream' }, invalid });
  // Unterminated strings and unclosed elements, wherever the format has them.
  const broken: Record<string, (text: string) => string> = {
    po: (text) => `${text}\nmsgid "broken.key"\nmsgstr "unterminated`,
    yaml: (text) => `${text}\n    broken: "unterminated`,
    csv: (text) => `${text}"broken.key,unterminated\n`,
    'ios-strings': (text) => `${text}\n"broken.key" = "unterminated`,
    // A .properties file cut anywhere is a shorter file; a malformed escape is what Java refuses.
    properties: (text) => `${text}\nbroken.key=\\u00zz`,
  };
  for (const [format, bytes] of Object.entries(fx.files)) {
    if (format === 'xlsx') {
      cases.push(...workbookCases(bytes, file));
      continue;
    }
    const text = bytes.toString('utf8');
    const structured = !(format in broken);
    cases.push(file('cut in half', format, text.slice(0, Math.floor(text.length / 2)), structured));
    cases.push(file('cut before its last character', format, text.slice(0, text.trimEnd().length - 1), structured));
    if (!structured) cases.push(file('with an unterminated string', format, broken[format]!(text)));
    // An empty catalog is a file gettext and Xcode accept, and Rails' loader reads as nothing:
    // nothing to import (docs/formats.md). Every other format has a structure to refuse.
    const emptyIsAFile = ['po', 'ios-strings', 'yaml', 'properties'].includes(format);
    cases.push(file('empty', format, '', !emptyIsAFile));
    cases.push(file('blank', format, ' \n', !emptyIsAFile));
    // Not UTF-8 is ISO-8859-1 to Java's PropertyResourceBundle: a .properties file has no invalid byte.
    cases.push(file('with an invalid UTF-8 byte', format, Buffer.concat([Buffer.from(text.slice(0, text.length - 20)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(text.slice(text.length - 20))]), format !== 'properties'));
    cases.push(file('with a NUL', format, text.replace('Der Fall', 'Der\u0000Fall')));
    if (format !== 'ios-strings') cases.push(file('as UTF-16', format, Buffer.from(`\ufeff${text}`, 'utf16le')));
    cases.push(file('as gzip', format, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02])));
  }
  // Each format given another's file.
  const wrong: [string, string][] = [
    ['json', 'android'], ['json', 'xliff'], ['json', 'po'], ['json', 'csv'], ['json', 'ios-strings'],
    ['android', 'json'], ['xliff', 'json'], ['po', 'json'], ['csv', 'json'], ['yaml', 'json'],
    ['xliff', 'po'], ['android', 'xliff'], ['xliff2', 'xliff'], ['xliff', 'xliff2'], ['json', 'yaml'], ['po', 'android'], ['csv', 'ios-stringsdict'],
    ['xlsx', 'csv'], ['csv', 'xlsx'], ['json', 'xlsx'], ['xlsx', 'json'],
  ];
  for (const [format, other] of wrong) cases.push(file(`given the ${other} file`, format, fx.files[other]!));
  cases.push(file('over 10 MiB', 'json', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)));
  // Random bytes, and the files cut anywhere: whatever their fate, a dry run writes nothing.
  const dryRuns: Case[] = [];
  const formats = Object.keys(fx.files);
  const drawn = fc.sample(
    fc.oneof(
      fc.tuple(fc.constantFrom(...formats), fc.uint8Array({ maxLength: 200 })).map(([format, bytes]) => ({ format, body: Buffer.from(bytes) })),
      fc.tuple(fc.constantFrom(...formats), fc.nat()).map(([format, at]) => ({ format, body: Buffer.from(fx.files[format]!).subarray(0, at % fx.files[format]!.length) })),
      fc.tuple(fc.constantFrom(...formats), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([format, at, bytes]) => {
        const text = Buffer.from(fx.files[format]!);
        const i = at % text.length;
        return { format, body: Buffer.concat([text.subarray(0, i), Buffer.from(bytes), text.subarray(i)]) };
      }),
    ),
    { seed: SEED, numRuns: 60 * RUNS_FACTOR },
  );
  for (const [i, { format, body }] of drawn.entries()) {
    dryRuns.push({ label: `random ${format} file #${i}`, query: `format=${format}&dry_run=true`, body, headers: { 'Content-Type': 'application/octet-stream' }, invalid: false });
  }
  return { cases, dryRuns };
}

/**
 * Broken glossary files for POST /v1/glossary/import: cut, not UTF-8, with a NUL, compressed, or
 * the other format's file: each a 4xx that writes nothing. A CSV cut between rows is still a CSV:
 * those go as dry runs, which write nothing whatever they find.
 */
function glossaryImportCases(): { cases: Case[]; dryRuns: Case[] } {
  const cases: Case[] = [];
  const dryRuns: Case[] = [];
  const file = (label: string, format: string, body: string | Buffer, invalid = true): Case => ({
    label: `glossary ${format} file ${label}`,
    query: invalid ? `format=${format}` : `format=${format}&dry_run=true`,
    body,
    headers: { 'Content-Type': 'application/octet-stream' },
    invalid,
  });
  for (const [format, text] of Object.entries(fx.glossaryFiles)) {
    const structured = format === 'tbx';
    cases.push(file('cut in half', format, text.slice(0, Math.floor(text.length / 2)), structured));
    cases.push(file('empty', format, ''));
    cases.push(file('with an invalid UTF-8 byte', format, Buffer.concat([Buffer.from(text.slice(0, text.length - 20)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(text.slice(text.length - 20))])));
    cases.push(file('with a NUL', format, text.replace('Auth case', 'Auth\u0000case')));
    cases.push(file('as gzip', format, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02])));
  }
  cases.push(file('given the tbx file', 'csv', fx.glossaryFiles.tbx!));
  cases.push(file('given the csv file', 'tbx', fx.glossaryFiles.csv!));
  cases.push(file('given a translation file', 'csv', fx.files.json!));
  cases.push(file('given an XLIFF file', 'tbx', fx.files.xliff!));
  cases.push(file('over 10 MiB', 'csv', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)));
  const drawn = fc.sample(
    fc.oneof(
      fc.tuple(fc.constantFrom('csv', 'tbx'), fc.uint8Array({ maxLength: 200 })).map(([format, bytes]) => ({ format, body: Buffer.from(bytes) })),
      fc.tuple(fc.constantFrom('csv', 'tbx'), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([format, at, bytes]) => {
        const text = Buffer.from(fx.glossaryFiles[format]!);
        const i = at % text.length;
        return { format, body: Buffer.concat([text.subarray(0, i), Buffer.from(bytes), text.subarray(i)]) };
      }),
    ),
    { seed: SEED, numRuns: 40 * RUNS_FACTOR },
  );
  for (const [i, { format, body }] of drawn.entries()) dryRuns.push(file(`random #${i}`, format, body, false));
  return { cases, dryRuns: [...dryRuns, ...cases.filter((c) => !c.invalid)] };
}

/**
 * Images POST /v1/screenshots must refuse: cut short (each format, at random points too), not an
 * image (SVG, a translation file, gzip, random bytes), without pixels, or over 4 MiB. Each a 4xx
 * that writes nothing, the image's object included (the object store is no table: the listing of the
 * project's screenshots is compared after).
 */
function screenshotImageCases(): Case[] {
  const png = fixtureFile('sign-in.png');
  const jpeg = fixtureFile('sign-in.jpg');
  const webp = fixtureFile('sign-in.webp');
  const image = (label: string, body: string | Buffer, contentType = 'image/png'): Case => ({ label: `screenshot ${label}`, body, headers: { 'Content-Type': contentType }, invalid: true });
  const noPixels = Buffer.from(png);
  noPixels.writeUInt32BE(0, 16);
  const cases = [
    image('empty', ''),
    image('an SVG with a script', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'),
    image('a translation file', fx.files.json!, 'application/json'),
    image('as gzip', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02])),
    image('a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'),
    image('a PNG of 0 x 260 pixels', noPixels),
    image('a PNG signature alone', png.subarray(0, 8)),
    image('a JPEG without its frame', Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xd9])]), 'image/jpeg'),
    image('a RIFF that is no WebP', Buffer.concat([Buffer.from('RIFF'), webp.subarray(4, 8), Buffer.from('WAVE'), webp.subarray(12)]), 'image/webp'),
    image('over 4 MiB', Buffer.concat([png, Buffer.alloc(4 * 1024 * 1024)])),
  ];
  const drawn = fc.sample(
    fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ label: 'random bytes', body: Buffer.from(bytes) })),
      fc.tuple(fc.constantFrom(['png', png], ['jpeg', jpeg], ['webp', webp] as const), fc.nat()).map(([[format, file], at]) => ({ label: `a ${format} cut`, body: file.subarray(0, 1 + (at % (file.length - 64))) })),
    ),
    { seed: SEED, numRuns: 30 * RUNS_FACTOR },
  );
  for (const [i, { label, body }] of drawn.entries()) cases.push(image(`${label} #${i}`, body, 'application/octet-stream'));
  return cases;
}

/** The writes whose JSON body may be left out (optionalJsonBody in functions/http/validate.ts). */
const OPTIONAL_BODY = new Set(['createApiKey', 'inviteToAccount']);

function bodyCases(o: Operation): Case[] {
  const kind = bodyKind(o);
  if (kind === 'none') return isWrite(o) ? NO_BODY_CASES : [];
  if (kind === 'file') return [];
  const schema = o.op.requestBody.content['application/json'].schema;
  const sample = BODIES[routeId(o)];
  const cases = [...jsonBodyCases(DOC, schema, sample), ...randomBodies(DOC, schema, sample, RANDOM_RUNS.body)];
  // Its body is optional: none, or a blank one, asks for the defaults (docs/decisions.md).
  if (OPTIONAL_BODY.has(o.id)) return cases.filter((c) => Buffer.from(c.body ?? '').toString('latin1').trim() !== '');
  return cases;
}

it('the served /openapi.json is the document these cases are built from', async () => {
  const served = await edge.send({ method: 'GET', path: '/openapi.json' });
  expect(served.status).toBe(200);
  expect(operations(JSON.parse(served.text)).map((o) => o.id)).toEqual(OPERATIONS.map((o) => o.id));
  expect(OPERATIONS.length).toBeGreaterThanOrEqual(50);
});

describe.each(OPERATIONS)('$id: $method $path', (o) => {
  it('malformed input is a 4xx in the envelope, and writes nothing', async () => {
    const target = targetOf(o);
    // A write's case that is valid would write: only the invalid ones are sent to writes.
    const cases = [...pathCases(o), ...queryCases(o), ...headerCases(o), ...bodyCases(o)].filter((c) => !target.write || c.invalid);
    const failures = await checkAll(target, cases);
    if (o.id === 'importFile') {
      const files = importCases();
      failures.push(...(await checkAll(target, files.cases)));
      failures.push(...(await checkAll(target, files.dryRuns, { writesNothing: true })));
    }
    if (o.id === 'uploadScreenshot') {
      const listed = async () => (await t.runtime.deps.objects.list(`projects/${fx.projectId}/screenshots/`)).length;
      const before = await listed();
      failures.push(...(await checkAll(target, screenshotImageCases())));
      if ((await listed()) !== before) failures.push(`refused uploads left ${(await listed()) - before} images in the object store`);
    }
    if (o.id === 'importGlossary') {
      const files = glossaryImportCases();
      failures.push(...(await checkAll(target, files.cases.filter((c) => c.invalid))));
      failures.push(...(await checkAll(target, files.dryRuns, { writesNothing: true })));
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The portal's forms.

type FormSpec = {
  /** The fields the route reads, each with a value that would be accepted. */
  fields: Record<string, string>;
  /** Without any of these the form is refused (empty too, unless in mayBeEmpty). */
  required?: string[];
  /** Required fields that may be sent empty (a value cleared in the editor). */
  mayBeEmpty?: string[];
  /** Fields whose value is one of a few (a bogus one is refused). */
  choices?: string[];
  /** Fields stored as text, with their limit: NUL, invalid UTF-8 and overlong values are refused. */
  stored?: Record<string, number>;
  /** Other values of a field that must be refused (text, encoded as the form is; or bytes, sent as they are). */
  refused?: Record<string, (string | Buffer)[]>;
  /** A file upload (multipart), in this field. */
  file?: string;
  /** Each refused attempt checks a password (scrypt, about a second here): one case per required field. */
  costly?: boolean;
};

const VALUES_PATH = '/portal/projects/:project_id/keys/:key_id/values/:language';
/** A key form's Character limit that is no whole number from 1 to 10000. */
const MAX_LENGTH_REFUSED = ['abc', '0', '10001', '1.5', '1e3', '-1', '0x10', '1'.repeat(40), '\u0661', Buffer.from('%ff')];
const FORMS: Record<string, FormSpec> = {
  '/portal/setup': { fields: { admin_token: ADMIN_TOKEN, email: 'x@example.com', password: PASSWORD, account_name: 'X', plan: 'team' }, required: ['admin_token', 'email', 'password'] },
  '/portal/sign-in': { fields: { email: 'owner@example.com', password: PASSWORD }, required: ['email', 'password'], costly: true },
  '/portal/sign-out': { fields: {} },
  '/portal/sign-out-everywhere': { fields: {} },
  '/portal/invite/:token': { fields: { email: 'new@example.com', password: PASSWORD }, required: ['email', 'password'] },
  '/portal/accounts/:account_id/invites': { fields: { role: 'reviewer', languages: 'de' }, required: ['role'], choices: ['role'] },
  '/portal/accounts/:account_id/members/:member_id/role': { fields: { role: 'reviewer', languages: 'de' }, required: ['role'], choices: ['role'] },
  '/portal/accounts/:account_id/members/:member_id/remove': { fields: {} },
  '/portal/accounts/:account_id/invites/:invite_id/revoke': { fields: {} },
  '/portal/accounts/:account_id/projects': { fields: { name: 'Another' }, required: ['name'], stored: { name: 200 } },
  '/portal/projects/:project_id/groups/:group_name/rename': { fields: { new_name: 'auth2' }, required: ['new_name'], stored: { new_name: 200 } },
  // tags: as the key form's (one text, comma-separated, each tag's limit). max_length: as the key form's.
  '/portal/projects/:project_id/keys': {
    fields: { key: 'portal.new', group_name: 'portal', description: 'd', tags: 'release', max_length: '30' },
    required: ['key'],
    stored: { key: 500, group_name: 200, description: 1000, tags: 100 },
    refused: { tags: ['bell\u0007', Array.from({ length: 21 }, (_, i) => `t${i}`).join(','), Buffer.from('%ED%A0%80')], max_length: MAX_LENGTH_REFUSED },
  },
  // tags: one text, comma-separated; its limit is one tag's (a longer text is refused as a tag too long).
  // max_length: the character limit's text, a whole number from 1 to 10000 (empty: none).
  '/portal/projects/:project_id/keys/:key_id': {
    fields: { group_name: 'auth', description: 'd', tags: 'release', max_length: '30' },
    required: ['group_name'],
    stored: { group_name: 200, description: 1000, tags: 100 },
    refused: { max_length: MAX_LENGTH_REFUSED },
  },
  '/portal/projects/:project_id/keys/:key_id/delete': { fields: {} },
  [VALUES_PATH]: { fields: { value: 'Hallo', status: 'draft' }, required: ['value'], mayBeEmpty: ['value'], choices: ['status'], stored: { value: 10_000 } },
  '/portal/projects/:project_id/translate': { fields: { language: 'de', group: 'auth' }, required: ['language'], choices: ['language'] },
  // Add tag: the tag is required (stored on the keys), lang is the status actions' (ignored here).
  '/portal/projects/:project_id/bulk': { fields: { action: 'tag-add', key: 'KEY_ID', tag: 'release', lang: 'de' }, required: ['action', 'key', 'tag'], choices: ['action'], stored: { tag: 100 } },
  '/portal/projects/:project_id/keys/:key_id/values/:language/revert': { fields: { event_id: '1' }, required: ['event_id'], choices: ['event_id'] },
  // The versions are conditions: a bogus one is no condition (the value's own version is compared when it is one).
  '/portal/projects/:project_id/keys/:key_id/values/:language/up-to-date': { fields: { version: '1', source_rev: '0' } },
  '/portal/projects/:project_id/keys/:key_id/values/:language/comments': { fields: { text: 'Formal?' }, required: ['text'], stored: { text: 2_000 } },
  // resolved: yes or no, what the form asks for (anything else is refused).
  '/portal/projects/:project_id/keys/:key_id/values/:language/comments/:comment_id/resolve': { fields: { resolved: 'yes' }, required: ['resolved'], choices: ['resolved'] },
  '/portal/projects/:project_id/keys/:key_id/values/:language/comments/:comment_id/delete': { fields: {} },
  '/portal/projects/:project_id/publish': { fields: {} },
  '/portal/projects/:project_id/settings': { fields: { auto_rebuild: 'false' }, required: ['auto_rebuild'], choices: ['auto_rebuild'] },
  '/portal/projects/:project_id/languages': { fields: { code: 'it' }, required: ['code'], choices: ['code'] },
  '/portal/projects/:project_id/languages/:code/remove': { fields: { confirmed: 'yes', values: '0', digest: 'none' } },
  '/portal/projects/:project_id/quality': { fields: { source_language: 'de', quality_blocking: 'placeholders' }, choices: ['source_language', 'quality_blocking'] },
  // tag: optional (blank is none), one tag given to every key of the file.
  // A comma is refused (one tag, not a list); a lone surrogate as UTF-8 would write it is no text.
  '/portal/projects/:project_id/import': {
    fields: { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'auth', tag: 'release' },
    required: ['language', 'file'],
    choices: ['language', 'format', 'status', 'conflict'],
    stored: { tag: 100 },
    refused: { tag: ['a,b', ',', 'bell\u0007', '\u0085', Buffer.from([0x61, 0xed, 0xa0, 0x80])] },
    file: 'file',
  },
  '/portal/projects/:project_id/trash/keys/:key_id/restore': { fields: {} },
  '/portal/projects/:project_id/trash/groups/:group_name/restore': { fields: {} },
  // The glossary: a term with its description, flags (yes, else not) and one field per translation.
  '/portal/projects/:project_id/glossary': {
    fields: { term: 'Portal term', description: 'd', case_sensitive: 'yes', translation_fr: 'Terme' },
    required: ['term'],
    stored: { term: 200, description: 1000, translation_fr: 200 },
    refused: { term: ['bell\u0007', '   '], translation_fr: ['tab\tbed'] },
  },
  // Only what changed from `*_was` is written: each stored field is sent changed.
  '/portal/projects/:project_id/glossary/:term_id': {
    fields: { term: 'Auth case', term_was: 'Auth case', description: 'x', description_was: '', translation_fr: 'Cas', translation_fr_was: 'Cas' },
    stored: { term: 200, description: 1000, translation_fr: 200 },
    refused: { term: ['', 'bell\u0007'] },
  },
  // A glossary file (multipart): its format, or '' for the one its name says; the fixture's JSON
  // file read as CSV is refused whatever the other fields say.
  '/portal/projects/:project_id/glossary/import': { fields: { format: 'csv' }, required: ['file'], choices: ['format'], file: 'file' },
  '/portal/projects/:project_id/glossary/:term_id/delete': { fields: {} },
  // A screenshot (multipart): the image, a name (empty: the file's), key names one per line. The
  // fixture's "file" is a JSON file: no image, so every case is refused whatever else it holds.
  '/portal/projects/:project_id/screenshots': { fields: { name: 'Home', keys: 'auth.case' }, required: ['file'], stored: { name: 200 }, file: 'file' },
  '/portal/projects/:project_id/screenshots/:screenshot_id': { fields: { name: 'Sign-in page', name_was: 'Sign in' }, required: ['name'], stored: { name: 200 } },
  '/portal/projects/:project_id/screenshots/:screenshot_id/keys': { fields: { keys: 'auth.case' }, required: ['keys'], refused: { keys: ['no.such.key', 'gone.case', Buffer.from('%ff')] } },
  // A linked key's region: whole pixels inside the image (390 x 260), or do=clear / do=unlink.
  '/portal/projects/:project_id/screenshots/:screenshot_id/keys/:key_id': {
    fields: { do: 'region', x: '10', y: '20', width: '100', height: '30' },
    required: ['do', 'x', 'y', 'width', 'height'],
    choices: ['do'],
    refused: { x: ['-1', 'abc', '1.5', '1e2', '391', '\u0661'], width: ['0', '381', '99999999999'], height: ['241'] },
  },
  '/portal/projects/:project_id/screenshots/:screenshot_id/delete': { fields: {} },
  // Tasks: a new one over the keys of a group (every key, done or in tasks: the fixture can make it
  // again); the due day a day of the calendar; an assignee a member allowed the work.
  '/portal/projects/:project_id/tasks': {
    fields: { name: 'Portal task', description: 'd', kind: 'review', language: 'fr', keys: 'matching', group: 'auth', include_done: 'yes', include_tasked: 'yes', due_date: '2027-01-31' },
    required: ['name', 'kind', 'language'],
    choices: ['kind', 'language'],
    stored: { name: 200, description: 2_000 },
    refused: { due_date: ['2026-02-30', 'tomorrow', '31.12.2026'], assignees: ['nobody@example.com'], name: ['bell\u0007'] },
  },
  // Only what changed from `*_was` is written.
  '/portal/projects/:project_id/tasks/:number': {
    fields: { name: 'Auth, renamed', name_was: 'Auth', description: 'd', description_was: '', due_date: '2027-02-01', due_date_was: '' },
    stored: { name: 200, description: 2_000 },
    refused: { due_date: ['2026-02-30', 'soon'], name: ['', 'bell\u0007'] },
  },
  '/portal/projects/:project_id/tasks/:number/state': { fields: { state: 'open' }, required: ['state'], choices: ['state'] },
  '/portal/projects/:project_id/tasks/:number/delete': { fields: {} },
  '/portal/projects/:project_id/tags/:tag/rename': { fields: { name: 'auth-tag2' }, required: ['name'], stored: { name: 100 }, refused: { name: ['a,b', 'auth-tag'] } },
  '/portal/projects/:project_id/tags/:tag/delete': { fields: {} },
  '/portal/projects/:project_id/api-keys': { fields: { kind: 'live', name: 'CI' }, choices: ['kind'], stored: { name: 100 } },
  '/portal/projects/:project_id/api-keys/:api_key_id/revoke': { fields: {} },
};

function portalParam(name: string, route: string): string {
  const restore = route.endsWith('/restore');
  const values: Record<string, string> = {
    project_id: fx.projectId,
    account_id: fx.accountId,
    member_id: fx.memberId,
    invite_id: fx.inviteId,
    key_id: restore ? fx.deletedKeyId : fx.keyId,
    language: 'de',
    code: 'fr',
    group_name: restore ? 'gone' : 'auth',
    api_key_id: fx.extraApiKeyId,
    comment_id: fx.commentId,
    term_id: fx.termId,
    screenshot_id: fx.screenshotId,
    number: String(fx.taskNumber),
    token: 'not-an-invitation',
    tag: 'auth-tag',
  };
  const value = values[name];
  if (value === undefined) throw new Error(`no fixture value for portal parameter :${name} (${route}): add one`);
  return value;
}

const portalPath = (route: string, raw: Record<string, string> = {}) => route.replace(/:(\w+)/g, (_, name: string) => raw[name] ?? encodeURIComponent(portalParam(name, route)));

const urlencoded = (fields: Record<string, string | Buffer>) =>
  Buffer.concat(
    Object.entries(fields).flatMap(([k, v], i) => [Buffer.from(`${i ? '&' : ''}${encodeURIComponent(k)}=`), Buffer.isBuffer(v) ? v : Buffer.from(encodeURIComponent(v))]),
  );

function multipart(fields: Record<string, string | Buffer>, files: Record<string, Buffer> = {}, boundary = 'malformed-boundary'): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n`), Buffer.from(v), Buffer.from('\r\n'));
  for (const [k, v] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="de.json"\r\nContent-Type: application/json\r\n\r\n`), v, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };
const multipartType = (boundary = 'malformed-boundary') => ({ 'Content-Type': `multipart/form-data; boundary=${boundary}` });

/** The malformed variants of one portal form. */
function formCases(route: string, spec: FormSpec): Case[] {
  const csrf = fx.owner.csrf;
  const withCsrf = (fields: Record<string, string | Buffer>) => ({ _csrf: csrf, ...fields });
  const valid = spec.fields;
  const takesFields = (spec.required?.length ?? 0) + (spec.choices?.length ?? 0) + Object.keys(spec.stored ?? {}).length > 0;
  const sendForm = (label: string, fields: Record<string, string | Buffer>, invalid = true): Case =>
    spec.file
      ? { label, body: multipart(withCsrf(fields), { [spec.file]: Buffer.from(fx.files.json!) }), headers: multipartType(), invalid }
      : { label, body: urlencoded(withCsrf(fields)), headers: FORM_TYPE, invalid };
  const cases: Case[] = [];
  // Bodies that cannot be read as a form, with the token in a header (as the portal's script sends
  // it) and in the body, where the CSRF check itself must read it. A form that cannot be read asks
  // for nothing a route could do: refused, whatever the route.
  const good = urlencoded(withCsrf(valid)).toString();
  const header = { 'X-CSRF-Token': csrf };
  const unreadable: [string, Buffer | string, Record<string, string>, boolean][] = [
    ['multipart without a boundary', multipart(withCsrf(valid)), { 'Content-Type': 'multipart/form-data' }, true],
    ['multipart with another boundary', multipart(withCsrf(valid), {}, 'other'), multipartType('expected'), true],
    ['multipart cut short', multipart(withCsrf(valid)).subarray(0, 60), multipartType(), true],
    // Readable, but with no field at all (not even the token).
    ['multipart with no parts', '--malformed-boundary--\r\n', multipartType(), (spec.required?.length ?? 0) > 0],
    ['multipart of garbage', Buffer.from([0xff, 0x00, 0x2d, 0x2d, 0x0d]), multipartType(), true],
    ['multipart with a header line of garbage', '--malformed-boundary\r\nContent-Disposition\r\n\r\nx\r\n--malformed-boundary--\r\n', multipartType(), true],
    // The route's first field given again, in bytes that are not UTF-8: the form cannot be read as text.
    ['urlencoded with invalid UTF-8 escapes', `${good}&${Object.keys(valid)[0] ?? 'x'}=%ff%fe`, FORM_TYPE, true],
  ];
  for (const [label, body, type, invalid] of unreadable) {
    cases.push({ label: `${label}, token in a header`, body, headers: { ...type, ...header }, invalid });
    // Without the header the token must come from the body: a body it cannot be read from is refused.
    cases.push({ label: `${label}, token in the body`, body, headers: type, invalid: invalid || label.startsWith('multipart') });
  }
  // The editor's script saves values with fetch and reads errors as the API's envelope.
  if (route === VALUES_PATH) {
    for (const c of [...cases]) cases.push({ ...c, label: `${c.label}, answered as JSON`, headers: { ...c.headers, Accept: 'application/json' }, expectsJson: true });
  }
  // Escapes that decode to nothing: the token among them cannot match.
  cases.push({ label: 'urlencoded with broken escapes', body: good.replace(/=([^&]*)/g, '=%$1%zz%'), headers: FORM_TYPE, invalid: true });
  // A body that is not a form at all (the token in a header lets it reach the route): no route reads
  // it, so none may act on it, as the API's bodiless writes refuse a body they cannot read.
  for (const [label, body, type] of [
    ['JSON instead of a form', JSON.stringify({ _csrf: csrf, ...valid }), { 'Content-Type': 'application/json' }],
    ['text instead of a form', good, { 'Content-Type': 'text/plain' }],
    ['no Content-Type', good, {}],
  ] as const) {
    cases.push({ label, body, headers: { ...type, ...header }, invalid: true });
  }
  for (const name of spec.required ?? []) {
    if (name === spec.file) {
      cases.push({ label: 'no file', body: multipart(withCsrf(valid)), headers: multipartType(), invalid: true });
      cases.push({ label: 'the file as text', body: multipart(withCsrf({ ...valid, [name]: fx.files.json! })), headers: multipartType(), invalid: true });
      cases.push({ label: 'an empty file', body: multipart(withCsrf(valid), { [name]: Buffer.alloc(0) }), headers: multipartType(), invalid: true });
      continue;
    }
    const { [name]: _, ...rest } = valid;
    cases.push(sendForm(`${name} missing`, rest));
    if (spec.costly) continue;
    if (!spec.mayBeEmpty?.includes(name)) cases.push(sendForm(`${name} empty`, { ...valid, [name]: '' }));
    if (!spec.file) cases.push({ label: `${name} as a file`, body: multipart(withCsrf(rest), { [name]: Buffer.from('x') }), headers: multipartType(), invalid: true });
  }
  for (const name of spec.choices ?? []) {
    for (const bogus of ['bogus', ' ', '\u0000', 'x'.repeat(5000)]) cases.push(sendForm(`${name}=${JSON.stringify(bogus.slice(0, 20))}`, { ...valid, [name]: bogus }));
  }
  for (const [name, max] of Object.entries(spec.stored ?? {})) {
    cases.push(sendForm(`${name} of ${max + 1} characters`, { ...valid, [name]: 'k'.repeat(max + 1) }));
    cases.push(sendForm(`${name} with NUL`, { ...valid, [name]: 'a\u0000b' }));
    // Multipart carries a field's bytes as they are; urlencoded, as escapes.
    cases.push(sendForm(`${name} with invalid UTF-8`, { ...valid, [name]: spec.file ? Buffer.from([0xff, 0xfe]) : Buffer.from('%ff%fe') }));
  }
  for (const [name, values] of Object.entries(spec.refused ?? {})) {
    for (const value of values) cases.push(sendForm(`${name}=${JSON.stringify((typeof value === 'string' ? value : value.toString('latin1')).slice(0, 20))}`, { ...valid, [name]: value }));
  }
  // fast-check: every field drawn at random, each value with a NUL somewhere: what stores text or
  // picks from choices must refuse it.
  const names = [...Object.keys(valid), 'return_to', '_extra'];
  const form = fc.record(Object.fromEntries(names.map((n) => [n, fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 })).map(([a, b]) => `${a}\u0000${b}`)])));
  for (const [i, fields] of fc.sample(form, { seed: SEED, numRuns: 8 * RUNS_FACTOR }).entries()) {
    const wellFormed = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.toWellFormed()]));
    cases.push(sendForm(`random form #${i}`, wellFormed, takesFields));
  }
  return cases;
}

/** Bad path parameters of a portal form, with its valid fields. */
function portalPathCases(route: string, spec: FormSpec): Case[] {
  const cases: Case[] = [];
  const fields = { _csrf: fx.owner.csrf, ...spec.fields, ...(route.endsWith('/remove') ? { confirmed: 'yes' } : {}) };
  for (const name of [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
    for (const raw of BAD_SEGMENTS.filter((s) => s.length < 1000)) {
      const body = spec.file ? multipart(fields, { [spec.file]: Buffer.from(fx.files.json!) }) : urlencoded(fields);
      cases.push({ label: `path ${name}=${raw.slice(0, 40)}`, path: portalPath(route, { [name]: raw }), body, headers: spec.file ? multipartType() : FORM_TYPE, invalid: true });
    }
  }
  return cases;
}

describe('the portal forms', () => {
  it('every POST route of the portal has a form description here', () => {
    expect(PORTAL_POSTS.filter((r) => !(r in FORMS))).toEqual([]);
    expect(PORTAL_POSTS.length).toBeGreaterThanOrEqual(25);
  });

  // Signing out ends the session the other forms use: those two go last, with a session of their own.
  const ordered = [...PORTAL_POSTS.filter((r) => !r.startsWith('/portal/sign-out')), ...PORTAL_POSTS.filter((r) => r.startsWith('/portal/sign-out'))];
  it.each(ordered)('POST %s: a malformed form is a 4xx page, and writes nothing', async (route) => {
    const spec = FORMS[route]!;
    let client = fx.owner;
    if (route.startsWith('/portal/sign-out')) {
      // A session made directly: the sign-in form's cases may have throttled signing in by now.
      const id = (await t.runtime.deps.sql<{ id: string }[]>`select id from users where email = 'owner@example.com'`)[0]!.id;
      client = new PortalClient(t.app);
      client.cookies.set('tms_session', (await createSession(t.runtime.deps, id)).token);
      await client.get('/portal');
      await db.accept();
    }
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const target: Target = { method: 'POST', path: portalPath(route), api: false, auth: { Cookie: cookie, Origin: 'http://localhost' }, write: true };
    const swap = (c: Case): Case => {
      const text = (b: Case['body']) => (Buffer.isBuffer(b) ? b : Buffer.from(b ?? '')).toString('latin1').replaceAll(fx.owner.csrf, client.csrf).replaceAll('KEY_ID', fx.keyId);
      return { ...c, body: Buffer.from(text(c.body), 'latin1'), headers: Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, v === fx.owner.csrf ? client.csrf : v])) };
    };
    // Only what must be refused: a form the spec leaves open could delete the fixture's key or language.
    const cases = [...formCases(route, spec), ...portalPathCases(route, spec)].filter((c) => c.invalid).map(swap);
    const failures = await checkAll(target, cases);
    expect(failures).toEqual([]);
  });
});
