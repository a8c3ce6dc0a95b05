// The editor's page on a real database, through the API's listing (core/keys/list-keys.ts): cursor
// pages that together are every live key once, in order; search over names and values (wildcards
// taken literally); filters by group, status and missing language; values only of the chosen
// languages, with their versions; nothing of another project. Its bulk actions are the API's.
import { beforeAll, describe, expect, it } from 'vitest';
import { editorPage } from '../../core/portal/editor-page.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { bulkDeleteKeys } from '../../core/keys/bulk-delete-keys.ts';
import { bulkSetStatus } from '../../core/keys/bulk-set-status.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { deleteTerm } from '../../core/glossary/delete-term.ts';
import { useCore, type CoreProject } from '../core/support/core-harness.ts';

const core = useCore();
let p: CoreProject;
let other: CoreProject;
const ids: Record<string, string> = {};

beforeAll(async () => {
  p = await core.newProject('team');
  other = await core.newProject('team');
  for (const code of ['de', 'fr']) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  await addLanguage(core.deps, { projectId: other.projectId, code: 'de', actor: other.actor });
  for (let i = 0; i < 120; i++) {
    const key = `${i % 2 ? 'home' : 'settings'}.item${String(i).padStart(3, '0')}`;
    ids[key] = (await createKey(core.deps, { projectId: p.projectId, key, group_name: i % 2 ? 'home' : 'settings', actor: p.actor })).id;
    if (i % 3 === 0) await putTranslation(core.deps, { projectId: p.projectId, keyId: ids[key]!, language: 'de', value: `Wert ${i}`, status: i % 2 ? 'approved' : 'draft', actor: p.actor });
  }
  await putTranslation(core.deps, { projectId: p.projectId, keyId: ids['settings.item000']!, language: 'fr', value: 'Remise de 50_% aujourd’hui', actor: p.actor });
  await deleteKey(core.deps, { projectId: p.projectId, keyId: ids['home.item001']!, actor: p.actor });
  const foreign = await createKey(core.deps, { projectId: other.projectId, key: 'home.item002', actor: other.actor });
  await putTranslation(core.deps, { projectId: other.projectId, keyId: foreign.id, language: 'de', value: 'Wert 0 fremd', actor: other.actor });
});

const page = (input: Partial<Parameters<typeof editorPage>[1]> = {}) => editorPage(core.deps, { projectId: p.projectId, languages: ['de'], ...input });

describe('editorPage', () => {
  it('pages through every live key once, in order, 50 at a time', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await page(cursor === undefined ? {} : { cursor });
      expect(res.rows.length).toBeLessThanOrEqual(50);
      seen.push(...res.rows.map((r) => r.key));
      cursor = res.next ?? undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    const expected = Object.keys(ids).filter((k) => k !== 'home.item001').sort();
    expect(seen).toEqual(expected.sort((a, b) => (a < b ? -1 : 1)));
  });

  it('carries the values of the chosen languages only', async () => {
    const res = await page({ languages: ['de'], search: 'settings.item000' });
    expect(res.rows).toHaveLength(1);
    expect(res.rows[0]!.values).toEqual({ de: { value: 'Wert 0', status: 'draft', version: expect.any(Number), updated_at: expect.any(String), warnings: [], outdated: false, text_rev: expect.any(Number) } });
    const both = await page({ languages: ['de', 'fr'], search: 'settings.item000' });
    expect(Object.keys(both.rows[0]!.values).sort()).toEqual(['de', 'fr']);
    expect((await page({ languages: [], search: 'settings.item000' })).rows[0]!.values).toEqual({});
  });

  it('searches names and values, case-insensitively, with % and _ taken literally, only in this project', async () => {
    expect((await page({ search: 'ITEM11' })).rows.map((r) => r.key)).toEqual(['home.item111', 'home.item113', 'home.item115', 'home.item117', 'home.item119', 'settings.item110', 'settings.item112', 'settings.item114', 'settings.item116', 'settings.item118']);
    expect((await page({ search: 'wert 9' })).rows.map((r) => r.key)).toEqual(['home.item009', 'settings.item090', 'home.item093', 'settings.item096', 'home.item099'].sort());
    expect((await page({ search: '50_%' })).rows.map((r) => r.key)).toEqual(['settings.item000']);
    expect((await page({ search: '5%' })).rows).toEqual([]);
    expect((await page({ search: 'fremd' })).rows).toEqual([]);
  });

  it('filters by group, status and missing language', async () => {
    const home = await page({ group: 'home', limit: 200 });
    expect(home.rows.every((r) => r.group_name === 'home')).toBe(true);
    expect(home.rows).toHaveLength(59);
    const approved = await page({ status: 'approved', limit: 200 });
    expect(approved.rows.every((r) => r.values.de?.status === 'approved')).toBe(true);
    expect(approved.rows).toHaveLength(20);
    const missingDe = await page({ missing: 'de', limit: 200 });
    expect(missingDe.rows.every((r) => r.values.de === undefined)).toBe(true);
    expect(missingDe.rows).toHaveLength(119 - 40);
    expect((await page({ group: 'nope' })).rows).toEqual([]);
  });

  it('refuses bad input as validation errors', async () => {
    await expect(page({ languages: ['not a language'] })).rejects.toMatchObject({ code: 'validation' });
    await expect(page({ search: 'x'.repeat(201) })).rejects.toMatchObject({ code: 'validation' });
  });
});

