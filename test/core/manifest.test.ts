// core/manifest called directly: the languages that have values of live keys, in code-point order,
// with names, ISO codes and approved counts; it follows additions, deletions and removals, and
// shows one project only.
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../core/manifest/read-manifest.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { domainError, useCore } from './support/core-harness.ts';

const core = useCore();

describe('readManifest', () => {
  it('lists languages with values of live keys, code-point ordered, named, with ISO codes and approved counts', async () => {
    const p = await core.newProject('team');
    expect(await readManifest(core.deps, { projectId: p.projectId })).toEqual({ project_id: p.projectId, languages: [] });
    for (const code of ['pt-BR', 'pt', 'de', 'fil', 'fr']) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
    const a = await createKey(core.deps, { projectId: p.projectId, key: 'a', actor: p.actor });
    const b = await createKey(core.deps, { projectId: p.projectId, key: 'b', actor: p.actor });
    const write = (keyId: string, language: string, status: 'draft' | 'approved') =>
      putTranslation(core.deps, { projectId: p.projectId, keyId, language, value: `${language} text`, status, actor: p.actor });
    await write(a.id, 'de', 'approved');
    await write(b.id, 'de', 'approved');
    await write(a.id, 'pt-BR', 'draft');
    await write(a.id, 'pt', 'approved');
    await write(b.id, 'fil', 'draft');
    // fr is registered but has no value: not in the manifest.

    expect((await readManifest(core.deps, { projectId: p.projectId })).languages).toEqual([
      { code: 'de', name: 'German', iso: 'de', approved_count: 2 },
      { code: 'fil', name: 'Filipino', iso: null, approved_count: 0 },
      { code: 'pt', name: 'Portuguese', iso: 'pt', approved_count: 1 },
      { code: 'pt-BR', name: 'Portuguese (Brazil)', iso: 'pt', approved_count: 0 },
    ]);

    // A deleted key's values stop counting; a language whose only values belonged to it disappears.
    await deleteKey(core.deps, { projectId: p.projectId, keyId: b.id, actor: p.actor });
    await removeLanguage(core.deps, { projectId: p.projectId, code: 'pt', actor: p.actor });
    expect((await readManifest(core.deps, { projectId: p.projectId })).languages).toEqual([
      { code: 'de', name: 'German', iso: 'de', approved_count: 1 },
      { code: 'pt-BR', name: 'Portuguese (Brazil)', iso: 'pt', approved_count: 0 },
    ]);
  });

  it("never shows another project's languages, and validates the project id", async () => {
    const a = await core.newProject();
    const b = await core.newProject();
    await addLanguage(core.deps, { projectId: a.projectId, code: 'de', actor: a.actor });
    const k = await createKey(core.deps, { projectId: a.projectId, key: 'k', actor: a.actor });
    await putTranslation(core.deps, { projectId: a.projectId, keyId: k.id, language: 'de', value: 'x', status: 'approved', actor: a.actor });
    expect((await readManifest(core.deps, { projectId: a.projectId })).languages).toHaveLength(1);
    expect(await readManifest(core.deps, { projectId: b.projectId })).toEqual({ project_id: b.projectId, languages: [] });
    const error = await domainError(readManifest(core.deps, { projectId: 'nope' }), 'validation');
    expect(error.issues?.[0]?.loc).toEqual(['projectId']);
  });
});
