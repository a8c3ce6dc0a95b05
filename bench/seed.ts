// Test data. The standard project (10,000 keys in 50 groups, three languages) is written through
// the public API, the way a CLI sync would; the large one (100,000 keys x 10 languages) is written
// straight into Postgres with set-based INSERTs, because a million API calls would take longer
// than everything else together and measure nothing the standard seed does not.
import type { Sql } from '../core/db/client.ts';
import type { CpuPerResponse } from './cpu.ts';
import { createHttpClient, createJsonPool, forEachLimit, type HttpClient } from './http.ts';

export const STANDARD_LANGUAGES = ['en', 'de', 'fr'] as const;
export const LARGE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'ja'] as const;

export type ProjectShape = { keys: number; groups: number; languages: readonly string[] };
export const STANDARD_SHAPE: ProjectShape = { keys: 10_000, groups: 50, languages: STANDARD_LANGUAGES };
/** Same group size as the standard project (200 keys), ten times the groups. */
export const LARGE_SHAPE: ProjectShape = { keys: 100_000, groups: 500, languages: LARGE_LANGUAGES };

const SEED_CONCURRENCY = 16;
/** Far above any day of benchmarking, so the daily quota never answers 429 here. */
const DAILY_CALL_LIMIT = 2_000_000_000;
/** The most the admin API takes, for the same reason (see createBenchProject). */
const TRANSLATION_UNIT_ALLOWANCE = 1_000_000_000;

// Short UI words: values read like real strings (3 to 6 words, ~35 characters on average).
export const SEED_WORDS = [
  'account', 'settings', 'save', 'cancel', 'welcome', 'back', 'your', 'profile', 'notifications', 'message',
  'delete', 'confirm', 'payment', 'order', 'search', 'results', 'empty', 'loading', 'error', 'retry',
  'sign', 'in', 'out', 'password', 'email', 'address', 'continue', 'shipping', 'total', 'items',
  'share', 'invite', 'friends', 'language', 'privacy', 'terms', 'help', 'contact', 'update', 'available',
];

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** g00..g49 for 50 groups, g000..g499 for 500. */
const groupWidth = (shape: ProjectShape) => Math.max(2, String(shape.groups - 1).length);
/** key00000..key09999 for 10,000 keys, key000000..key099999 for 100,000. */
const keyWidth = (shape: ProjectShape) => String(shape.keys).length;

export function groupName(shape: ProjectShape, index: number): string {
  return `g${pad(Math.floor(index / (shape.keys / shape.groups)), groupWidth(shape))}`;
}

export function keyName(shape: ProjectShape, index: number): string {
  return `${groupName(shape, index)}.key${pad(index, keyWidth(shape))}`;
}

export function valueFor(index: number, languageIndex: number, language: string): string {
  const words: string[] = [];
  for (let w = 0; w < 3 + (index % 4); w++) words.push(SEED_WORDS[(index * 7 + w * 13 + languageIndex * 5) % SEED_WORDS.length]!);
  return `[${language}] ${words.join(' ')} #${index}`;
}

/** A tenth of the values are draft or review, so that status filters have something to filter. */
export function statusFor(index: number, languageIndex: number): 'approved' | 'draft' | 'review' {
  if ((index + 3 * languageIndex) % 10 !== 9) return 'approved';
  return index % 2 === 1 ? 'review' : 'draft';
}

/** Keys whose value is approved in every language: the targets of single-key and write scenarios. */
export function isApprovedEverywhere(shape: ProjectShape, index: number): boolean {
  return shape.languages.every((_, l) => statusFor(index, l) === 'approved');
}

export type BenchProject = {
  accountId: string;
  projectId: string;
  apiKey: string;
  shape: ProjectShape;
  /** Key ids by key index (standard project only: the large one is not read key by key). */
  keyIds: string[];
};

export type SeedReport = {
  keys: number;
  groups: number;
  languages: number;
  translations: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** ANALYZE after the seed, when run (bench/analyze.ts). */
  analyzeMs?: number;
  /** CPU per request of each party over the seed (bench/cpu.ts), when measured. */
  cpu?: CpuPerResponse | null;
  /** The machine's idle share over the seed: near 0, the cores bound it; above, waits did. */
  idleShare?: number | null;
};

type Created = { id: string };
type CreatedProject = { id: string; api_key: { key: string } };

/** An account on the team plan with its daily limit lifted, and a project with its API key. */
export async function createBenchProject(
  admin: HttpClient,
  adminToken: string,
  name: string,
  accountId?: string,
): Promise<{ accountId: string; projectId: string; apiKey: string }> {
  const headers = { Authorization: `Bearer ${adminToken}` };
  if (!accountId) {
    ({ id: accountId } = await admin.json<Created>('POST', '/admin/v1/accounts', 201, { headers, json: { name: 'tms bench', plan: 'team' } }));
    // The monthly translation units too: a full run imports some 210,000 values into this
    // account's projects, past the team plan's 2 x 100,000 (the 10 MiB import's row failed with
    // a 402 in the runs of 2026-12-03). The bench times the work, not the quota.
    await admin.json('PATCH', `/admin/v1/accounts/${accountId}`, 200, { headers, json: { daily_call_limit: DAILY_CALL_LIMIT, translation_unit_allowance: TRANSLATION_UNIT_ALLOWANCE } });
  }
  const project = await admin.json<CreatedProject>('POST', `/admin/v1/accounts/${accountId}/projects`, 201, { headers, json: { name } });
  return { accountId, projectId: project.id, apiKey: project.api_key.key };
}