describe('bulk actions', () => {
  it('bulkSetStatus changes only the selected values in the chosen languages, one event each, and can leave approved ones alone', async () => {
    const setStatuses = (input: { keyIds: string[]; languages: string[]; status: 'review' | 'approved'; skipApproved?: boolean }) =>
      bulkSetStatus(core.deps, { projectId: p.projectId, key_ids: input.keyIds, languages: input.languages, status: input.status, skipApproved: input.skipApproved ?? false, actor: p.actor });
    const since = await core.lastEventId();
    // settings.item000 has de (draft) and fr; home.item003 has de (approved); home.item005 has none.
    const res = await setStatuses({ keyIds: [ids['settings.item000']!, ids['home.item003']!, ids['home.item005']!], languages: ['de'], status: 'review', skipApproved: true });
    expect(res).toMatchObject({ changed: 1 });
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_id, e.before, e.after])).toEqual([
      ['translation.written', `${ids['settings.item000']}/de`, { value: 'Wert 0', status: 'draft' }, { value: 'Wert 0', status: 'review' }],
    ]);
    const after = await page({ languages: ['de', 'fr'], search: 'settings.item000' });
    expect([after.rows[0]!.values.de!.status, after.rows[0]!.values.fr!.status]).toEqual(['review', 'draft']);
    expect((await setStatuses({ keyIds: [ids['home.item003']!], languages: ['de'], status: 'review' })).changed).toBe(1);
    // Another project's key is not this project's: not found, and not touched.
    const [foreignKey] = await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${other.projectId}`;
    await expect(setStatuses({ keyIds: [foreignKey!.id], languages: ['de'], status: 'approved' })).rejects.toMatchObject({ code: 'not_found' });
    const [foreignValue] = await core.deps.sql<{ status: string }[]>`select status from translations where key_id = ${foreignKey!.id}`;
    expect(foreignValue!.status).toBe('draft');
  });

  it('bulkDeleteKeys deletes all or nothing', async () => {
    const deleteKeys = (deps: typeof core.deps, input: { projectId: string; keyIds: string[]; actor: typeof p.actor }) =>
      bulkDeleteKeys(deps, { projectId: input.projectId, key_ids: input.keyIds, actor: input.actor });
    const [foreignKey] = await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${other.projectId}`;
    await expect(deleteKeys(core.deps, { projectId: p.projectId, keyIds: [ids['home.item007']!, foreignKey!.id], actor: p.actor })).rejects.toMatchObject({ code: 'not_found' });
    expect((await page({ search: 'home.item007' })).rows).toHaveLength(1);
    expect(await deleteKeys(core.deps, { projectId: p.projectId, keyIds: [ids['home.item007']!, ids['home.item009']!], actor: p.actor })).toEqual({ project_id: p.projectId, deleted: 2 });
    expect((await page({ search: 'home.item00' })).rows.map((r) => r.key)).not.toContain('home.item007');
  });

  // The page's glossary comes from the process's memo (core/glossary/glossary-memo.ts), at the
  // glossary version its first statement read: each change is on the next page.
  it("shows the glossary as it is now: a term added, its translation changed, then deleted", async () => {
    const glossaryOf = async () => {
      const row = (await page({ languages: ['fr'], search: 'settings.item000' })).rows[0]!;
      return { terms: row.glossary.map((t) => `${t.term}=${t.translations.fr ?? ''}`), warnings: row.values.fr!.warnings.filter((w) => w.check === 'glossary').length };
    };
    expect(await glossaryOf()).toEqual({ terms: [], warnings: 0 });
    const term = await createTerm(core.deps, { projectId: p.projectId, actor: p.actor, term: 'Wert', translations: { fr: 'Valeur' } });
    expect(await glossaryOf()).toEqual({ terms: ['Wert=Valeur'], warnings: 1 });
    await updateTerm(core.deps, { projectId: p.projectId, actor: p.actor, termId: term.id, translations: { fr: 'Remise' } });
    expect(await glossaryOf()).toEqual({ terms: ['Wert=Remise'], warnings: 0 });
    await deleteTerm(core.deps, { projectId: p.projectId, actor: p.actor, termId: term.id });
    expect(await glossaryOf()).toEqual({ terms: [], warnings: 0 });
  });
});
