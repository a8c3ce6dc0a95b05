// The "has problems" scan (core/quality/keys-with-problems.ts) on a real database: pages of
// matches that together are every key with a warning exactly once, in the listing's order, however
// the chunks and the scan bound cut through them; the editor's other filters apply; values of
// other languages and projects do not count; a value in the source language is checked alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { keysWithProblems, type KeysWithProblemsInput } from '../../core/quality/keys-with-problems.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { useCore, type CoreProject } from '../core/support/core-harness.ts';

const core = useCore();
let p: CoreProject;
let other: CoreProject;
/** The keys whose German value has a warning, in name order. */
const broken: string[] = [];
const KEYS = 73;

beforeAll(async () => {
  p = await core.newProject('team');
  other = await core.newProject('team');
  for (const code of ['en', 'de', 'fr']) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  for (const code of ['en', 'de']) await addLanguage(core.deps, { projectId: other.projectId, code, actor: other.actor });
  // Many keys in one statement each (the per-key use-cases would make this file slow on PGlite).
  const names = Array.from({ length: KEYS }, (_, i) => `k${String(i).padStart(3, '0')}`);
  const keys = await core.deps.sql<{ id: string; key: string }[]>`
    insert into translation_keys (project_id, key, group_name)
    select ${p.projectId}, n, case when right(n, 1) in ('0', '5') then 'five' else 'rest' end from unnest(${names}::text[]) as n
    returning id, key`;
  const byName = new Map(keys.map((k) => [k.key, k.id]));
  const rows: { key_id: string; language: string; value: string; status: string }[] = [];
  names.forEach((name, i) => {
    const id = byName.get(name)!;
    rows.push({ key_id: id, language: 'en', value: `Hello {name}, item ${i}.`, status: 'approved' });
    // Every third key has a German value that lost its placeholder, every seventh has none at all,
    // the rest are fine; French values are all broken (they must not count for German).
    if (i % 7 === 0) return;
    const bad = i % 3 === 0;
    rows.push({ key_id: id, language: 'de', value: bad ? `Hallo, Artikel ${i}.` : `Hallo {name}, Artikel ${i}.`, status: 'draft' });
    rows.push({ key_id: id, language: 'fr', value: `Bonjour ${i}`, status: 'draft' });
    if (bad) broken.push(name);
  });
  await core.deps.sql`
    insert into translations (key_id, project_id, language, value, status)
    select r.key_id, ${p.projectId}, r.language, r.value, r.status
    from unnest(${rows.map((r) => r.key_id)}::uuid[], ${rows.map((r) => r.language)}::text[], ${rows.map((r) => r.value)}::text[], ${rows.map((r) => r.status)}::text[])
      as r(key_id, language, value, status)`;
  // A deleted key with a broken value is not listed; another project's broken value neither.
  const gone = await createKey(core.deps, { projectId: p.projectId, key: 'k050.deleted', actor: p.actor });
  await putTranslation(core.deps, { projectId: p.projectId, keyId: gone.id, language: 'de', value: '<b>kaputt', actor: p.actor });
  await deleteKey(core.deps, { projectId: p.projectId, keyId: gone.id, actor: p.actor });
  const foreign = await createKey(core.deps, { projectId: other.projectId, key: 'k001', actor: other.actor });
  await putTranslation(core.deps, { projectId: other.projectId, keyId: foreign.id, language: 'en', value: 'Hi {x}', actor: other.actor });
  await putTranslation(core.deps, { projectId: other.projectId, keyId: foreign.id, language: 'de', value: 'Hallo', actor: other.actor });
});

const scan = (input: Partial<KeysWithProblemsInput>) =>
  keysWithProblems(core.deps, { projectId: p.projectId, language: 'de', sourceLanguage: 'en', limit: 5, ...input });

