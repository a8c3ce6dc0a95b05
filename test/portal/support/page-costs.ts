// What a portal page costs at a project's size: seed a project of a given size straight into the
// database (set-based SQL, as bench/seed.ts does), sign in an owner, count the SQL statements one page
// render sends (postgres.js's `debug` hook, read from the shared options object at each execution)
// and the rows they read (EXPLAIN ANALYZE of each, as sent).
import { randomBytes } from 'node:crypto';
import type { TestApp, TestProject } from '../../support/test-app.ts';
import { signedInMember } from './signed-in-member.ts';
import type { PortalClient } from './portal-client.ts';

export type Shape = { keys: number; groups: number; languages: number; events?: number; members?: number; apiKeys?: number; trashed?: number; valuesPerKey?: number };
export const LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'ja', 'ko', 'zh', 'ru', 'tr', 'cs', 'da', 'fi', 'nb', 'hu', 'ro'];

export type Seeded = { project: TestProject; owner: PortalClient; keyIds: string[]; base: string; languages: string[] };

export async function seed(t: TestApp, shape: Shape): Promise<Seeded> {
  const sql = t.runtime.deps.sql;
  const project = await t.newProject('team');
  const pid = project.projectId;
  const languages = LANGS.slice(0, shape.languages);
  await sql`insert into project_languages (project_id, code) select ${pid}::uuid, unnest(${languages}::text[])`;
  const perGroup = Math.max(1, Math.ceil(shape.keys / shape.groups));
  const statuses = ['approved', 'approved', 'draft', 'review'];
  const rows = await sql<{ id: string }[]>`
    insert into translation_keys (project_id, key, group_name)
    select ${pid}::uuid, 'g' || lpad((i / ${perGroup}::int)::text, 3, '0') || '.key' || lpad(i::text, 6, '0'), 'g' || lpad((i / ${perGroup}::int)::text, 3, '0')
    from generate_series(0, ${shape.keys - 1}::int) i
    returning id`;
  const keyIds = rows.map((r) => r.id);
  const perKey = shape.valuesPerKey ?? languages.length;
  if (perKey > 0) {
    await sql`
      insert into translations (key_id, project_id, language, value, status)
      select k.id, ${pid}::uuid, l.code, '[' || l.code || '] text of ' || k.key, (${statuses}::text[])[1 + (abs(hashtext(k.key || l.code)) % 4)]
      from translation_keys k cross join unnest(${languages.slice(0, perKey)}::text[]) l(code)
      where k.project_id = ${pid}`;
  }
  if (shape.trashed) {
    await sql`update translation_keys set deleted_at = now() - (random() * interval '10 days')
      where id in (select id from translation_keys where project_id = ${pid} order by key desc limit ${shape.trashed})`;
  }
  if (shape.events) {
    await sql`
      insert into domain_events (type, project_id, account_id, actor_type, actor_id, entity_type, entity_id, before, after)
      select 'translation.written', ${pid}::uuid, ${project.accountId}::uuid, 'api_key', ${project.apiKeyId}, 'translation',
        (${keyIds}::uuid[])[1 + (i % ${keyIds.length}::int)]::text || '/de', null, jsonb_build_object('value', 'v' || i, 'status', 'draft')
      from generate_series(1, ${shape.events}::int) i`;
  }
  if (shape.apiKeys) {
    await sql`insert into api_keys (project_id, key_hash, name, last_four, kind)
      select ${pid}::uuid, md5(random()::text) || i, 'key ' || i, 'abcd', 'live' from generate_series(1, ${shape.apiKeys}::int) i`;
  }
  if (shape.members) {
    const tag = randomBytes(4).toString('hex');
    await sql`
      with u as (insert into users (email, password_hash) select 'm' || i || '-' || ${tag} || '@example.com', 'x' from generate_series(1, ${shape.members}::int) i returning id)
      insert into memberships (user_id, account_id, role) select id, ${project.accountId}::uuid, 'translator' from u`;
  }
  const owner = await signedInMember(t, project.accountId, 'owner');
  return { project, owner, keyIds, base: `/portal/projects/${pid}`, languages };
}

