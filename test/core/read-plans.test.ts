// The multi-row reads that join a project's keys, values or events (the listing's status filter, an
// export, the editor's values, a group restore's name check, the trash, the activity log) must stay
// linear in the project's size whatever the planner knows. Right after a bulk load, without
// statistics (autovacuum off, PGlite; domain_events is not among the tables the service analyzes),
// every condition looks like it matches one row, and joins were planned as nested loops that read
// the whole project once per row: a status filter on 10,000 keys took 9.3 s, an export 7.8 s, the
// trash 12.8 s (docs/decisions.md, "No cliff without statistics"). Each statement here runs under
// EXPLAIN ANALYZE, on its custom and on its generic plan, and the rows its plan touched are bounded.
import { describe, expect, it } from 'vitest';
import { listKeys } from '../../core/keys/list-keys.ts';
import { exportFile } from '../../core/files/export-file.ts';
import { valuesOfKeys } from '../../core/translations/values-of-keys.ts';
import { restoreGroup } from '../../core/groups/restore-group.ts';
import { listTrash } from '../../core/portal/trash.ts';
import { listActivity, valueHistory } from '../../core/portal/activity.ts';
import { suggestTranslations } from '../../core/memory/suggest-translations.ts';
import { translateMissing } from '../../core/translate/translate-missing.ts';
import { useCore } from './support/core-harness.ts';
import { bulkLoadedProject, rowsTouched, scans, type PlanNode } from './support/plans.ts';
import { addLanguage } from '../../core/languages/add-language.ts';

const core = useCore();

const literal = (value: unknown): string =>
  value === null || value === undefined ? 'null' : typeof value === 'number' || typeof value === 'boolean' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
const arrayLiteral = (values: unknown[]): string =>
  `'{${values.map((v) => (v === null || v === undefined ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll("'", "''")}"`)).join(',')}}'`;
const parameterLiteral = (value: unknown): string => (Array.isArray(value) ? arrayLiteral(value) : literal(value));

class RolledBack extends Error {}

