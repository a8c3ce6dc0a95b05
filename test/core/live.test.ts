// The live reads' machinery: the memo's bounds, query plans that stay linear without statistics,
// and the service's own statistics refresh.
import { describe, expect, it } from 'vitest';
import type postgres from 'postgres';
import { createLiveMemo, type LiveBody } from '../../core/translations/live-memo.ts';
import { strongEtag } from '../../core/translations/live-read.ts';
import { readLanguage } from '../../core/translations/read-language.ts';
import { readGroup } from '../../core/translations/read-group.ts';
import { readKey } from '../../core/translations/read-key.ts';
import { readLiveManifest } from '../../core/manifest/read-manifest.ts';
import type { RecordedEvent } from '../../core/events/domain-event.ts';
import { bodyJson, useCore } from './support/core-harness.ts';
import { bulkLoadedProject, rowsTouched, type PlanNode } from './support/plans.ts';

const core = useCore();

const entry = (version: number, bytes: number): LiveBody => {
  const body = new Uint8Array(bytes);
  return { version: String(version), body, etag: strongEtag(body) };
};

describe('live memo', () => {
  it('keeps the most recently used bodies within its byte budget', () => {
    const memo = createLiveMemo({ maxBytes: 10_000 });
    memo.set('a', entry(1, 3_000));
    memo.set('b', entry(1, 3_000));
    memo.set('c', entry(1, 3_000));
    expect(memo.get('a')?.version).toBe('1'); // a is now the most recently used
    memo.set('d', entry(1, 3_000));
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBeDefined();
    expect(memo.get('c')).toBeDefined();
    expect(memo.get('d')).toBeDefined();
    expect(memo.size().entries).toBe(3);
    expect(memo.size().bytes).toBeLessThanOrEqual(10_000);
  });

  it('does not keep a body larger than the budget, and never replaces a later version by an earlier one', () => {
    const memo = createLiveMemo({ maxBytes: 10_000 });
    memo.set('big', entry(1, 20_000));
    expect(memo.get('big')).toBeUndefined();
    memo.set('k', entry(7, 10));
    memo.set('k', entry(6, 10));
    expect(memo.get('k')?.version).toBe('7');
    memo.set('k', entry(8, 10));
    expect(memo.get('k')?.version).toBe('8');
    expect(memo.size()).toEqual({ entries: 1, bytes: memo.size().bytes });
  });

  it('evicts exactly as a least-recently-used list would, over a long random run of reads and writes', () => {
    // The reference: an array in order of use, oldest first, evicted from the front by bytes.
    const budget = 20_000;
    const memo = createLiveMemo({ maxBytes: budget });
    let model: { key: string; version: number; bytes: number }[] = [];
    const costOf = (key: string, bytes: number) => bytes + key.length * 2 + 200;
    let seed = 42;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let step = 0; step < 5_000; step++) {
      const key = `project key de ${next(12)}`;
      if (next(3) === 0) {
        const version = next(10);
        const bytes = 500 + next(6_000);
        const old = model.find((m) => m.key === key);
        memo.set(key, entry(version, bytes));
        if (old && old.version > version) continue;
        model = model.filter((m) => m.key !== key);
        let used = model.reduce((sum, m) => sum + costOf(m.key, m.bytes), 0);
        while (model.length && used + costOf(key, bytes) > budget) used -= costOf(model[0]!.key, model.shift()!.bytes);
        model.push({ key, version, bytes });
      } else {
        const found = model.find((m) => m.key === key);
        expect(memo.get(key)?.version).toBe(found === undefined ? undefined : String(found.version));
        if (found) model = [...model.filter((m) => m !== found), found];
      }
      expect(memo.size()).toEqual({ entries: model.length, bytes: model.reduce((sum, m) => sum + costOf(m.key, m.bytes), 0) });
    }
  });

  it('gives a strong ETag of the bytes', () => {
    const a = new TextEncoder().encode('{"a":1}');
    expect(strongEtag(a)).toBe(strongEtag(new TextEncoder().encode('{"a":1}')));
    expect(strongEtag(a)).not.toBe(strongEtag(new TextEncoder().encode('{"a":2}')));
  });
});

