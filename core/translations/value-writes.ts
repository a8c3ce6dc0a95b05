// Plain writes of values (PUT without If-Match), batched (core/db/statement-batches.ts): the writes
// of one project that arrive while its earlier ones are in flight are written together, in one
// statement and one commit.
//
// Why: a PUT is one statement, and on a 2-core machine Postgres's cost per statement and per commit
// (bind and execute of a generic plan, snapshot, WAL flush, the deferred content-version bump) is
// most of a write. Measured with pgbench on this project's schema (16 clients, 10,000 keys x 3
// values): the PUT statement alone 1,800-2,400 writes/s, the same work for 8 values per statement
// 8,400-9,900 values/s. A batch locks its rows in one order (key id, language), so batches never
// deadlock one another. docs/decisions.md, "Writes that arrive together, commit together".
import type { Sql } from '../db/client.ts';
import { lockTimeoutSetting, createStatementBatches, type StatementBatches } from '../db/statement-batches.ts';
import type { TranslationStatus } from './schemas.ts';
import type { QualityCheck } from '../quality/check-translation.ts';
import { keptSourceRevSql } from './outdated.ts';

export const MAX_IN_FLIGHT = 1;
export const MAX_BATCH = 64;

export type PlainWrite = {
  projectId: string;
  keyId: string;
  language: string;
  value: string;
  status: TranslationStatus;
  /** Written even when it is an approval and the project has blocking checks (the gate let it through). */
  gated: boolean;
  actorType: string;
  actorId: string | null;
};

/** What one write found and did: `value` null when nothing was written. */
export type WrittenRow = {
  key_found: boolean;
  language_found: boolean;
  project_id: string | null;
  value: string | null;
  status: TranslationStatus | null;
  event_id: string | null;
  before: { value: string; status: TranslationStatus } | null;
  version: string | null;
  previous_version: string | null;
  source_language: string | null;
  quality_blocking: QualityCheck[] | null;
  source_value: string | null;
  /** The key's character limit (null: none, or no live key), for the warnings and the approval gate. */
  max_length: number | null;
  /** The project has glossary terms: the source's terms are then read for the glossary check (put-translation.ts). */
  has_glossary: boolean | null;
  /** The project's glossary version (migration 043), for the process's glossary memo. */
  glossary_version: string | null;
  /** The project has forbidden terms: its forbidden words are then read for the forbidden_terms check. */
  has_forbidden: boolean | null;
};

export type ValueWrites = StatementBatches<PlainWrite, WrittenRow>;

export const createValueWrites = (sql: Sql, options: { maxInFlight?: number; maxBatch?: number } = {}): ValueWrites =>
  createStatementBatches(sql, {
    send: writeValues,
    project: (item) => item.projectId,
    // Ids are compared as Postgres does: a key id in capitals is the same row.
    identity: (item) => `${item.keyId.toLowerCase()}/${item.language}`,
    maxInFlight: options.maxInFlight ?? MAX_IN_FLIGHT,
    maxBatch: options.maxBatch ?? MAX_BATCH,
  });

/**
 * One statement for all `items` (distinct values): per item the guard (a live key of its project,
 * its language registered), the project's quality settings and the key's source value (for the
 * warnings and the approval gate), the value before, the upsert and its domain event. Rows come
 * back in the order of `items`. Keys and values are found by their primary keys alone (see
 * core/keys/by-id.ts), so the plan stays a few index probes per item without statistics.
 */