async function executedPlan(query: string, parameters: unknown[], mode: 'force_custom_plan' | 'force_generic_plan'): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  await core.deps.sql
    .begin(async (tx) => {
      await tx.unsafe(`set local plan_cache_mode = ${mode}`);
      await tx.unsafe(`prepare judged as ${query}`);
      try {
        const [row] = await tx.unsafe(`explain (analyze, format json) execute judged(${parameters.map(parameterLiteral).join(', ')})`);
        plan = (row!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
      } finally {
        await tx.unsafe('deallocate judged');
      }
      throw new RolledBack(); // what the analyzed statement wrote is undone
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan!;
}

type Call = [name: string, call: () => Promise<unknown>, bound: number];
type Statement = [name: string, bound: number, statement: { query: string; parameters: unknown[] }];

/** Runs the calls, keeping every statement each sent (with the most rows it may touch). */
async function capture(calls: Call[]): Promise<Statement[]> {
  const options = core.deps.sql.options as unknown as { debug: unknown };
  const captured: { query: string; parameters: unknown[] }[] = [];
  options.debug = (_connection: number, query: string, parameters: unknown[]) => void captured.push({ query, parameters });
  const statements: Statement[] = [];
  try {
    for (const [name, call, bound] of calls) {
      captured.length = 0;
      await call();
      expect(captured.length, name).toBeGreaterThan(0);
      captured.forEach((statement, i) => statements.push([`${name} #${i + 1}`, bound, statement]));
    }
  } finally {
    options.debug = false;
  }
  return statements;
}

/** Each statement under EXPLAIN ANALYZE on its custom and its generic plan: rows touched below its bound. */
async function judge(statements: Statement[]): Promise<void> {
  let judged = 0;
  for (const [name, bound, { query, parameters }] of statements) {
    if (!/\$1\b/.test(query)) continue; // no parameters: nothing the project's size enters (begin, commit)
    for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
      const plan = await executedPlan(query, parameters, mode);
      judged++;
      expect(rowsTouched(plan), `${name} (${mode}): ${query.replace(/\s+/g, ' ').slice(0, 300)}\n${scans(plan).join('\n')}`).toBeLessThan(bound);
    }
  }
  expect(judged).toBeGreaterThan(0);
}

describe('multi-row reads without statistics', () => {
  it('touch rows in proportion to the project, never the project once per row', async () => {
    const { deps } = core;
    // No ANALYZE behind the test's back: the planner keeps the picture of empty tables.
    deps.statistics.close();
    // First, while the tables hold one 2,000-key project: the filters' shapes that PGlite's generic
    // plans turned into a scan of the whole status index per key (4 million rows).
    const small = await bulkLoadedProject(core, 2_000);
    const filters: Call[] = [
      ['status filter', () => listKeys(deps, { projectId: small.projectId, status: 'approved', limit: 50 }), 40_000],
      ['status and language filter', () => listKeys(deps, { projectId: small.projectId, status: 'approved', language: 'de' }), 40_000],
      ['statuses of the editor', () => listKeys(deps, { projectId: small.projectId, status: 'review', statusLanguages: ['de', 'fr'], limit: 50 }), 40_000],
    ];
    await judge(await capture(filters));

    const KEYS = 10_000;
    const EVENTS = 5_000;
    const p = await bulkLoadedProject(core, KEYS);
    const scope = { projectId: p.projectId, actor: p.actor };
    // Every value rewritten once, as a re-import that approves them does: the table then holds as
    // many dead rows as live ones, as after a real load, and is sized accordingly in the planner's eyes.
    await deps.sql`update translations set updated_at = now() where project_id = ${p.projectId}`;
    const page = await deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} order by key desc limit 50`;
    // A history of writes, as a project accumulates them (the activity log reads its newest page).
    await deps.sql`
      insert into domain_events (type, project_id, actor_type, entity_type, entity_id)
      select 'key.updated', ${p.projectId}, 'api_key', 'key', gen_random_uuid()::text from generate_series(1, ${EVENTS}::int)`;
    // One group's keys deleted together (directly, so that no event asks for an ANALYZE).
    await deps.sql`update translation_keys set deleted_at = now() where project_id = ${p.projectId} and group_name = 'g3'`;

    // [name, call, the most rows any of its statements may touch]
    const linear = 20 * KEYS;
    const calls: Call[] = [
      ['status filter', () => listKeys(deps, { projectId: p.projectId, status: 'approved', limit: 50 }), linear],
      ['status filter, no match', () => listKeys(deps, { projectId: p.projectId, status: 'review', limit: 50 }), linear],
      ['status and language filter', () => listKeys(deps, { projectId: p.projectId, status: 'approved', language: 'de' }), linear],
      ['missing filter', () => listKeys(deps, { projectId: p.projectId, missing: 'de', limit: 50 }), linear],
      // Two primary-key probes per key (the value and its source), whatever the planner believes.
      ['outdated filter', () => listKeys(deps, { projectId: p.projectId, outdated: 'de', limit: 50 }), linear],
      ['outdated filter, whole list', () => listKeys(deps, { projectId: p.projectId, outdated: 'fr' }), linear],
      ['search', () => listKeys(deps, { projectId: p.projectId, search: 'no such text', limit: 50 }), linear],
      ['export', () => exportFile(deps, { projectId: p.projectId, language: 'de', format: 'json', status: 'approved' }), linear],
      ['export of a group', () => exportFile(deps, { projectId: p.projectId, language: 'fr', format: 'json', status: 'all', group: 'g5' }), linear],
      // Both languages in one statement (the value's and its source's), every status.
      ['export with source text', () => exportFile(deps, { projectId: p.projectId, language: 'de', format: 'xliff', status: 'approved', source: 'en' }), linear],
      ['export of a group with source text', () => exportFile(deps, { projectId: p.projectId, language: 'fr', format: 'xliff2', status: 'approved', source: 'en', group: 'g5' }), linear],
      // These two were linear already (the project's values of three languages, its events, once);
      // they are here so that they stay so. At this size a scan of the table is a fair plan.
      ['editor values', () => valuesOfKeys(deps, { projectId: p.projectId, keyIds: page.map((k) => k.id), languages: ['de', 'en', 'fr'] }), linear],
      ['trash', () => listTrash(deps, p.projectId), linear],
      ['activity', () => listActivity(deps, p.projectId), linear],
      ['restore group', () => restoreGroup(deps, { ...scope, name: 'g3' }), linear],
      // A value's History reads that value's events, not the project's (migration 018): it walked
      // the project's events from the newest until it had found the value's, all of them for a value
      // written long ago. Bound well under the project's event count.
      ['value history', () => valueHistory(deps, p.projectId, page[0]!.id, 'de'), EVENTS / 5],
    ];
    const statements = await capture(calls);
    // The group deleted again: the restore's statements are judged on the state they met.
    await deps.sql`update translation_keys set deleted_at = now() where project_id = ${p.projectId} and group_name = 'g3'`;
    await judge(statements);
  });

  it("read translation memory within the asking account, whatever other accounts' memory holds (migration 019)", async () => {
    const { deps } = core;
    deps.statistics.close();
    /** A project whose keys have `count` English sources (`text` and the key's number) and approved German values. */
    const memory = async (count: number, text: (n: string) => string = (n) => `Go to the page ${n}`) => {
      const p = await core.newProject('business');
      for (const code of ['en', 'de']) await addLanguage(deps, { projectId: p.projectId, code, actor: p.actor });
      const [key] = await deps.sql<{ id: string }[]>`
        with created as (
          insert into translation_keys (project_id, key, group_name)
          select ${p.projectId}, 'k' || n, 'g' from generate_series(1, ${count}::int) as n
          returning id, key)
        , values as (
          insert into translations (key_id, project_id, language, value, status)
          select c.id, ${p.projectId}, l, case l when 'en' then replace(${text('#')}, '#', substr(c.key, 2)) else 'Zur Seite ' || substr(c.key, 2) end, 'approved'
          from created c cross join unnest(array['en', 'de']) as l)
        select id from created order by key limit 1`;
      return { ...p, keyId: key!.id };
    };
    // Another account with a large memory of texts like the asked one; the asking account's is small.
    const OTHERS = 20_000;
    const others = await memory(OTHERS);
    const mine = await memory(20);
    const [sources] = await deps.sql<{ n: number }[]>`select count(*)::int as n from memory_sources`;
    expect(sources!.n).toBeGreaterThanOrEqual(OTHERS + 20);
    const suggested = await suggestTranslations(deps, { projectId: mine.projectId, keyId: mine.keyId, language: 'de' });
    expect(suggested.suggestions.length).toBeGreaterThan(0);
    // The memory index starts with the account: the other account's 3,000 similar texts are never
    // read (with 014's index they were all read and rechecked, then dropped by the account filter).
    await judge(await capture([['suggestion', () => suggestTranslations(deps, { projectId: mine.projectId, keyId: mine.keyId, language: 'de' }), 500]]));
    // A text pg_trgm gives no trigrams, in the large account: its exact matches come from the (md5,
    // account) index, not from a scan of the account's 20,000 sources.
    const [wordless] = await deps.sql<{ id: string }[]>`
      with created as (
        insert into translation_keys (project_id, key, group_name)
        select ${others.projectId}, 'wordless' || n, 'g' from generate_series(1, 2) as n
        returning id, key)
      , values as (
        insert into translations (key_id, project_id, language, value, status)
        select c.id, ${others.projectId}, l, case l when 'en' then '…' else '…!' end, 'approved'
        from created c cross join unnest(array['en', 'de']) as l)
      select id from created order by key limit 1`;
    const wordlessSuggestion = () => suggestTranslations(deps, { projectId: others.projectId, keyId: wordless!.id, language: 'de' });
    expect((await wordlessSuggestion()).suggestions).toMatchObject([{ value: '…!', match: 'exact' }]);
    await judge(await capture([['wordless suggestion', wordlessSuggestion, 500]]));

    // Exact memory (machine translation's free first step): another account holds the same text
    // 3,000 times; a key of the asking account without German finds its own account's copy only.
    await memory(OTHERS, () => 'Save changes');
    const saved = await memory(1, () => 'Save changes');
    const [asked] = await deps.sql<{ id: string }[]>`
      with k as (insert into translation_keys (project_id, key, group_name) values (${saved.projectId}, 'asked', 'g') returning id)
      insert into translations (key_id, project_id, language, value, status) select id, ${saved.projectId}, 'en', 'Save changes', 'draft' from k
      returning key_id as id`;
    const fill = () => translateMissing(deps, { projectId: saved.projectId, actor: saved.actor, language: 'de', keys: [asked!.id], only_missing: true, dry_run: true });
    expect(await fill()).toMatchObject({ from_memory: 1 });
    // A suggestion finds its exact matches the same way (md5, then account), not by trigrams.
    const suggestion = () => suggestTranslations(deps, { projectId: saved.projectId, keyId: asked!.id, language: 'de' });
    expect((await suggestion()).suggestions).toMatchObject([{ match: 'exact', source_value: 'Save changes' }]);
    await judge(await capture([['exact memory', fill, 500], ['exact suggestion', suggestion, 500]]));
  }, 60_000); // two bulk loads of 20,000 keys, slow on PGlite when the machine is busy
});
