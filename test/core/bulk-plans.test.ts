// Bulk statements take their rows as arrays, and postgres.js names every statement: from the sixth
// run on a connection Postgres may keep a statement's generic plan, on which an array has no length
// (unnest of it counts as 10 rows). The import of 10,000 new keys' translations was then a nested
// loop comparing every entry with every key of the project: 8-12 s instead of 0.3-0.5 s, at the
// sixth import of a connection (measured on PostgreSQL 15, 2026-12-07; docs/decisions.md, "An
// import's statements stay linear on their generic plans"). Each statement of a bulk use-case is
// replayed here on its generic plan, in order and rolled back, and held to rows in proportion to the
// rows it was given, as test/core/write-plans.test.ts holds the single-key writes to a few rows.
import { describe, expect, it } from 'vitest';
import { importFile } from '../../core/files/import-file.ts';
import { bulkSetStatus } from '../../core/keys/bulk-set-status.ts';
import { bulkTagKeys } from '../../core/keys/bulk-tag-keys.ts';
import { translateMissing } from '../../core/translate/translate-missing.ts';
import { importGlossary } from '../../core/glossary/import-glossary.ts';
import type { Tx } from '../../core/db/transaction.ts';
import type { Deps } from '../../core/deps.ts';
import type { TransactionSql } from '../../core/db/client.ts';
import { useCore } from './support/core-harness.ts';
import { bulkLoadedProject, rowsTouched, scans, type PlanNode } from './support/plans.ts';

const core = useCore();

const literal = (value: unknown): string =>
  value === null || value === undefined
    ? 'null'
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : Array.isArray(value)
        ? `'{${value.map((v) => (v === null || v === undefined ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll("'", "''")}"`)).join(',')}}'`
        : `'${String(value).replaceAll("'", "''")}'`;

class RolledBack extends Error {}

