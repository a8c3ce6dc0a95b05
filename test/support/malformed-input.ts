// Building blocks of test/http/malformed-input.test.ts: a client that sends exactly the bytes it is
// given to the self-hosted server (no path normalization, any Content-Type or none), a fingerprint
// of the whole database to prove that a refused request wrote nothing, and the malformed variants of
// an operation's path, query, headers and body, derived from what /openapi.json documents.
import { Agent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import fc from 'fast-check';
import type { Sql } from '../../core/db/client.ts';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from '../../functions/http/node-server-edge.ts';
import { deref, validate, type Doc } from '../openapi/openapi-support.ts';
import { wholeNumberFromEnv } from './whole-number-from-env.ts';

// ---------------------------------------------------------------------------------------------
// Transport: the app behind the same node server and edge as `npm start`.

export type Sent = { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string };
export type Answer = { status: number; contentType: string; text: string; headers: Record<string, string | string[] | undefined> };

export type HttpEdge = { send(request: Sent): Promise<Answer>; close(): Promise<void> };

export async function serveOverHttp(fetch: (request: Request) => Response | Promise<Response>): Promise<HttpEdge> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1', serverOptions: EDGE_SERVER_OPTIONS }) as Server;
  hardenNodeServer(server, { requestTimeoutMs: 20_000, headersTimeoutMs: 10_000 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  // A kept-alive socket the server closes as idle (its keepAliveTimeout) while a request goes out on
  // it is reset with no answer: Node's docs advise sending again, once, on a fresh socket. A server
  // that dies on the request itself is reset on the fresh socket too, and still fails the case.
  const send = async (sent: Sent): Promise<Answer> => {
    try {
      return await sendOnce(sent);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return sendOnce(sent);
      throw error;
    }
  };
  const sendOnce = (sent: Sent): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const body = sent.body === undefined ? undefined : Buffer.isBuffer(sent.body) ? sent.body : Buffer.from(sent.body, 'utf8');
      const headers: Record<string, string | number> = { ...sent.headers };
      if (body !== undefined) headers['Content-Length'] = body.length;
      const req = httpRequest({ host: '127.0.0.1', port, method: sent.method, path: sent.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      });
      // The server may answer (a 413) and close before the whole body is written: the answer counts.
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  return {
    send,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Nothing written: every table of the database, each row as JSON, hashed in one statement, and
// compared with what it was. Retaken only when a transaction id was spent meanwhile: no row of any
// table changes without one (a read-only transaction never takes one), so the check stays complete
// while most cases, refused before any write began, cost one trivial query instead of a full hash.

/** Columns a request may touch without writing anything the rule is about (an API key's last use). */
const VOLATILE_COLUMNS = ['last_used_at'];

export type Fingerprint = Record<string, string>;

export type DatabaseWatch = {
  /** The tables whose rows differ from the accepted state (empty when none). */
  changes(): Promise<string[]>;
  /** Takes the current state as the one later changes are measured against. */
  accept(): Promise<void>;
};

export async function watchDatabase(sql: Sql): Promise<DatabaseWatch> {
  const tables = await sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`;
  const row = (alias: string) => `(to_jsonb(${alias}) ${VOLATILE_COLUMNS.map((c) => `- '${c}'`).join(' ')})::text`;
  const query = tables
    .map(({ name }) => `select '${name}' as name, count(*)::int || ':' || md5(coalesce(string_agg(${row('x')}, ',' order by ${row('x')}), '')) as digest from "${name}" x`)
    .join(' union all ');
  const fingerprint = async (): Promise<Fingerprint> =>
    Object.fromEntries((await sql.unsafe<{ name: string; digest: string }[]>(query, [], { prepare: true })).map((r) => [r.name, r.digest]));
  // The first transaction id not yet assigned: it moves on with every transaction that wrote, or began to.
  const nextXid = async () => (await sql<{ xid: string }[]>`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`)[0]!.xid;
  let accepted = await fingerprint();
  let seenXid = await nextXid();
  return {
    async changes() {
      const xid = await nextXid();
      if (xid === seenXid) return [];
      seenXid = xid;
      const now = await fingerprint();
      return Object.keys({ ...accepted, ...now }).filter((t) => accepted[t] !== now[t]);
    },
    async accept() {
      seenXid = await nextXid();
      accepted = await fingerprint();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What counts as invalid: the documented schema, and what the spec says of every string.

/**
 * Why `value` is invalid for `schema` (empty: valid as documented). Beyond the schema: numbers JSON
 * cannot carry (1e999 parses to Infinity) and strings Postgres cannot store (NUL, an unpaired
 * surrogate: "refused with 422 in every field", docs/decisions.md) are invalid wherever they are.
 */
export function problemsOf(doc: Doc, schema: unknown, value: unknown): string[] {
  const problems = validate(doc, schema, value);
  const walk = (v: unknown, at: string) => {
    if (typeof v === 'number' && !Number.isFinite(v)) problems.push(`${at}: not a finite number`);
    // A filter's group is compared, never stored: one that could never be a group name matches
    // nothing (docs/decisions.md, "Keys, groups, languages").
    const filterGroup = at === '$.filter.group';
    if (typeof v === 'string' && !filterGroup && (v.includes('\u0000') || !v.isWellFormed())) problems.push(`${at}: not storable text`);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
  };
  walk(value, '$');
  return problems;
}

const codePoints = (s: string) => [...s].length;

/** Why a path, query or header value (a string as the server decodes it) breaks its documented schema. */
export function parameterProblems(schema: any, value: string | string[]): string[] {
  if (Array.isArray(value)) return ['given more than once'];
  const problems: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) problems.push('not in enum');
  if (schema.type === 'integer') {
    if (!/^\d+$/.test(value)) problems.push('not an integer');
    else {
      if (schema.minimum !== undefined && Number(value) < schema.minimum) problems.push('below minimum');
      if (schema.maximum !== undefined && Number(value) > schema.maximum) problems.push('above maximum');
    }
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) problems.push('does not match pattern');
  if (schema.maxLength !== undefined && codePoints(value) > schema.maxLength) problems.push('too long');
  if (schema.minLength !== undefined && codePoints(value) < schema.minLength) problems.push('too short');
  if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) problems.push('not a uuid');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The malformed variants. A case is what is sent beyond authentication, and whether the spec
// makes it invalid (then it must be refused with a 4xx) or leaves it open (then only never a 5xx).

export type Case = {
  label: string;
  /** Replaces the operation's path (already filled and encoded) when given. */
  path?: string;
  query?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  invalid: boolean;
  /** A portal request that asks for JSON (the editor's script): errors in the API's envelope, not pages. */
  expectsJson?: boolean;
};

/** MALFORMED_SEED=<n> draws other random inputs (a deeper search beside MALFORMED_RUNS); the default is CI's. */
export const SEED = wholeNumberFromEnv('MALFORMED_SEED', 20261127);

/**
 * Path segments that can never name anything, sent as they are (percent signs included). Not among
 * them: `.`, `..` and their escapes `%2e`, which are not malformed but navigation (RFC 3986 5.2.4:
 * `/v1/cached/builds/../translations/de` is `/v1/cached/translations/de`).
 */
export const BAD_SEGMENTS = [
  'not-a-uuid',
  '0',
  '00000000-0000-4000-8000-00000000000g',
  '00000000-0000-4000-8000-0000000000000',
  '%',
  '%zz',
  '%0',
  '%00',
  'de%00',
  '%2F',
  '..%2F..%2Fhealth',
  '%5C',
  '%ff',
  '%c3%28',
  '%ed%a0%80',
  '%e2%82',
  '%F0%9F%91%8B',
  '%20',
  '%0A',
  '',
  ';',
  '*',
  "'%20or%201=1--",
  'a'.repeat(300),
  'x'.repeat(12_000),
  'x'.repeat(20_000),
];

const latin1 = (n: number) => String.fromCharCode(n);
/** A path segment from any string: properly encoded, as raw bytes percent-encoded, or raw where the client allows it. */
export const garbageSegment = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), fc.constantFrom('encoded', 'bytes', 'raw'))
  .map(([s, how]) => {
    if (how === 'encoded') return encodeURIComponent(s.isWellFormed() ? s : s.toWellFormed());
    if (how === 'bytes') return [...s].map((ch) => `%${(ch.codePointAt(0)! & 0xff).toString(16).padStart(2, '0')}`).join('');
    // Node's client sends bytes 0x21-0xff as they are; everything else is escaped.
    return [...s].map((ch) => (/^[\x21-\x7e]$/.test(ch) && !'/?#'.includes(ch) ? ch : `%${(ch.codePointAt(0)! & 0xff).toString(16).padStart(2, '0')}`)).join('');
  });

/** Bad values for one query parameter, by its documented schema (encoded as they are sent). */
export function queryValues(schema: any): { raw: string; decoded: string | string[] }[] {
  const out: { raw: string; decoded: string | string[] }[] = [];
  const add = (decoded: string) => out.push({ raw: encodeURIComponent(decoded), decoded });
  for (const s of ['', ' ', 'bogus', 'x'.repeat(300), 'x'.repeat(5000), '\u0000', 'a\u0000b', '\u00e9t\u00e9', '👋']) add(s);
  if (schema.enum) for (const e of schema.enum.slice(0, 1) as string[]) { add(`${e} `); add(e.toUpperCase()); }
  if (schema.type === 'integer' || /\\d/.test(schema.pattern ?? '')) {
    for (const s of ['0', '-1', '1.5', '1e3', '0x10', 'NaN', 'Infinity', '99999999999999999999', '9007199254740993', ' 1', '1 ', '+1', '٣']) add(s);
    if (schema.maximum !== undefined) add(String(schema.maximum + 1));
  }
  if (schema.maxLength !== undefined) add('y'.repeat(schema.maxLength + 1));
  if (schema.pattern !== undefined) for (const s of ['de_DE', 'de-', '-de', 'deutsch', '12']) add(s);
  // Percent-encoding the server must decode or refuse, never stumble on.
  for (const raw of ['%', '%zz', '%ff', '%c3%28', '%ed%a0%80', '%00']) out.push({ raw, decoded: raw === '%00' ? '\u0000' : raw });
  return out;
}

/** The valid value given twice, and a valid with a bogus one. */
export const repeated = (name: string, valid: string) => [`${name}=${encodeURIComponent(valid)}&${name}=${encodeURIComponent(valid)}`, `${name}=${encodeURIComponent(valid)}&${name}=bogus`];

// ---------------------------------------------------------------------------------------------
// JSON bodies.

const JSON_TYPE = { 'Content-Type': 'application/json' };

/** Wrong JSON shapes and wrong bytes for a route that takes a JSON object; `sample` is a valid body. */
export function jsonBodyCases(doc: Doc, schema: unknown, sample: unknown): Case[] {
  const text = JSON.stringify(sample);
  const cases: Case[] = [];
  const json = (label: string, body: string | Buffer, headers: Record<string, string> = JSON_TYPE): Case => ({ label, body, headers, invalid: true });
  // Not an object.
  for (const body of ['[]', '"x"', '1', '-0', 'null', 'true', '1e999', `[${text}]`, JSON.stringify(text)]) cases.push(json(`body ${body.slice(0, 40)}`, body));
  // Not JSON at all.
  for (const body of ['', ' ', '\n', '{', '}', '{"', "{'a':1}", '{a:1}', 'NaN', 'undefined', `${text},`, `${text}${text}`, `${text}x`, '{"a":1,}', '\u0000', '{"a":"\u0000"']) {
    cases.push(json(`not JSON ${JSON.stringify(body.slice(0, 30))}`, body));
  }
  for (const cut of [1, Math.floor(text.length / 2), text.length - 1]) cases.push(json(`truncated at ${cut}`, text.slice(0, cut)));
  // (A leading byte-order mark is not among them: RFC 8259 8.1 lets a parser ignore it, and the
  // service does, as its file imports do.)
  // Not UTF-8: bytes that do not decode, inside a string and outside.
  const firstQuote = text.indexOf('"', 1);
  for (const bytes of [[0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80]]) {
    const at = firstQuote > 0 ? firstQuote + 1 : 1;
    cases.push(json(`invalid UTF-8 ${bytes.map((b) => b.toString(16)).join(' ')}`, Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at))])));
  }
  cases.push(json('UTF-16', Buffer.from(`\ufeff${text}`, 'utf16le')));
  // Deep nesting: as the body, inside an unknown field, and inside every documented field.
  const depth = 100_000;
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  cases.push(json(`nested ${depth} deep`, deep));
  cases.push(json(`field nested ${depth} deep`, `{"zz":${deep}}`));
  cases.push(json(`object nested ${depth} deep`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
  // Prototype keys: unknown fields like any other, never a way around validation.
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const inner = sample !== null && typeof sample === 'object' ? text.slice(1, -1) : '';
    cases.push(json(`key ${key}`, `{${inner}${inner ? ',' : ''}"${key}":${text}}`));
    cases.push(json(`key ${key} alone`, `{"${key}":{"polluted":true}}`));
  }
  // The valid body under a wrong, missing or unsupported media type, charset or coding.
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'json', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset="iso-8859-1"']) {
    cases.push(json(`Content-Type ${type}`, text, { 'Content-Type': type }));
  }
  cases.push(json('no Content-Type', text, {}));
  cases.push(json('gzip, not decompressed', gzipSync(text), { ...JSON_TYPE, 'Content-Encoding': 'gzip' }));
  // Field by field, from the documented schema.
  for (const [label, body] of fieldMutations(doc, schema, sample)) {
    if (problemsOf(doc, schema, body).length > 0) cases.push(json(label, stringify(body)));
  }
  return cases;
}

/** JSON.stringify that keeps what JSON cannot say as the literal text a client could send. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `__num${v}__` : v)).replace(/"__num(-?Infinity)__"/g, (_, n) => (n === 'Infinity' ? '1e999' : '-1e999'));
}

const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, 1e999, 2 ** 53 + 2, '', 'x', [], {}, ['x'], { a: 1 }];
const HOSTILE_STRINGS = ['\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '\u0000'.repeat(10), ' ', '\t\n', '%00', '..', '.', '<script>', "'; drop table translations; --", '👋'.repeat(3)];

/** Every documented field of the body set to wrong types, past its limits, or left out. */
function fieldMutations(doc: Doc, schema: any, sample: unknown, prefix = ''): [string, unknown][] {
  schema = deref(doc, schema);
  if (!schema || schema.type !== 'object' || sample === null || typeof sample !== 'object' || Array.isArray(sample)) return [];
  const out: [string, unknown][] = [];
  const base = sample as Record<string, unknown>;
  for (const name of schema.required ?? []) {
    const { [name]: _, ...rest } = base;
    out.push([`${prefix}${name} missing`, rest]);
  }
  for (const [name, raw] of Object.entries<any>(schema.properties ?? {})) {
    const field = deref(doc, raw);
    const set = (label: string, value: unknown) => out.push([`${prefix}${name} ${label}`, { ...base, [name]: value }]);
    for (const value of WRONG_TYPES) set(`= ${stringify(value)}`, value);
    for (const value of HOSTILE_STRINGS) set(`= ${JSON.stringify(value)}`, value);
    const strings = [field, ...(field.anyOf ?? []).map((s: unknown) => deref(doc, s))].filter((s: any) => s.type === 'string' || s.enum);
    for (const s of strings) {
      if (s.maxLength !== undefined) {
        set(`${s.maxLength + 1} characters`, 'k'.repeat(s.maxLength + 1));
        set(`${s.maxLength + 1} astral characters`, '👋'.repeat(s.maxLength + 1));
      }
      if (s.enum) for (const e of s.enum.slice(0, 1)) { set(`= ${e.toUpperCase()}`, e.toUpperCase()); set(`= " ${e}"`, ` ${e}`); }
      if (s.pattern !== undefined) for (const v of ['de_DE', 'a/b', 'x'.repeat(201), '-']) set(`= ${v.slice(0, 20)}`, v);
    }
    const numbers = [field, ...(field.anyOf ?? []).map((s: unknown) => deref(doc, s))].filter((s: any) => s.type === 'integer' || s.type === 'number');
    for (const s of numbers) {
      for (const v of [s.minimum - 1, s.maximum + 1, 2 ** 31, 2 ** 63, 1e308, 0.5, -0.5].filter((v) => Number.isFinite(v))) set(`= ${v}`, v);
    }
    const arrays = [field, ...(field.anyOf ?? []).map((s: unknown) => deref(doc, s))].filter((s: any) => s.type === 'array');
    for (const s of arrays) {
      const valid = Array.isArray(base[name]) && (base[name] as unknown[]).length > 0 ? (base[name] as unknown[])[0] : undefined;
      if (s.maxItems !== undefined && valid !== undefined) set(`with ${s.maxItems + 1} items`, Array.from({ length: s.maxItems + 1 }, () => valid));
      set('= [null]', [null]);
      set('= [[]]', [[]]);
      set('= [{}]', [{}]);
      if (valid !== undefined && typeof valid === 'object') out.push(...fieldMutations(doc, s.items, valid, `${prefix}${name}[0].`).map(([l, v]) => [l, { ...base, [name]: [v] }] as [string, unknown]));
    }
    if (field.type === 'object' && base[name] && typeof base[name] === 'object') {
      out.push(...fieldMutations(doc, field, base[name], `${prefix}${name}.`).map(([l, v]) => [l, { ...base, [name]: v }] as [string, unknown]));
      set('with a __proto__ key', JSON.parse(`{"__proto__":{"a":1}}`));
    }
  }
  return out;
}

/** Random JSON documents and byte strings: almost never a valid body, and judged before they count. */
export function randomBodies(doc: Doc, schema: unknown, sample: unknown, numRuns: number): Case[] {
  const base = sample !== null && typeof sample === 'object' ? (sample as Record<string, unknown>) : {};
  const names = Object.keys(deref(doc, schema)?.properties ?? {});
  const field = fc.constantFrom(...(names.length ? names : ['x']));
  const arbitrary = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: 'json' as const, value: v })),
    fc.tuple(field, fc.jsonValue({ maxDepth: 3 })).map(([name, v]) => ({ kind: 'json' as const, value: { ...base, [name]: v } })),
    fc.tuple(field, fc.string({ unit: 'binary', maxLength: 30 })).map(([name, v]) => ({ kind: 'json' as const, value: { ...base, [name]: v } })),
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'bytes' as const, value: Buffer.from(b) })),
    fc
      .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
      .map(([at, b]) => {
        const text = Buffer.from(JSON.stringify(sample));
        const i = at % (text.length + 1);
        return { kind: 'bytes' as const, value: Buffer.concat([text.subarray(0, i), Buffer.from(b), text.subarray(i + 1)]) };
      }),
  );
  return fc.sample(arbitrary, { seed: SEED, numRuns }).map((drawn, i): Case => {
    const body = drawn.kind === 'json' ? stringify(drawn.value) : drawn.value;
    let parsed: unknown;
    let parses = true;
    try {
      parsed = JSON.parse(Buffer.isBuffer(body) ? new TextDecoder('utf-8', { fatal: true }).decode(body) : body);
    } catch {
      parses = false;
    }
    const invalid = !parses || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || problemsOf(doc, schema, parsed).length > 0;
    return { label: `random body #${i}: ${(Buffer.isBuffer(body) ? body.toString('latin1') : body).slice(0, 60)}`, body, headers: JSON_TYPE, invalid };
  });
}

/** For the writes that take no body: what they must refuse (any body that asks for something, or is not JSON). */
export const NO_BODY_CASES: Case[] = [
  ...['[]', 'null', '"x"', '1', 'true', '{"a":1}', '{"__proto__":{"a":1}}', '{', '{"a":', '\u0000', '{}{}'].map((body) => ({ label: `body ${body}`, body, headers: JSON_TYPE, invalid: true })),
  { label: 'form body', body: 'scope=read', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, invalid: true },
  { label: 'text body', body: 'read', headers: { 'Content-Type': 'text/plain' }, invalid: true },
  { label: 'no Content-Type', body: '{"a":1}', headers: {}, invalid: true },
  { label: 'invalid UTF-8', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), headers: JSON_TYPE, invalid: true },
  { label: 'charset latin1', body: '{"a":1}', headers: { 'Content-Type': 'application/json; charset=latin1' }, invalid: true },
  { label: 'deeply nested', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, headers: JSON_TYPE, invalid: true },
  { label: 'gzip', body: gzipSync('{"a":1}'), headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, invalid: true },
];

// ---------------------------------------------------------------------------------------------
// Headers.

/** Fields that are not `*` nor an entity-tag list (RFC 9110 8.8.3): If-Match and If-None-Match refuse them. */
export const MALFORMED_ETAGS = ['', 'garbage', '42', '"', 'W/', '"abc', '"1"x', ',', ', ,', '*,*', '* , "1"', 'W/W/"1"', '"1" "2"', 'x'.repeat(8_000), '\u00e9'];
/** Well-formed entity-tags that name no version of a value: If-Match matches none of them (412). */
export const FOREIGN_ETAGS = ['""', '"-1"', '"99999999999999999999"', '"abc"', 'W/"x"', '"\u00e9"'];
/** Malformed Idempotency-Key values (1 to 255 visible ASCII is valid). */
export const BAD_IDEMPOTENCY_KEYS = ['', 'a b', 'x'.repeat(256), '\u00e9t\u00e9', 'a\tb', 'x'.repeat(8_000)];
/** Malformed X-Project-Id values (a UUID is valid). */
export const BAD_PROJECT_IDS = ['', 'not-a-uuid', '00000000-0000-4000-8000-00000000000g', 'x'.repeat(4_000), '\u00e9'];

// ---------------------------------------------------------------------------------------------
// Envelopes.

/** Why an API answer is not the spec's error envelope (empty when it is). */
export function envelopeProblems(doc: Doc, answer: Answer): string[] {
  if (!/^application\/json(;|$)/.test(answer.contentType)) return [`Content-Type ${answer.contentType || '(none)'}`];
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return ['body is not JSON'];
  }
  const problems = validate(doc, { $ref: '#/components/schemas/Error' }, body);
  if (body && typeof body === 'object' && Object.keys(body).some((k) => k !== 'detail')) problems.push(`fields beside detail: ${Object.keys(body)}`);
  if (answer.status === 422 && !Array.isArray(body?.detail)) problems.push('422 detail is not a list of issues');
  return problems;
}
