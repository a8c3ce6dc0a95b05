// Translation memory's size classes (migrations 020 and 021): a suggestion narrows its candidates to
// the sources short enough to reach the similarity threshold. The narrowing must never lose a match: for
// texts of every length, with words long and short, repeated, accented and in other scripts, the
// sources the trigram operator finds are the same with and without the class, at the threshold the
// service uses and at others. And the database's classes are the ones the code picks from.
import { describe, expect, it } from 'vitest';
import { addLanguage } from '../../core/languages/add-language.ts';
import { FUZZY_THRESHOLD, suggestTranslations } from '../../core/memory/suggest-translations.ts';
import { SIZE_CLASSES, sizeClassFor } from '../../core/memory/size-classes.ts';
import { useCore } from '../core/support/core-harness.ts';

const core = useCore();

const WORDS = ['the', 'to', 'a', 'of', 'is', 'your', 'save', 'changes', 'account', 'settings', 'über', 'größe', 'ça', '保存', 'x', 'notifications', 'e-mail', "don't", '42'];

/** Deterministic texts of 1 to 24 words (so 2 to about 150 trigrams). */
function texts(count: number, seed: number): string[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    const words = Array.from({ length: 1 + Math.floor(next() * next() * 24) }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    return words.join(next() < 0.2 ? ', ' : ' ');
  });
}

