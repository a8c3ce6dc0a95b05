// core/translations called directly: one value's life (created, its status moved through draft,
// review and approved, overwritten, deleted) with one event per write holding before and after;
// the read filters; refusals that write nothing; and no way to reach another project's values.
import { describe, expect, it } from 'vitest';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';
import { readKey } from '../../core/translations/read-key.ts';
import { readGroup } from '../../core/translations/read-group.ts';
import { readLanguage } from '../../core/translations/read-language.ts';
import { transaction } from '../../core/db/transaction.ts';
import { domainError, useCore, type CoreProject, liveJson, bodyJson } from './support/core-harness.ts';

const core = useCore();

async function projectWithKey(languages = ['de'], plan: 'free' | 'team' = 'team') {
  const p = await core.newProject(plan);
  for (const code of languages) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  const key = await createKey(core.deps, { projectId: p.projectId, key: 'home.title', group_name: 'home', actor: p.actor });
  return { p, keyId: key.id };
}

const storedValue = async (keyId: string, language: string) => {
  const [row] = await core.deps.sql<{ value: string; status: string }[]>`
    select value, status from translations where key_id = ${keyId} and language = ${language}`;
  return row ?? null;
};

const put = (p: CoreProject, keyId: string, value: string, status?: 'draft' | 'review' | 'approved', language = 'de') =>
  putTranslation(core.deps, { projectId: p.projectId, keyId, language, value, actor: p.actor, ...(status ? { status } : {}) });

describe('putTranslation and deleteTranslation', () => {
  it('moves a value through draft, review and approved, resets to draft on an unstatused overwrite, one event each', async () => {
    const { p, keyId } = await projectWithKey();
    const since = await core.lastEventId();
    expect(await put(p, keyId, 'Hallo')).toEqual({ key_id: keyId, language: 'de', value: 'Hallo', status: 'draft', project_id: p.projectId, version: expect.any(Number), warnings: [] });
    await put(p, keyId, 'Hallo', 'review');
    await put(p, keyId, 'Hallo', 'approved');
    await put(p, keyId, 'Hallo Welt'); // a changed text needs review again
    await deleteTranslation(core.deps, { projectId: p.projectId, keyId, language: 'de', actor: p.actor });

    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_type, e.entity_id, e.actor_id, e.before, e.after])).toEqual([
      ['translation.written', 'translation', `${keyId}/de`, p.apiKeyId, null, { value: 'Hallo', status: 'draft' }],
      ['translation.written', 'translation', `${keyId}/de`, p.apiKeyId, { value: 'Hallo', status: 'draft' }, { value: 'Hallo', status: 'review' }],
      ['translation.written', 'translation', `${keyId}/de`, p.apiKeyId, { value: 'Hallo', status: 'review' }, { value: 'Hallo', status: 'approved' }],
      ['translation.written', 'translation', `${keyId}/de`, p.apiKeyId, { value: 'Hallo', status: 'approved' }, { value: 'Hallo Welt', status: 'draft' }],
      ['translation.deleted', 'translation', `${keyId}/de`, p.apiKeyId, { value: 'Hallo Welt', status: 'draft' }, null],
    ]);
    // What was published after each commit is what was stored, in order.
    expect(core.published.filter((e) => e.projectId === p.projectId && e.type.startsWith('translation.')).map((e) => e.id)).toEqual(
      events.map((e) => e.id),
    );
    expect(await storedValue(keyId, 'de')).toBeNull();
    await domainError(deleteTranslation(core.deps, { projectId: p.projectId, keyId, language: 'de', actor: p.actor }), 'not_found');
  });

  it('refuses invalid values, statuses and languages as validation errors at the field, writing nothing', async () => {
    const { p, keyId } = await projectWithKey();
    const since = await core.lastEventId();
    const cases: [Record<string, unknown>, string][] = [
      [{ value: 'v'.repeat(10_001) }, 'value'],
      [{ value: 'nul \u0000' }, 'value'],
      [{ value: 'half \udc00' }, 'value'],
      [{ value: 42 }, 'value'],
      [{ value: 'ok', status: 'published' }, 'status'],
      [{ value: 'ok', language: 'de_DE' }, 'language'],
      [{ value: 'ok', keyId: 'nope' }, 'keyId'],
    ];
    for (const [fields, field] of cases) {
      const error = await domainError(
        putTranslation(core.deps, { projectId: p.projectId, keyId, language: 'de', actor: p.actor, ...fields } as never),
        'validation',
      );
      expect([...new Set(error.issues?.map((i) => i.loc.join('.')))], JSON.stringify(fields).slice(0, 50)).toEqual([field]);
    }
    // Exactly 10,000 characters (astral ones count once) is fine.
    await put(p, keyId, '👋'.repeat(10_000));
    expect((await storedValue(keyId, 'de'))?.value).toHaveLength(20_000);
    expect((await core.events({ projectId: p.projectId }, since)).map((e) => e.type)).toEqual(['translation.written']);
  });

  it('refuses an unregistered language or a deleted key with a 404 that records nothing', async () => {
    const { p, keyId } = await projectWithKey(['de']);
    const since = await core.lastEventId();
    await domainError(put(p, keyId, 'Bonjour', 'approved', 'fr'), 'not_found');
    await deleteKey(core.deps, { projectId: p.projectId, keyId, actor: p.actor });
    const afterDelete = await core.lastEventId();
    await domainError(put(p, keyId, 'Hallo'), 'not_found');
    await domainError(deleteTranslation(core.deps, { projectId: p.projectId, keyId, language: 'de', actor: p.actor }), 'not_found');
    expect(await storedValue(keyId, 'fr')).toBeNull();
    expect(await storedValue(keyId, 'de')).toBeNull();
    expect((await core.events({ projectId: p.projectId }, since)).map((e) => e.type)).toEqual(['key.deleted']);
    expect(await core.events({ projectId: p.projectId }, afterDelete)).toEqual([]);
  });

  it('refuses to run inside an open transaction before writing anything (its one statement cannot join it)', async () => {
    // Seen before the fix: on real Postgres the value committed outside the outer transaction (which
    // then failed and rolled back without it); on the embedded database's one connection, it hung.
    const { p, keyId } = await projectWithKey();
    await put(p, keyId, 'vorher', 'approved');
    const before = await core.lastEventId();
    const inside = (work: (deps: typeof core.deps) => Promise<unknown>) =>
      Promise.race([
        transaction(core.deps, (tx) => work({ ...core.deps, tx })),
        new Promise((_, reject) => setTimeout(() => reject(new Error('hung waiting for a second connection')), 3_000)),
      ]);
    await expect(
      inside((deps) => putTranslation(deps, { projectId: p.projectId, keyId, language: 'de', value: 'inside', actor: p.actor })),
    ).rejects.toThrow(/inside a transaction/);
    await expect(
      inside((deps) => deleteTranslation(deps, { projectId: p.projectId, keyId, language: 'de', actor: p.actor })),
    ).rejects.toThrow(/inside a transaction/);
    expect(await storedValue(keyId, 'de')).toEqual({ value: 'vorher', status: 'approved' });
    expect(await core.events({ projectId: p.projectId }, before)).toEqual([]);
  });
});

