// The planner's statistics, kept fresh by the service itself. PGlite never runs autovacuum, and many
// Postgres setups (CI, some managed ones, this project's test machines) run without it: after a
// bulk change the planner would keep planning for the tables as they were. The live reads' plans
// stay linear without statistics (docs/decisions.md, "No cliff without statistics"), but fresh
// statistics still choose better plans (a hash join for a whole language), so this subscriber of
// committed domain events does what autovacuum's ANALYZE would:
// - after a bulk change the service made itself (an import, a group deleted or restored, a language
//   removed), ANALYZE of the content tables;
// - after any other content change, at most once per interval, a look at pg_stat_user_tables, and
//   ANALYZE of the tables changed by more than autovacuum's default threshold (50 rows + 10%), which
//   catches a project seeded through thousands of single calls;
// - on `sweep()` (the embedded database's periodic look, core/create-runtime.ts), the same look over
//   every table of the schema, plus the tables never analyzed that hold rows.
// Always after commit and off the request's path (never awaited by the write), throttled to one run
// per interval with one trailing run, so a burst of writes costs one ANALYZE. ANALYZE takes a lock
// that neither reads nor writes wait for.
import type { Sql } from './client.ts';
import type { Logger } from '../log.ts';
import type { EventSubscriber } from '../events/event-bus.ts';
import { changesContent, type EventType, type RecordedEvent } from '../events/domain-event.ts';

export type StatisticsRefresher = {
  subscriber: EventSubscriber;
  /** Looks at every table of the schema at the next run, not only the content tables: autovacuum's periodic pass. */
  sweep(): void;
  /** Waits for a run in progress and runs a pending one now (shutdown, tests). */
  flush(): Promise<void>;
  /** Stops the timer; later events are ignored. */
  close(): void;
};

// memory_sources is written by a trigger on translations (migration 014): without statistics the
// planner takes it for the empty table it was at migration and scans it whole for every suggestion
// (over 100,000 sources: a second instead of tens of milliseconds).
const CONTENT_TABLES = ['translation_keys', 'translations', 'project_languages', 'memory_sources'] as const;
const BULK_EVENTS: ReadonlySet<EventType> = new Set(['group.deleted', 'group.restored', 'language.removed']);
/** An import is bulk from this many rows written; a smaller one waits for the counters' verdict. */
const BULK_IMPORT_ROWS = 1_000;

/** A glossary file's import writes these: the editor's and the checks' term lookups plan on them. */
const GLOSSARY_TABLES = ['glossary_terms', 'glossary_term_translations'] as const;

const rowsWritten = (event: RecordedEvent, fields: readonly string[]) => {
  const after = (event.after ?? {}) as Record<string, unknown>;
  return fields.reduce((sum, field) => sum + (Number(after[field]) || 0), 0);
};

/** The tables a bulk change leaves to analyze at once, or null for a change that is not bulk. */
function bulkTables(event: RecordedEvent): readonly string[] | null {
  if (BULK_EVENTS.has(event.type)) return CONTENT_TABLES;
  if (event.type === 'translation.imported') return rowsWritten(event, ['keys_created', 'values_created', 'values_updated']) >= BULK_IMPORT_ROWS ? CONTENT_TABLES : null;
  if (event.type === 'glossary.imported') return rowsWritten(event, ['terms_created', 'terms_updated', 'translations_written']) >= BULK_IMPORT_ROWS ? GLOSSARY_TABLES : null;
  return null;
}

/**
 * The most of the database's time the refreshes may take: after an ANALYZE of d ms the next one
 * waits at least d / MAX_SHARE. PGlite has one backend, so while it analyzes nothing else runs: at
 * a fixed 5 s interval, a 30,000-value project under steady writes was analyzed every 5 s for about
 * 1.1 s each time, and writes waited behind it (p99 730-910 ms in the embedded write rows).
 */
const MAX_SHARE = 0.05;