describe('translation memory size classes', () => {
  it("are the database's: each class at or above the source's trigram count", async () => {
    // Read from memory_sources itself, written as every source is: a value in the source language,
    // one row at a time through the translations trigger.
    const { deps } = core;
    const p = await core.newProject('business');
    await addLanguage(deps, { projectId: p.projectId, code: 'en', actor: p.actor });
    const samples = [...texts(200, 7), '', '   ', '!!!', 'a', 'Save', 'x'.repeat(500)];
    for (const [i, text] of samples.entries()) {
      await deps.sql`
        with created as (insert into translation_keys (project_id, key, group_name) values (${p.projectId}, ${'s' + i}, 'g') returning id)
        insert into translations (key_id, project_id, language, value, status) select id, ${p.projectId}, 'en', ${text}, 'approved' from created`;
    }
    const rows = await deps.sql<{ key: string; n: number; classes: number[] }[]>`
      select k.key, coalesce(array_length(show_trgm(m.value), 1), 0)::int as n, m.size_classes as classes
      from memory_sources m join translation_keys k on k.id = m.key_id where m.project_id = ${p.projectId}`;
    expect(rows).toHaveLength(samples.length);
    for (const row of rows) {
      expect(row.classes, JSON.stringify(samples[Number(row.key.slice(1))])).toEqual(SIZE_CLASSES.filter((k) => row.n <= k));
    }
  });

  it('never lose a match: the trigram search finds the same sources with the class as without', async () => {
    const { deps } = core;
    const p = await core.newProject('business');
    for (const code of ['en', 'de']) await addLanguage(deps, { projectId: p.projectId, code, actor: p.actor });
    const memory = texts(3_000, 11);
    await deps.sql`
      with created as (
        insert into translation_keys (project_id, key, group_name)
        select ${p.projectId}, 'k' || n, 'g' from generate_series(1, ${memory.length}::int) as n returning id, key)
      insert into translations (key_id, project_id, language, value, status)
      select c.id, ${p.projectId}, 'en', (${memory}::text[])[substr(c.key, 2)::int], 'approved' from created c`;
    const { account_id: accountId } = (await deps.sql<{ account_id: string }[]>`select account_id from projects where id = ${p.projectId}`)[0]!;

    let narrowed = 0;
    let matches = 0;
    for (const threshold of [FUZZY_THRESHOLD, 0.3, 0.55, 0.8]) {
      for (const asked of [...texts(60, 23 + threshold * 100), 'the', 'Is to the', 'to the', 'über', '保存']) {
        const found = await deps.sql.begin(async (tx) => {
          await tx`select set_config('pg_trgm.similarity_threshold', ${String(threshold)}, true)`;
          const { n } = (await tx<{ n: number }[]>`select coalesce(array_length(show_trgm(${asked}), 1), 0)::int as n`)[0]!;
          const sizeClass = sizeClassFor(n, threshold);
          const all = await tx<{ key_id: string }[]>`select key_id from memory_sources where account_id = ${accountId} and value % ${asked} order by key_id`;
          if (sizeClass === undefined) return { all, within: all };
          narrowed++;
          const within = await tx<{ key_id: string }[]>`
            select key_id from memory_sources where account_id = ${accountId} and value % ${asked} and size_classes @> array[${sizeClass}::int] order by key_id`;
          return { all, within };
        });
        matches += found.all.length;
        expect(found.within.map((r) => r.key_id), `${JSON.stringify(asked)} at ${threshold}`).toEqual(found.all.map((r) => r.key_id));
      }
    }
    // The comparison was made, and on texts that match something.
    expect(narrowed).toBeGreaterThan(150);
    expect(matches).toBeGreaterThan(1_000);
  });

  it('leave out the long texts that share a short text\'s words, in the index', async () => {
    const { deps } = core;
    const p = await core.newProject('business');
    for (const code of ['en', 'de']) await addLanguage(deps, { projectId: p.projectId, code, actor: p.actor });
    // 4,000 long texts holding "Go to the", 40 short ones like it, and the asking key.
    const [asking] = await deps.sql<{ id: string }[]>`
      with created as (
        insert into translation_keys (project_id, key, group_name)
        select ${p.projectId}, 'k' || n, 'g' from generate_series(0, 4040) as n returning id, key)
      , values as (
        insert into translations (key_id, project_id, language, value, status)
        select c.id, ${p.projectId}, l, case
            when l = 'de' then 'Gehe zu ' || c.key
            when c.key = 'k0' then 'Go to the'
            when substr(c.key, 2)::int <= 40 then 'Go to the ' || substr(c.key, 2)
            else 'Go to the page ' || c.key || ' to read all about our new products, prices and services' end,
          case when c.key = 'k0' then 'draft' else 'approved' end
        from created c cross join unnest(array['en', 'de']) as l)
      select id from created where key = 'k0'`;
    const suggested = await suggestTranslations(deps, { projectId: p.projectId, keyId: asking!.id, language: 'de', limit: 10 });
    expect(suggested.suggestions.map((s) => s.source_value)).toContain('Go to the 1');
    expect(suggested.suggestions.every((s) => s.source_value.length < 20)).toBe(true);
    // The rows the index hands to the heap: the short texts, not the 4,000 long ones.
    const { account_id: accountId } = (await deps.sql<{ account_id: string }[]>`select account_id from projects where id = ${p.projectId}`)[0]!;
    const plan = await deps.sql.begin(async (tx) => {
      await tx`select set_config('pg_trgm.similarity_threshold', ${String(FUZZY_THRESHOLD)}, true)`;
      await tx`set local enable_seqscan = off`;
      const { n } = (await tx<{ n: number }[]>`select coalesce(array_length(show_trgm('Go to the'), 1), 0)::int as n`)[0]!;
      const [row] = await tx.unsafe(
        `explain (analyze, format json) select key_id from memory_sources where account_id = $1 and value % 'Go to the' and size_classes @> array[$2::int]`,
        [accountId, sizeClassFor(n, FUZZY_THRESHOLD)!],
      );
      return JSON.stringify(row!['QUERY PLAN']);
    });
    const handed = [...plan.matchAll(/"Node Type":"Bitmap Index Scan"[^}]*?"Actual Rows":(\d+)/g)].map((m) => Number(m[1]));
    expect(handed.length).toBe(1);
    expect(handed[0]).toBeLessThan(200);
  });
});