describe('reads', () => {
  it('filter by status (approved by default) across the key, group and language reads', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const values = { 'g.approved': 'approved', 'g.draft': 'draft', 'g.review': 'review' } as const;
    for (const [key, status] of Object.entries(values)) {
      const k = await createKey(core.deps, { projectId: p.projectId, key, group_name: 'g', actor: p.actor });
      await put(p, k.id, `${status} text`, status);
    }
    const other = await createKey(core.deps, { projectId: p.projectId, key: 'o.k', group_name: 'o', actor: p.actor });
    await put(p, other.id, 'other', 'approved');

    expect(await liveJson(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: 'g.approved' }))).toEqual({
      key: 'g.approved',
      group: 'g',
      language: 'de',
      value: 'approved text',
      status: 'approved',
    });
    await domainError(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: 'g.draft' }), 'not_found');
    expect(await liveJson(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: 'g.draft', status: 'draft' }))).toMatchObject({ status: 'draft' });
    // A key read names the key's own group, and a name that could never exist is simply not found.
    await domainError(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'o', key: 'g.approved' }), 'not_found');
    await domainError(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: '.' }), 'not_found');

    expect(bodyJson(await readGroup(core.deps, { projectId: p.projectId, language: 'de', group: 'g' }))).toEqual({
      project_id: p.projectId,
      language: 'de',
      group: 'g',
      status_filter: 'approved',
      count: 1,
      translations: { 'g.approved': 'approved text' },
    });
    expect(bodyJson(await readGroup(core.deps, { projectId: p.projectId, language: 'de', group: 'g', status: 'all' })).translations).toEqual({
      'g.approved': { value: 'approved text', status: 'approved' },
      'g.draft': { value: 'draft text', status: 'draft' },
      'g.review': { value: 'review text', status: 'review' },
    });
    const review = bodyJson(await readLanguage(core.deps, { projectId: p.projectId, language: 'de', status: 'review' }));
    expect(review).toMatchObject({ count: 1, status_filter: 'review', translations: { 'g.review': 'review text' } });
    const all = bodyJson(await readLanguage(core.deps, { projectId: p.projectId, language: 'de', status: 'all' }));
    expect(all.count).toBe(4);
    expect(all.translations['o.k']).toEqual({ value: 'other', status: 'approved', group: 'o' });
    const badFilter = await domainError(readLanguage(core.deps, { projectId: p.projectId, language: 'de', status: 'final' } as never), 'validation');
    expect(badFilter.issues?.[0]?.loc).toEqual(['status']);
  });
});

describe('isolation between projects', () => {
  it("never writes, deletes or reads another project's values, even with the same language registered", async () => {
    const { p: a, keyId } = await projectWithKey(['de']);
    await put(a, keyId, 'geheim', 'approved');
    const b = await core.newProject('team');
    await addLanguage(core.deps, { projectId: b.projectId, code: 'de', actor: b.actor });
    const since = await core.lastEventId();

    await domainError(putTranslation(core.deps, { projectId: b.projectId, keyId, language: 'de', value: 'hijack', actor: b.actor }), 'not_found');
    await domainError(deleteTranslation(core.deps, { projectId: b.projectId, keyId, language: 'de', actor: b.actor }), 'not_found');
    await domainError(readKey(core.deps, { projectId: b.projectId, language: 'de', group: 'home', key: 'home.title' }), 'not_found');
    await domainError(readGroup(core.deps, { projectId: b.projectId, language: 'de', group: 'home' }), 'not_found');
    await domainError(readLanguage(core.deps, { projectId: b.projectId, language: 'de' }), 'not_found');

    expect(await storedValue(keyId, 'de')).toEqual({ value: 'geheim', status: 'approved' });
    expect(await core.events({ projectId: a.projectId }, since)).toEqual([]);
    expect(await core.events({ projectId: b.projectId }, since)).toEqual([]);
  });
});