/** Every page from the start: the keys in order, and each page's answer. */
async function allPages(input: Partial<KeysWithProblemsInput>) {
  const seen: string[] = [];
  const pages: Awaited<ReturnType<typeof scan>>[] = [];
  let cursor: string | undefined;
  do {
    const page = await scan({ ...input, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page);
    seen.push(...page.keys.map((k) => k.key));
    cursor = page.next_cursor ?? undefined;
    expect(pages.length).toBeLessThan(100);
  } while (cursor !== undefined);
  return { seen, pages };
}

describe('keysWithProblems', () => {
  it('finds the keys whose value has a warning, with the warnings, in name order', async () => {
    const page = await scan({ limit: 50 });
    expect(page.keys.map((k) => k.key)).toEqual(broken);
    expect(page.next_cursor).toBeNull();
    // Only keys with a German value are looked at (every seventh has none).
    expect(page.scanned).toBe(KEYS - Math.ceil(KEYS / 7));
    expect(page.keys[0]!.warnings).toEqual([{ check: 'placeholders', message: 'Missing placeholder {name}' }]);
  });

  it('pages across chunk boundaries: every match once, none skipped, whatever the chunk size', async () => {
    for (const [chunk, limit] of [
      [7, 5],
      [4, 3],
      [10, 1],
      [500, 5],
      [3, 20],
    ] as const) {
      const { seen, pages } = await allPages({ chunk, limit });
      expect(seen, `chunk ${chunk}, limit ${limit}`).toEqual(broken);
      for (const page of pages) expect(page.keys.length).toBeLessThanOrEqual(limit);
      // A next page is offered only when a match follows (the scan ran ahead by one match).
      expect(pages.at(-1)!.keys.length).toBeGreaterThan(0);
    }
  });

  it('stops at the scan bound and resumes exactly there', async () => {
    const { seen, pages } = await allPages({ chunk: 6, limit: 50, maxScan: 15 });
    expect(seen).toEqual(broken);
    for (const page of pages) expect(page.scanned).toBeLessThanOrEqual(15);
    expect(pages.filter((page) => page.bounded).length).toBe(Math.ceil((KEYS - Math.ceil(KEYS / 7)) / 15) - 1);
    // A bounded page can hold fewer matches than the limit, or none, and still go on.
    expect(pages.every((page) => page.bounded === (page.next_cursor !== null))).toBe(true);
  });

  it("applies the listing's filters, and checks only the chosen language", async () => {
    const grouped = await allPages({ group: 'five', chunk: 4, limit: 2 });
    expect(grouped.seen).toEqual(broken.filter((k) => /[05]$/.test(k)));
    const searched = await scan({ search: 'k01', limit: 50 });
    expect(searched.keys.map((k) => k.key)).toEqual(broken.filter((k) => k.startsWith('k01')));
    // French values have no placeholder: every French value is a problem.
    const fr = await scan({ language: 'fr', limit: 100 });
    expect(fr.keys.length).toBe(KEYS - Math.ceil(KEYS / 7));
    // The source language's values are checked alone: fine here.
    expect((await scan({ language: 'en', limit: 100 })).keys).toEqual([]);
  });

  it('combines with the outdated and open-comments filters (it once dropped both)', async () => {
    const ids = new Map((await core.deps.sql<{ id: string; key: string }[]>`select id, key from translation_keys where project_id = ${p.projectId}`).map((r) => [r.key, r.id]));
    // Two broken keys and a fine one get an open comment in German, a third broken one a resolved one.
    const [b1, b2, b3] = broken as [string, string, string];
    const comment = (key: string, resolved: boolean) => core.deps.sql`
      insert into value_comments (project_id, key_id, language, text, author_type, author_id, resolved_at, resolved_by_type, resolved_by_id)
      values (${p.projectId}, ${ids.get(key)!}, 'de', 'Check', 'api_key', ${p.projectId}, ${resolved ? new Date() : null}, ${resolved ? 'api_key' : null}, ${resolved ? p.projectId : null})`;
    await comment(b1, false);
    await comment(b2, false);
    await comment(b3, true);
    await comment('k001', false);
    expect((await scan({ open_comments: 'de', limit: 50 })).keys.map((k) => k.key)).toEqual([b1, b2]);
    // Outdated: the source text of b2 and of a fine key moved on after their German values.
    const revs = await core.deps.sql<{ key_id: string; language: string; text_rev: number; source_rev: number }[]>`select key_id, language, text_rev, source_rev from translations where project_id = ${p.projectId}`;
    await core.deps.sql`update translations set text_rev = 1, source_rev = 1 where project_id = ${p.projectId}`;
    await core.deps.sql`update translations set text_rev = 2 where language = 'en' and key_id in (${ids.get(b2)!}, ${ids.get('k001')!})`;
    expect((await scan({ outdated: 'de', limit: 50 })).keys.map((k) => k.key)).toEqual([b2]);
    expect((await scan({ outdated: 'de', open_comments: 'de', limit: 50 })).keys.map((k) => k.key)).toEqual([b2]);
    for (const r of revs) await core.deps.sql`update translations set text_rev = ${r.text_rev}, source_rev = ${r.source_rev} where key_id = ${r.key_id} and language = ${r.language}`;
    await core.deps.sql`delete from value_comments where project_id = ${p.projectId}`;
  });

  it('another project is not looked at', async () => {
    const theirs = await keysWithProblems(core.deps, { projectId: other.projectId, language: 'de', sourceLanguage: 'en', limit: 10 });
    expect(theirs.keys.map((k) => k.key)).toEqual(['k001']);
    expect(theirs.keys[0]!.warnings[0]!.check).toBe('placeholders');
  });
});