/**
 * A run's work: the tables to analyze unconditionally (bulk), whether the content tables' counters
 * are looked at (check: not needed when bulk takes them all), and whether every table's are (sweep).
 */
type Run = { bulk: ReadonlySet<string>; check: boolean; sweep: boolean };

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor's defaults. */
const THRESHOLD_ROWS = 50;
const THRESHOLD_SCALE = 0.1;

export function createStatisticsRefresher(options: { sql: Sql; log: Logger; minIntervalMs: number }): StatisticsRefresher {
  const { sql, log, minIntervalMs } = options;
  let lastRunAt = -Infinity;
  /** How long the last run took: the next waits at least that / MAX_SHARE. */
  let lastCostMs = 0;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /**
   * What the next run must do: `bulk`, analyze the content tables whatever the counters say; `check`,
   * look at the content tables' counters; `sweep`, look at every table's.
   */
  let pending: Run | undefined;
  let closed = false;

  /**
   * The tables past autovacuum's threshold. A sweep also takes the never analyzed ones that hold
   * rows: PGlite keeps its change counters in memory only, so what a previous process wrote shows
   * there as nothing changed.
   */
  const tablesDue = async (sweep: boolean): Promise<string[]> => {
    const rows = await sql<{ relname: string; changed: number; tuples: number; never_analyzed: boolean }[]>`
      select s.relname, s.n_mod_since_analyze::float8 as changed, greatest(c.reltuples, 0)::float8 as tuples,
             c.reltuples < 0 and pg_relation_size(c.oid) > 0 as never_analyzed
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema() ${sweep ? sql`` : sql`and s.relname in ${sql(CONTENT_TABLES)}`}`;
    return rows
      .filter((r) => r.changed > THRESHOLD_ROWS + THRESHOLD_SCALE * r.tuples || (sweep && r.never_analyzed))
      .map((r) => r.relname);
  };

  const run = async (what: Run) => {
    lastRunAt = performance.now();
    try {
      const bulk = what.bulk.size > 0;
      const check = what.check && !CONTENT_TABLES.every((t) => what.bulk.has(t));
      const due = check || what.sweep ? await tablesDue(what.sweep) : [];
      const tables = [...new Set([...what.bulk, ...due])];
      if (tables.length === 0) return;
      const started = performance.now();
      await sql.unsafe(`analyze ${tables.map((t) => `"${t.replaceAll('"', '""')}"`).join(', ')}`);
      const reason = bulk ? 'bulk' : what.sweep ? 'sweep' : 'check';
      log.info('statistics refreshed', { tables, reason, ms: Math.round(performance.now() - started) });
    } catch (error) {
      log.warn('statistics refresh failed', { error: String(error) });
    } finally {
      lastCostMs = performance.now() - lastRunAt;
    }
  };

  const start = () => {
    timer = undefined;
    if (closed || !pending || running) return;
    const what = pending;
    pending = undefined;
    running = run(what).finally(() => {
      running = undefined;
      if (pending) schedule();
    });
  };

  const schedule = () => {
    if (closed || timer || running) return;
    const wait = lastRunAt + Math.max(minIntervalMs, lastCostMs / MAX_SHARE) - performance.now();
    if (wait <= 0) return start();
    timer = setTimeout(start, wait);
    timer.unref();
  };

  return {
    subscriber(events) {
      const bulk = new Set(pending?.bulk);
      let check = false;
      for (const event of events) {
        const tables = bulkTables(event);
        if (tables) for (const t of tables) bulk.add(t);
        else if (changesContent(event.type)) check = true;
      }
      if (!check && bulk.size === (pending?.bulk.size ?? 0)) return;
      pending = { bulk, check: check || !!pending?.check, sweep: !!pending?.sweep };
      schedule();
    },
    sweep() {
      if (closed) return;
      pending = { bulk: new Set(pending?.bulk), check: !!pending?.check, sweep: true };
      schedule();
    },
    async flush() {
      await running;
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (pending) start();
      await running;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