/** The statements the database client sends while `work` runs (everything else on this client must be idle). */
export async function counted<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; statements: string[]; sent: Sent[] }> {
  const options = (t.runtime.deps.sql as unknown as { options: { debug?: unknown } }).options;
  const statements: string[] = [];
  const sent: Sent[] = [];
  const before = options.debug;
  options.debug = (_connection: number, query: string, parameters: unknown[]) => {
    const text = query.replace(/\s+/g, ' ').trim();
    // Background work of the process (webhook dispatcher, statistics refresher, builder) is not the page's.
    if (BACKGROUND.test(text) || DRIVER_CATALOG.test(text)) return;
    statements.push(text);
    sent.push({ query, parameters: [...parameters] });
  };
  try {
    const result = await work();
    return { result, statements, sent };
  } finally {
    options.debug = before;
  }
}

export type Sent = { query: string; parameters: unknown[] };
// The rebuild worker's poll (core/adapters/rebuild-queue-postgres.ts: its claim and its next due time)
// runs every 2 s: a page that took long under load met it and counted one statement too many. The
// statistics refresher (core/db/refresh-statistics.ts) asks pg_stat_user_tables which tables are due
// soon after writes: on PostgreSQL a CI run counted it in the editor's page once. The auto-rebuilder
// (core/cache/auto-rebuild.ts) asks whether the project rebuilds on its own a debounce after a
// content write: an embedded CI run counted it in the editor's page once, the test's PUT having come
// just before the page measured first and the debounce then ending during the second.
const BACKGROUND = /webhook_deliveries|webhook_outbox|^analyze|lease_owner = \$|min\(greatest\( wanted|from pg_stat_user_tables\b|^select auto_rebuild as on from projects\b/i;
// postgres.js reads the array types from pg_catalog once per new connection: the driver's, not the
// page's, sent only when the page's parallel reads happened to open a connection (the Languages tab's
// 8-language count was one statement "too many" in a CI run on PostgreSQL for it).
const DRIVER_CATALOG = /\bfrom pg_catalog\.pg_type\b/;

/**
 * The rows the page's SELECT statements read from tables, by EXPLAIN ANALYZE of each statement as it
 * was sent (same parameters): the sum over scan nodes of actual rows x loops. A page that shows a
 * slice reads about the slice; one that reads every key or value grows with the project.
 */
export async function rowsRead(t: TestApp, sent: Sent[]): Promise<{ total: number; byStatement: { query: string; rows: number }[] }> {
  const sql = t.runtime.deps.sql;
  const byStatement: { query: string; rows: number }[] = [];
  for (const s of sent) {
    if (!/^\s*(select|with)\b/i.test(s.query)) continue;
    // postgres.js reads the array types from pg_catalog once per new connection (1,300 rows): the
    // driver's, not the page's, and counted only when the page's parallel reads opened one.
    if (/\bfrom pg_catalog\.pg_type\b/.test(s.query)) continue;
    const [row] = await sql.unsafe(`explain (analyze, format json) ${s.query}`, s.parameters as never[]);
    const plan = (Object.values(row as object)[0] as { Plan: PlanNode }[])[0]!.Plan;
    byStatement.push({ query: s.query.replace(/\s+/g, ' ').trim().slice(0, 160), rows: scanned(plan) });
  }
  return { total: byStatement.reduce((n, s) => n + s.rows, 0), byStatement };
}
type PlanNode = { 'Node Type': string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
function scanned(node: PlanNode): number {
  const own = /Scan$/.test(node['Node Type']) && !/^(Subquery|CTE|Function|Values|Result|WorkTable|Bitmap Index) Scan$/.test(node['Node Type'])
    ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
    : 0;
  return own + (node.Plans ?? []).reduce((n, p) => n + scanned(p), 0);
}

export type Measured = { path: string; status: number; statements: number; bytes: number; ms: number; sqls: string[]; sent: Sent[]; html: string };

/** One page as the owner opens it: status, statements, HTML bytes, time (the median of `runs` after one warm-up). */
export async function measure(t: TestApp, client: PortalClient, path: string, runs = 1): Promise<Measured> {
  await client.get(path);
  return measureNow(t, client, path, runs);
}

/** The same without the warm-up request. */
export async function measureNow(t: TestApp, client: PortalClient, path: string, runs = 1): Promise<Measured> {
  const times: number[] = [];
  let last: { result: Awaited<ReturnType<PortalClient['get']>>; statements: string[]; sent: Sent[] } | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await counted(t, () => client.get(path));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { path, status: last!.result.status, statements: last!.statements.length, bytes: Buffer.byteLength(last!.result.text), ms: Math.round(times[Math.floor(times.length / 2)]!), sqls: last!.statements, sent: last!.sent, html: last!.result.text };
}
