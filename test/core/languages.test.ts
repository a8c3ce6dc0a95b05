// core/languages called directly: codes validated and canonicalized in core, the plan's language
// limit, and a removal that takes every value of the language with it (soft-deleted keys' too),
// only in its own project.
import { describe, expect, it } from 'vitest';
import { addLanguage } from '../../core/languages/add-language.ts';
import { listLanguages } from '../../core/languages/list-languages.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { readLanguage } from '../../core/translations/read-language.ts';
import { domainError, useCore, liveJson, bodyJson } from './support/core-harness.ts';

const core = useCore();

const codes = async (projectId: string) => (await listLanguages(core.deps, { projectId })).languages.map((l) => l.code);

describe('addLanguage', () => {
  it('canonicalizes any casing, records language.added, and treats another casing as the same language', async () => {
    const p = await core.newProject('team');
    const since = await core.lastEventId();
    expect(await addLanguage(core.deps, { projectId: p.projectId, code: 'PT-br', actor: p.actor })).toEqual({
      project_id: p.projectId,
      code: 'pt-BR',
      added: true,
    });
    await addLanguage(core.deps, { projectId: p.projectId, code: 'ZH-hant', actor: p.actor });
    await domainError(addLanguage(core.deps, { projectId: p.projectId, code: 'pt-BR', actor: p.actor }), 'conflict');
    await domainError(addLanguage(core.deps, { projectId: p.projectId, code: 'pt-br', actor: p.actor }), 'conflict');
    expect(await codes(p.projectId)).toEqual(['pt-BR', 'zh-Hant']);
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_type, e.entity_id, e.actor_type, e.actor_id])).toEqual([
      ['language.added', 'language', 'pt-BR', 'api_key', p.apiKeyId],
      ['language.added', 'language', 'zh-Hant', 'api_key', p.apiKeyId],
    ]);
  });

  it('refuses malformed codes as a validation error at `code`, registering nothing', async () => {
    const p = await core.newProject('team');
    for (const code of ['english', 'e', 'de_DE', 'de-', '-DE', 'de-DE-x', '', 'd3', 'de\u0000', 'x'.repeat(5_000)]) {
      const error = await domainError(addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor }), 'validation');
      expect(error.issues?.map((i) => i.loc), JSON.stringify(code.slice(0, 20))).toEqual([['code']]);
    }
    const notString = await domainError(addLanguage(core.deps, { projectId: p.projectId, code: 42, actor: p.actor } as never), 'validation');
    expect(notString.issues?.[0]).toMatchObject({ loc: ['code'], msg: 'language code must be a string' });
    expect(await codes(p.projectId)).toEqual([]);
  });

  it("refuses a language past the plan's limit with the numbers, recording nothing", async () => {
    const p = await core.newProject('free'); // 2 languages
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    await addLanguage(core.deps, { projectId: p.projectId, code: 'fr', actor: p.actor });
    const since = await core.lastEventId();
    const error = await domainError(addLanguage(core.deps, { projectId: p.projectId, code: 'it', actor: p.actor }), 'plan_limit');
    expect(error.data).toEqual({ resource: 'languages', plan: 'free', limit: 2, current: 2, adding: 1 });
    expect(await codes(p.projectId)).toEqual(['de', 'fr']);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
    // A removal frees the slot.
    await removeLanguage(core.deps, { projectId: p.projectId, code: 'fr', actor: p.actor });
    await addLanguage(core.deps, { projectId: p.projectId, code: 'it', actor: p.actor });
  });
});

describe('removeLanguage', () => {
  it("deletes the language's values across all keys (soft-deleted ones too), leaves other languages, records the count", async () => {
    const p = await core.newProject('team');
    for (const code of ['de', 'fr']) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
    const keys = [];
    for (const key of ['a', 'b', 'c']) {
      const k = await createKey(core.deps, { projectId: p.projectId, key, actor: p.actor });
      for (const language of ['de', 'fr']) {
        await putTranslation(core.deps, { projectId: p.projectId, keyId: k.id, language, value: `${key}-${language}`, status: 'approved', actor: p.actor });
      }
      keys.push(k);
    }
    await deleteKey(core.deps, { projectId: p.projectId, keyId: keys[2]!.id, actor: p.actor });
    const since = await core.lastEventId();

    expect(await removeLanguage(core.deps, { projectId: p.projectId, code: 'FR', actor: p.actor })).toEqual({
      project_id: p.projectId,
      code: 'fr',
      translations_deleted: 3,
      deleted: true,
    });
    expect(await codes(p.projectId)).toEqual(['de']);
    const [left] = await core.deps.sql<{ fr: number; de: number }[]>`
      select count(*) filter (where language = 'fr')::int as fr, count(*) filter (where language = 'de')::int as de
      from translations where project_id = ${p.projectId}`;
    expect(left).toEqual({ fr: 0, de: 3 });
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([
      expect.objectContaining({ type: 'language.removed', entity_type: 'language', entity_id: 'fr', actor_id: p.apiKeyId, before: { values: 3 } }),
    ]);

    // Gone means gone: no reads, no writes, and a second removal is a 404 that records nothing.
    await domainError(readLanguage(core.deps, { projectId: p.projectId, language: 'fr', status: 'all' }), 'not_found');
    await domainError(
      putTranslation(core.deps, { projectId: p.projectId, keyId: keys[0]!.id, language: 'fr', value: 'x', actor: p.actor }),
      'not_found',
    );
    const after = await core.lastEventId();
    await domainError(removeLanguage(core.deps, { projectId: p.projectId, code: 'fr', actor: p.actor }), 'not_found');
    expect(await core.events({ projectId: p.projectId }, after)).toEqual([]);
  });

  it("cannot remove another project's language or its values", async () => {
    const a = await core.newProject();
    const b = await core.newProject();
    await addLanguage(core.deps, { projectId: a.projectId, code: 'de', actor: a.actor });
    const k = await createKey(core.deps, { projectId: a.projectId, key: 'k', actor: a.actor });
    await putTranslation(core.deps, { projectId: a.projectId, keyId: k.id, language: 'de', value: 'Wert', actor: a.actor });

    await domainError(removeLanguage(core.deps, { projectId: b.projectId, code: 'de', actor: b.actor }), 'not_found');
    expect(await codes(b.projectId)).toEqual([]);
    // Even with the same language registered in both, removing it in one leaves the other whole.
    await addLanguage(core.deps, { projectId: b.projectId, code: 'de', actor: b.actor });
    expect(await removeLanguage(core.deps, { projectId: b.projectId, code: 'de', actor: b.actor })).toMatchObject({ translations_deleted: 0 });
    expect(await codes(a.projectId)).toEqual(['de']);
    expect(bodyJson(await readLanguage(core.deps, { projectId: a.projectId, language: 'de', status: 'all' })).count).toBe(1);
  });
});