describe('live read plans without statistics', () => {
  it('touch rows in proportion to the project, not its square, right after a bulk load', async () => {
    const { deps } = core;
    const KEYS = 2_000;
    const p = await bulkLoadedProject(core, KEYS);
    const [key] = await deps.sql<{ key: string; group_name: string }[]>`
      select key, group_name from translation_keys where project_id = ${p.projectId} order by key limit 1`;

    // The statements exactly as the use-cases send them, captured through postgres.js' debug hook.
    const options = deps.sql.options as unknown as { debug: unknown };
    const captured: { query: string; parameters: unknown[] }[] = [];
    options.debug = (_connection: number, query: string, parameters: unknown[]) => void captured.push({ query, parameters });
    const reads: [string, () => Promise<LiveBody>][] = [
      ['language', () => readLanguage(deps, { projectId: p.projectId, language: 'de' })],
      ['group', () => readGroup(deps, { projectId: p.projectId, language: 'de', group: 'g1' })],
      ['key', () => readKey(deps, { projectId: p.projectId, language: 'de', group: key!.group_name, key: key!.key })],
      ['manifest', () => readLiveManifest(deps, { projectId: p.projectId })],
    ];
    const statements: [string, { query: string; parameters: unknown[] }][] = [];
    try {
      for (const [name, run] of reads) {
        captured.length = 0;
        const live = await run();
        expect(bodyJson(live)).toBeTypeOf('object');
        expect(captured, name).toHaveLength(1);
        statements.push([name, captured[0]!]);
      }
    } finally {
      options.debug = false;
    }
    const values = KEYS * 3;
    for (const [name, { query, parameters }] of statements) {
      // A version of -1 never matches: the body part runs, as on a memo miss.
      const [row] = await deps.sql.unsafe(`explain (analyze, format json) ${query}`, parameters as postgres.ParameterOrJSON<never>[]);
      const plan = (row!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
      // Quadratic plans touch KEYS x KEYS rows (4,000,000 here); linear ones a few per value.
      expect(rowsTouched(plan), `${name}: ${JSON.stringify(plan).slice(0, 2_000)}`).toBeLessThan(10 * values);
    }
  });
});

describe('statistics refresh', () => {
  const event = (type: RecordedEvent['type'], projectId: string, after?: unknown): RecordedEvent =>
    ({ id: 0, type, projectId, actor: { type: 'system', id: 'test' }, entity: { type: 'group', id: 'x' }, after }) as RecordedEvent;

  const analyzedAt = async () => {
    const rows = await core.deps.sql<{ relname: string; at: string | null }[]>`
      select relname, greatest(last_analyze, last_autoanalyze)::text as at from pg_stat_user_tables
      where schemaname = current_schema() and relname in ('translation_keys', 'translations', 'project_languages', 'memory_sources')`;
    return Object.fromEntries(rows.map((r) => [r.relname, r.at]));
  };

  // Backends send their table counters at most once a second, and an idle one may hold them for up to
  // 10 s (PGlite until a later statement): the 2,000 keys of the test above could be counted after
  // this test's first ANALYZE and make "nothing changed since" false. Every pooled backend is told to
  // report now, so the counters this test reads are its own.
  const reportCounters = async () => {
    const { sql } = core.deps;
    const backends = await Promise.all(Array.from({ length: sql.options.max }, () => sql.reserve()));
    try {
      for (const backend of backends) {
        await backend`select pg_stat_force_next_flush()`;
        await backend`select 1`;
      }
    } finally {
      for (const backend of backends) backend.release();
    }
  };

  it('analyzes the content tables after a bulk change, and after enough single changes, not after a few', async () => {
    const { deps } = core;
    const p = await core.newProject('business');
    await reportCounters();
    await deps.statistics.flush();
    const before = await analyzedAt();

    // A bulk event: analyzed whatever the counters say.
    deps.statistics.subscriber([event('group.deleted', p.projectId)]);
    await deps.statistics.flush();
    const afterBulk = await analyzedAt();
    // memory_sources too: a trigger fills it from translations, and suggestions plan on its statistics.
    for (const table of ['translation_keys', 'translations', 'project_languages', 'memory_sources']) {
      expect(afterBulk[table], table).not.toBeNull();
      expect(afterBulk[table], table).not.toBe(before[table]);
    }

    // A small import is no bulk change; nothing changed since: nothing analyzed.
    deps.statistics.subscriber([event('translation.imported', p.projectId, { keys_created: 3, values_created: 3, values_updated: 0 })]);
    await deps.statistics.flush();
    expect(await analyzedAt()).toEqual(afterBulk);

    // Many single changes: once the counters show more than 50 rows + 10% changed, analyzed.
    await deps.sql`
      insert into translation_keys (project_id, key, group_name)
      select ${p.projectId}, 'many.k' || n, 'many' from generate_series(1, 500) as n`;
    // Backends report their counters when idle, within a second or so: wait for them.
    for (let i = 0; i < 200; i++) {
      const [row] = await deps.sql<{ n: number }[]>`
        select n_mod_since_analyze::int as n from pg_stat_user_tables where schemaname = current_schema() and relname = 'translation_keys'`;
      if (row!.n >= 500) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    deps.statistics.subscriber([event('key.created', p.projectId)]);
    await deps.statistics.flush();
    const afterMany = await analyzedAt();
    expect(afterMany.translation_keys).not.toBe(afterBulk.translation_keys);
    expect(afterMany.project_languages).toBe(afterBulk.project_languages);
  });

  it('analyzes the glossary tables after a large glossary import, and only them; not after a small one', async () => {
    const { deps } = core;
    const p = await core.newProject('business');
    const glossaryAnalyzed = async () => {
      const rows = await deps.sql<{ relname: string; at: string | null }[]>`
        select relname, greatest(last_analyze, last_autoanalyze)::text as at from pg_stat_user_tables
        where schemaname = current_schema() and relname in ('glossary_terms', 'glossary_term_translations')`;
      return Object.fromEntries(rows.map((r) => [r.relname, r.at]));
    };
    await reportCounters();
    await deps.statistics.flush();
    const content = await analyzedAt();
    const before = await glossaryAnalyzed();
    deps.statistics.subscriber([event('glossary.imported', p.projectId, { format: 'csv', terms_created: 20, terms_updated: 0, translations_written: 40 })]);
    await deps.statistics.flush();
    expect(await glossaryAnalyzed()).toEqual(before);
    deps.statistics.subscriber([event('glossary.imported', p.projectId, { format: 'csv', terms_created: 600, terms_updated: 0, translations_written: 1200 })]);
    await deps.statistics.flush();
    const after = await glossaryAnalyzed();
    for (const table of ['glossary_terms', 'glossary_term_translations']) {
      expect(after[table], table).not.toBeNull();
      expect(after[table], table).not.toBe(before[table]);
    }
    // Not a content change: the content tables are left to their counters.
    expect(await analyzedAt()).toEqual(content);
  });

  // The embedded database's periodic pass (core/create-runtime.ts): what autovacuum would analyze,
  // over every table, and nothing else. It used to ANALYZE everything, which on PGlite stops the
  // whole process (0.4-0.5 s for a 30,000-value project) at each start and every ten minutes.
  it('sweeps every table: the never analyzed ones holding rows and those changed past the threshold, nothing else', async () => {
    const { deps } = core;
    const { sql } = deps;
    const reltuples = async (table: string) => {
      const [row] = await sql<{ n: number }[]>`select reltuples::float8 as n from pg_class where oid = ${table}::regclass`;
      return row!.n;
    };
    // How many times each table was analyzed: the probe table's and the content tables'.
    const analyzeCounts = () => sql<{ relname: string; count: number }[]>`
      select relname, analyze_count::int as count from pg_stat_user_tables
      where schemaname = current_schema() and relname in ('sweep_probe', 'translation_keys', 'translations', 'project_languages', 'memory_sources')
      order by relname`;
    await sql`create table sweep_probe (id int)`;
    await sql`create table sweep_empty (id int)`;
    await sql`insert into sweep_probe select n from generate_series(1, 1000) as n`;
    await reportCounters();
    await deps.statistics.flush();
    expect(await reltuples('sweep_probe')).toBe(-1);

    // Never analyzed and holding rows: analyzed. Never analyzed and empty: left alone.
    deps.statistics.sweep();
    await deps.statistics.flush();
    expect(await reltuples('sweep_probe')).toBe(1000);
    expect(await reltuples('sweep_empty')).toBe(-1);

    // Nothing changed since: a second sweep analyzes none of them again.
    await reportCounters();
    const analyzedBefore = await analyzeCounts();
    deps.statistics.sweep();
    await deps.statistics.flush();
    const analyzedAfter = await analyzeCounts();
    expect(analyzedAfter).toEqual(analyzedBefore);

    // 200 rows more (past 50 + 10% of 1,000): the next sweep analyzes that table, and only that one.
    await sql`insert into sweep_probe select n from generate_series(1001, 1200) as n`;
    await reportCounters();
    for (let i = 0; i < 200; i++) {
      const [row] = await sql<{ n: number }[]>`
        select n_mod_since_analyze::int as n from pg_stat_user_tables where schemaname = current_schema() and relname = 'sweep_probe'`;
      if (row!.n >= 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    deps.statistics.sweep();
    await deps.statistics.flush();
    expect(await reltuples('sweep_probe')).toBe(1200);
    const analyzedLast = await analyzeCounts();
    expect(analyzedLast.filter((r) => r.relname !== 'sweep_probe')).toEqual(analyzedBefore.filter((r) => r.relname !== 'sweep_probe'));
    await sql`drop table sweep_probe, sweep_empty`;
  });
});