export async function writeValues(sql: Sql, items: PlainWrite[], lockTimeoutMs = 0): Promise<WrittenRow[]> {
  // Arrays go as text and are cast here: postgres.js types an array of booleans as one boolean, and
  // serializes the text of a bool[] parameter as false.
  // The arrays go through a materialized CTE (batch) so that no plan sees their length. Postgres
  // plans a named prepared statement for its parameters five times, then keeps the generic plan
  // only if it is estimated no dearer: unnest of a parameter is 10 rows on the generic plan and the
  // batch's length on a custom one, so batches under 10 made every execution plan again (seeding
  // through single calls: 1,040 plans in 1,573 executions, a third of the statement's time).
  // Pinned by test/core/write-plans.test.ts.
  // locked: the values before, locked in the order the upsert locks them (key id, language; the
  // nested loop takes the sorted items in turn). A plain read is of the statement's snapshot: a
  // write committed while the upsert waited for a row would be missing from History, its `before`
  // the text that write replaced. A locking read waits, then reads the row as that write left it.
  // src: the key's source value, one probe for the quality checks' text and for source_rev, the
  // source text each value is written against, as this statement sees it committed (a source still
  // being written is not the one the writer read): core/translations/outdated.ts.
  // No comments inside the SQL: pg_stat_activity shows only the first 1 KiB of a statement.
  const rows = await sql<(WrittenRow & { n: number })[]>`
    with batch as materialized (
      select ${items.map((i) => i.projectId)}::uuid[] as project_ids, ${items.map((i) => i.keyId)}::uuid[] as key_ids,
             ${items.map((i) => i.language)}::text[] as languages, ${items.map((i) => i.value)}::text[] as vals,
             ${items.map((i) => i.status)}::text[] as statuses, ${items.map((i) => String(i.gated))}::text[]::bool[] as gated,
             ${items.map((i) => i.actorType)}::text[] as actor_types, ${items.map((i) => i.actorId)}::text[] as actor_ids,
             ${items.map((i) => `${i.keyId}/${i.language}`)}::text[] as entity_ids
    ), input as (
      select i.* from (select set_config('lock_timeout', coalesce(${lockTimeoutSetting(lockTimeoutMs)}::text, current_setting('lock_timeout')), true) as lock_timeout) settings, batch b, unnest(
        b.project_ids, b.key_ids, b.languages, b.vals, b.statuses, b.gated, b.actor_types, b.actor_ids, b.entity_ids
      ) with ordinality as i (project_id, key_id, language, value, status, gated, actor_type, actor_id, entity_id, n)
      where settings.lock_timeout is not null
    ), locked as materialized (
      select t.key_id, t.language, t.project_id, t.value, t.status, t.version
      from (select key_id, language from input order by key_id, language) i
      cross join lateral (select * from translations where key_id = i.key_id and language = i.language offset 0 for no key update) t
    ), checked as (
      select i.*, p.source_language, p.quality_blocking, k.id as live_key, k.max_length, pl.code as registered,
             prev.value as before_value, prev.status as before_status, prev.version as previous_version,
             src.value as source_value, coalesce(src.text_rev, 0) as source_rev,
             exists (select 1 from glossary_terms g where g.project_id = i.project_id) as has_glossary,
             coalesce((select gv.version from project_glossary_versions gv where gv.project_id = i.project_id), 0)::text as glossary_version,
             exists (select 1 from glossary_terms g where g.project_id = i.project_id and g.forbidden) as has_forbidden
      from input i
      left join projects p on p.id = i.project_id
      left join lateral (select * from translations where key_id = i.key_id and language = p.source_language offset 0) src on src.project_id = i.project_id
      left join lateral (select * from translation_keys where id = i.key_id offset 0) k on k.project_id = i.project_id and k.deleted_at is null
      left join project_languages pl on pl.project_id = i.project_id and pl.code = i.language
      left join locked prev on prev.key_id = i.key_id and prev.language = i.language and prev.project_id = i.project_id
    ), written as (
      insert into translations (key_id, project_id, language, value, status, source_rev)
      select c.live_key, c.project_id, c.registered, c.value, c.status, c.source_rev
      from checked c
      where c.live_key is not null and c.registered is not null
        and (c.gated or c.status <> 'approved' or cardinality(c.quality_blocking) = 0)
      order by c.live_key, c.registered
      on conflict (key_id, language) do update
        set value = excluded.value, status = excluded.status, updated_at = now(),
            source_rev = ${keptSourceRevSql(sql, 'translations', sql`excluded.value`, sql`excluded.source_rev`)}
      returning key_id, language, project_id, value, status, version
    ), event as (
      insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, before, after)
      select 'translation.written', w.project_id, c.actor_type, c.actor_id, 'translation', c.entity_id,
             case when c.before_value is null then null else jsonb_build_object('value', c.before_value, 'status', c.before_status) end,
             jsonb_build_object('value', w.value, 'status', w.status)
      from written w join checked c on c.key_id = w.key_id and c.language = w.language
      where c.before_value is distinct from w.value or c.before_status is distinct from w.status
      order by c.n
      returning id, entity_id
    )
    select c.n::int as n, c.live_key is not null as key_found, c.registered is not null as language_found,
           w.project_id, w.value, w.status, e.id::text as event_id,
           case when c.before_value is null then null else jsonb_build_object('value', c.before_value, 'status', c.before_status) end as before,
           w.version::text as version, c.previous_version::text as previous_version,
           c.source_language, c.quality_blocking, c.source_value, c.max_length, c.has_glossary, c.glossary_version, c.has_forbidden
    from checked c
    left join written w on w.key_id = c.key_id and w.language = c.language
    left join event e on e.entity_id = c.entity_id
    order by c.n`;
  return rows;
}