/** Runs `work` in a transaction that is then rolled back. */
async function rolledBack(work: (sql: TransactionSql) => Promise<void>): Promise<void> {
  await core.deps.sql
    .begin(async (sql) => {
      await work(sql);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}

type Touched = { statement: string; rows: number; read: string[] };

/**
 * The statements a use-case sends, from a run inside a transaction rolled back after it, replayed
 * in order on their generic plans in another rolled-back transaction (so both start from the same
 * rows): the rows each statement with parameters touched. A use-case that asks outside its
 * transaction too (the embedded pool has one connection) runs committed instead, and `undo` puts
 * its rows back as they were at the start of the replay.
 */
async function onGenericPlans(run: (deps: Deps) => Promise<unknown>, undo?: (sql: TransactionSql) => Promise<unknown>): Promise<Touched[]> {
  const { deps } = core;
  const options = deps.sql.options as unknown as { debug: unknown };
  const captured: { query: string; parameters: unknown[] }[] = [];
  const capture = async (d: Deps) => {
    options.debug = (_connection: number, query: string, parameters: unknown[]) => void captured.push({ query, parameters });
    try {
      await run(d);
    } finally {
      options.debug = false;
    }
  };
  if (undo) await capture(deps);
  else await rolledBack((sql) => capture({ ...deps, tx: { sql, record: () => {}, inserted: () => {}, flush: async () => {} } satisfies Tx }));
  const touched: Touched[] = [];
  await rolledBack(async (tx) => {
    if (undo) await undo(tx);
    await tx.unsafe('set local plan_cache_mode = force_generic_plan');
    for (const [i, { query, parameters }] of captured.entries()) {
      if (!/\$1\b/.test(query)) {
        if (!/^\s*(begin|commit|rollback)/i.test(query)) await tx.unsafe(query);
        continue;
      }
      await tx.unsafe(`prepare judged as ${query}`);
      try {
        const [row] = await tx.unsafe(`explain (analyze, format json) execute judged(${parameters.map(literal).join(', ')})`);
        const plan = (row!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
        touched.push({ statement: `#${i + 1}: ${query.replace(/\s+/g, ' ').trim().slice(0, 160)}`, rows: rowsTouched(plan), read: scans(plan) });
      } finally {
        await tx.unsafe('deallocate judged');
      }
    }
  });
  if (process.env.SHOW_PLANS) for (const t of touched) console.log(t.rows, t.statement);
  return touched;
}

const KEYS = 2_000;

// Without statistics (a project just loaded, autovacuum off or PGlite), and with them (the
// service's own ANALYZE after a bulk change, core/db/refresh-statistics.ts).
const PLANNER_PICTURES = [
  ['without statistics', false],
  ['after ANALYZE', true],
] as const;

async function loaded(analyzed: boolean) {
  const p = await bulkLoadedProject(core, KEYS);
  if (analyzed) await core.deps.sql`analyze translation_keys, translations, project_languages`;
  return p;
}

describe('bulk statements on their generic plans', () => {
  it.each(PLANNER_PICTURES)('an import touches rows in proportion to its file, not to the file times the project (%s)', async (_, analyzed) => {
    const p = await loaded(analyzed);
    // Half the file names keys the project has (their French value changes, and each gets the
    // tag: the key update), half names new keys (the key insert).
    const ENTRIES = 2_000;
    const file: Record<string, string> = {};
    for (let n = KEYS - ENTRIES / 2 + 1; n <= KEYS; n++) file[`g${n % 10}.k${n}`] = `neu ${n}`;
    for (let n = 1; n <= ENTRIES / 2; n++) file[`fresh.k${n}`] = `frisch ${n}`;
    const body = new TextEncoder().encode(JSON.stringify(file));
    // (The replayed key insert gives its keys new ids, so the replayed upsert finds the 1,000
    // existing keys' values only: its plan is the same, over all 2,000 entries.)
    const touched = await onGenericPlans(async (deps) => {
      const result = await importFile(deps, { projectId: p.projectId, actor: p.actor, language: 'fr', format: 'json', status: 'approved', conflict: 'overwrite', dryRun: false, group: 'default', tag: 'imported', body });
      expect(result).toMatchObject({ keys_created: ENTRIES / 2, values_created: ENTRIES / 2, values_updated: ENTRIES / 2, keys_tagged: ENTRIES / 2 });
    });
    // The read, the sources' read, the key insert, the key update, the values' lock and the upsert.
    expect(touched.length).toBeGreaterThanOrEqual(6);
    // A linear plan reads each entry, its key and its value a few times (the largest, the read,
    // about 7 rows an entry); the nested loop of 2026-12-07 compared 2,000 entries with 3,000 keys
    // (12 million rows).
    for (const t of touched) expect(t.rows, `${t.statement}\n${t.read.join('\n')}`).toBeLessThan(30 * ENTRIES);
  });

  it.each(PLANNER_PICTURES)('a bulk status change touches rows in proportion to its values (%s)', async (_, analyzed) => {
    const p = await loaded(analyzed);
    const keyIds = (await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} order by key desc limit 1000`).map((r) => r.id);
    const touched = await onGenericPlans(async (deps) => {
      const result = await bulkSetStatus(deps, { projectId: p.projectId, actor: p.actor, key_ids: keyIds, languages: ['de', 'en', 'fr'], status: 'review' });
      expect(result.changed).toBe(3_000);
    });
    expect(touched.length).toBeGreaterThanOrEqual(2);
    for (const t of touched) expect(t.rows, `${t.statement}\n${t.read.join('\n')}`).toBeLessThan(30 * 3_000);
  });

  it.each(PLANNER_PICTURES)('a bulk tagging touches rows in proportion to its keys (%s)', async (_, analyzed) => {
    const p = await loaded(analyzed);
    const keyIds = (await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} order by key desc limit 1000`).map((r) => r.id);
    const touched = await onGenericPlans(async (deps) => {
      const result = await bulkTagKeys(deps, { projectId: p.projectId, actor: p.actor, key_ids: keyIds, add: ['checked'], remove: [] });
      expect(result.changed).toBe(1_000);
    });
    expect(touched.length).toBeGreaterThanOrEqual(2);
    for (const t of touched) expect(t.rows, `${t.statement}\n${t.read.join('\n')}`).toBeLessThan(30 * 1_000);
  });

  it.each(PLANNER_PICTURES)('translate missing touches rows in proportion to the values it writes (%s)', async (_, analyzed) => {
    const p = await loaded(analyzed);
    // 500 French values gone (the most one call writes); translation memory has each one's German
    // source text ('v', the source language's) translated, so they fill from memory, no provider.
    await core.deps.sql`
      delete from translations where language = 'fr' and key_id in (
        select id from translation_keys where project_id = ${p.projectId} order by key desc limit 500)`;
    if (analyzed) await core.deps.sql`analyze translation_keys, translations, memory_sources`;
    // It asks outside its transaction as well: run for real, its 500 values taken back for the replay.
    const touched = await onGenericPlans(
      async (deps) => {
        const result = await translateMissing(deps, { projectId: p.projectId, actor: p.actor, language: 'fr' });
        expect(result).toMatchObject({ translated: 500, from_memory: 500 });
      },
      (sql) => sql`
        delete from translations where language = 'fr' and key_id in (
          select id from translation_keys where project_id = ${p.projectId} order by key desc limit 500)`,
    );
    expect(touched.length).toBeGreaterThanOrEqual(2);
    for (const t of touched) expect(t.rows, `${t.statement}\n${t.read.join('\n')}`).toBeLessThan(30 * 500 + 3 * KEYS);
  });

  it.each(PLANNER_PICTURES)('a glossary re-import touches rows in proportion to its terms (%s)', async (_, analyzed) => {
    const p = await loaded(analyzed);
    const TERMS = 2_000;
    const csv = (description: string) =>
      new TextEncoder().encode(['term,description,de,fr', ...Array.from({ length: TERMS }, (_, i) => `Term ${i},${description} ${i},Begriff ${i},Terme ${i}`)].join('\r\n'));
    const base = { projectId: p.projectId, actor: p.actor, format: 'csv', dryRun: false } as const;
    expect(await importGlossary(core.deps, { ...base, body: csv('first') })).toMatchObject({ terms_created: TERMS });
    if (analyzed) await core.deps.sql`analyze glossary_terms, glossary_term_translations`;
    // Every term's description changes: the update of 2,000 terms by id.
    const touched = await onGenericPlans(async (deps) => {
      expect(await importGlossary(deps, { ...base, body: csv('second') })).toMatchObject({ terms_updated: TERMS });
    });
    expect(touched.length).toBeGreaterThanOrEqual(2);
    for (const t of touched) expect(t.rows, `${t.statement}\n${t.read.join('\n')}`).toBeLessThan(30 * TERMS);
  });
});