/** The standard project, through the public API with bounded concurrency. */
export async function seedThroughApi(
  baseUrl: string,
  adminToken: string,
  shape: ProjectShape,
  onProgress?: (done: number) => void,
): Promise<{ project: BenchProject; report: SeedReport }> {
  const admin = createHttpClient(baseUrl, 1);
  const http = createJsonPool(baseUrl, SEED_CONCURRENCY);
  try {
    const started = performance.now();
    const created = await createBenchProject(admin, adminToken, 'bench standard');
    const headers = { 'X-API-Key': created.apiKey };
    let requests = 0;
    for (const code of shape.languages) {
      await http.json('POST', '/v1/languages', 201, { headers, json: { code } });
      requests++;
    }
    const keyIds: string[] = new Array(shape.keys);
    const indexes = Array.from({ length: shape.keys }, (_, i) => i);
    await forEachLimit(indexes, SEED_CONCURRENCY, async (i) => {
      const { id } = await http.json<Created>('POST', '/v1/keys', 201, {
        headers,
        json: { key: keyName(shape, i), group_name: groupName(shape, i) },
      });
      keyIds[i] = id;
      for (const [l, language] of shape.languages.entries()) {
        await http.json('PUT', `/v1/keys/${id}/translations/${language}`, 200, {
          headers,
          json: { value: valueFor(i, l, language), status: statusFor(i, l) },
        });
      }
      requests += 1 + shape.languages.length;
      if (onProgress && (i + 1) % 1000 === 0) onProgress(i + 1);
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      project: { ...created, shape, keyIds },
      report: {
        keys: shape.keys,
        groups: shape.groups,
        languages: shape.languages.length,
        translations: shape.keys * shape.languages.length,
        requests,
        seconds: round(seconds, 1),
        requestsPerSecond: Math.round(requests / seconds),
      },
    };
  } finally {
    admin.close();
    http.close();
  }
}

const DIRECT_BATCH_KEYS = 10_000;

/**
 * The large project: account and project through the admin API, languages through /v1, keys and
 * values with one INSERT ... SELECT per batch of 10,000 keys (the keys and their values for every
 * language in one statement). Values and statuses follow the same rules as the API seed.
 */
export async function seedDirect(
  sql: Sql,
  baseUrl: string,
  adminToken: string,
  accountId: string,
  shape: ProjectShape,
): Promise<{ project: BenchProject; report: SeedReport }> {
  const http = createHttpClient(baseUrl, 4);
  try {
    const started = performance.now();
    const created = await createBenchProject(http, adminToken, 'bench large', accountId);
    for (const code of shape.languages) {
      await http.json('POST', '/v1/languages', 201, { headers: { 'X-API-Key': created.apiKey }, json: { code } });
    }
    const perGroup = shape.keys / shape.groups;
    for (let from = 0; from < shape.keys; from += DIRECT_BATCH_KEYS) {
      const to = Math.min(shape.keys, from + DIRECT_BATCH_KEYS);
      await sql`
        with numbers as (
          select i, 'g' || lpad((i / ${perGroup}::int)::text, ${groupWidth(shape)}::int, '0') as group_name
          from generate_series(${from}::int, ${to - 1}::int) as i
        ), created as (
          insert into translation_keys (project_id, key, group_name)
          select ${created.projectId}::uuid, group_name || '.key' || lpad(i::text, ${keyWidth(shape)}::int, '0'), group_name
          from numbers
          returning id, key
        )
        insert into translations (key_id, project_id, language, value, status)
        select c.id, ${created.projectId}::uuid, l.code,
          '[' || l.code || '] ' || array_to_string(array(
            select (${SEED_WORDS}::text[])[1 + (n.i * 7 + w * 13 + (l.ord - 1)::int * 5) % ${SEED_WORDS.length}::int]
            from generate_series(0, 2 + n.i % 4) as w), ' ') || ' #' || n.i,
          case when (n.i + 3 * (l.ord - 1)::int) % 10 <> 9 then 'approved'
               when n.i % 2 = 1 then 'review' else 'draft' end
        from created c
        cross join lateral (select right(c.key, ${keyWidth(shape)}::int)::int as i) n
        cross join unnest(${[...shape.languages]}::text[]) with ordinality as l(code, ord)`;
    }
    await sql`analyze translation_keys`;
    await sql`analyze translations`;
    const seconds = (performance.now() - started) / 1000;
    const translations = shape.keys * shape.languages.length;
    return {
      project: { ...created, shape, keyIds: [] },
      report: {
        keys: shape.keys,
        groups: shape.groups,
        languages: shape.languages.length,
        translations,
        requests: 0,
        seconds: round(seconds, 1),
        requestsPerSecond: 0,
      },
    };
  } finally {
    http.close();
  }
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
