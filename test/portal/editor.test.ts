// The editor's page query on a real database: keyset pages that together are every live key once,
// in order; search over names and values (wildcards taken literally); filters by group, status and
// missing language; values only of the chosen languages; nothing of another project.
import { beforeAll, describe, expect, it } from 'vitest';
import { editorPage } from '../../core/portal/editor-page.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
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
    let after: string | undefined;
    let pages = 0;
    do {
      const res = await page(after === undefined ? {} : { after });
      expect(res.rows.length).toBeLessThanOrEqual(50);
      seen.push(...res.rows.map((r) => r.key));
      after = res.next ?? undefined;
      pages++;
    } while (after !== undefined);
    expect(pages).toBe(3);
    const expected = Object.keys(ids).filter((k) => k !== 'home.item001').sort();
    expect(seen).toEqual(expected.sort((a, b) => (a < b ? -1 : 1)));
  });

  it('carries the values of the chosen languages only', async () => {
    const res = await page({ languages: ['de'], search: 'settings.item000' });
    expect(res.rows).toHaveLength(1);
    expect(res.rows[0]!.values).toEqual({ de: { value: 'Wert 0', status: 'draft', updated_at: expect.any(String) } });
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
