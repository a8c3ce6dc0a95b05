// The single-key writes and reads (a PUT of a value, its GET and DELETE, key creation and update)
// must touch a handful of rows whatever the planner knows. Without statistics (autovacuum off, or
// PGlite, right after a bulk load) a lookup by key id that also names the project could be planned
// on the project's index and filtered by id: every write then scans the whole project, and seeding
// a project through single calls becomes quadratic. Checked on the generic plan, which is the one a
// named prepared statement (postgres.js) keeps after its first executions.
import { describe, expect, it } from 'vitest';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { getTranslation } from '../../core/translations/get-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { updateKey } from '../../core/keys/update-key.ts';
import { getKey } from '../../core/keys/get-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';
import { suggestTranslations } from '../../core/memory/suggest-translations.ts';
import { useCore } from './support/core-harness.ts';
import { bulkLoadedProject, rowsTouched, scans, type PlanNode } from './support/plans.ts';

const core = useCore();

const literal = (value: unknown): string =>
  value === null || value === undefined ? 'null' : typeof value === 'number' || typeof value === 'boolean' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;

class RolledBack extends Error {}

describe('single-key statements without statistics', () => {
  it('touch a few rows, not the project, on their generic plans', async () => {
    const { deps } = core;
    const KEYS = 2_000;
    const p = await bulkLoadedProject(core, KEYS);
    // The last keys in every index order: a scan of the project's index meets them last.
    const [one, two, three] = await deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} order by key desc limit 3`;
    const scope = { projectId: p.projectId, actor: p.actor };

    const options = deps.sql.options as unknown as { debug: unknown };
    const captured: { query: string; parameters: unknown[] }[] = [];
    options.debug = (_connection: number, query: string, parameters: unknown[]) => void captured.push({ query, parameters });
    // [name, call, how many of its statements are single-key ones (all when unset)]
    const calls: [string, () => Promise<unknown>, number?][] = [
      ['put', () => putTranslation(deps, { ...scope, keyId: one!.id, language: 'de', value: 'neu', status: 'review' })],
      ['put if-match', () => putTranslation(deps, { ...scope, keyId: one!.id, language: 'de', value: 'neuer', status: 'review', ifMatch: '*' })],
      ['get', () => getTranslation(deps, { projectId: p.projectId, keyId: one!.id, language: 'de' })],
      ['delete', () => deleteTranslation(deps, { ...scope, keyId: two!.id, language: 'fr' })],
      ['update key', () => updateKey(deps, { ...scope, keyId: one!.id, description: 'd' })],
      // Its first statement finds the key; the memory search after it reads what matches, by design.
      ['suggestions', () => suggestTranslations(deps, { projectId: p.projectId, keyId: one!.id, language: 'de' }), 1],
      ['get key', () => getKey(deps, { projectId: p.projectId, keyId: one!.id })],
      ['delete key', () => deleteKey(deps, { ...scope, keyId: three!.id })],
      ['restore key', () => restoreKey(deps, { ...scope, keyId: three!.id })],
      ['create key', () => createKey(deps, { ...scope, key: 'fresh.key' })],
    ];
    const statements: [string, { query: string; parameters: unknown[] }][] = [];
    try {
      for (const [name, call, first] of calls) {
        captured.length = 0;
        await call();
        expect(captured.length, name).toBeGreaterThan(0);
        captured.slice(0, first).forEach((statement, i) => statements.push([`${name} #${i + 1}`, statement]));
      }
    } finally {
      options.debug = false;
    }

    for (const [name, { query, parameters }] of statements) {
      if (!/\$1\b/.test(query)) continue; // no parameters: no generic plan to judge (begin, commit)
      let plan: PlanNode | undefined;
      await deps.sql
        .begin(async (tx) => {
          await tx.unsafe('set local plan_cache_mode = force_generic_plan');
          await tx.unsafe(`prepare judged as ${query}`);
          try {
            const [row] = await tx.unsafe(`explain (analyze, format json) execute judged(${parameters.map(literal).join(', ')})`);
            plan = (row!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
          } finally {
            await tx.unsafe('deallocate judged');
          }
          throw new RolledBack(); // what the analyzed statement wrote is undone
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      // 2,000 keys and 6,000 values: a project scan touches thousands of rows, a key lookup a few.
      expect(rowsTouched(plan!), `${name}: ${query.replace(/\s+/g, ' ').slice(0, 300)}\n${scans(plan!).join('\n')}`).toBeLessThan(60);
    }
  });
});
