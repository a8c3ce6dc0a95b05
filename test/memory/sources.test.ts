// Translation memory's sources (memory_sources) are kept by triggers on translations and projects
// (migration 014): whatever path writes values, several to a statement or one, the table must
// always hold exactly the project's source-language values. Checked after each kind of write
// against that definition, computed from translations itself, on both databases.
import { describe, expect, it } from 'vitest';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { bulkSetStatus } from '../../core/keys/bulk-set-status.ts';
import { importFile } from '../../core/files/import-file.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { useCore, type CoreProject } from '../core/support/core-harness.ts';

const core = useCore();

type Source = { key_id: string; language: string; value: string };

/** What memory_sources holds for a project, and what it should hold. */
async function sources(p: CoreProject): Promise<{ kept: Source[]; expected: Source[] }> {
  const { sql } = core.deps;
  const kept = await sql<Source[]>`
    select key_id::text, language, value from memory_sources where project_id = ${p.projectId} order by key_id, language`;
  const expected = await sql<Source[]>`
    select t.key_id::text, t.language, t.value from translations t join projects p on p.id = t.project_id
    where t.project_id = ${p.projectId} and t.language = p.source_language order by t.key_id, t.language`;
  return { kept, expected };
}

async function expectInSync(p: CoreProject, count: number) {
  const { kept, expected } = await sources(p);
  expect(kept).toEqual(expected);
  expect(kept).toHaveLength(count);
}

const json = (values: Record<string, string>) => new TextEncoder().encode(JSON.stringify(values));

describe('memory sources follow every write', () => {
  it('through batched PUTs, updates, status changes, imports, deletes, language removal and a new source language', async () => {
    const p = await core.newProject('team');
    const scope = { projectId: p.projectId, actor: p.actor };
    for (const code of ['en', 'de', 'fr']) await addLanguage(core.deps, { ...scope, code });
    const keys: string[] = [];
    for (let i = 0; i < 12; i++) keys.push((await createKey(core.deps, { ...scope, key: `k.${i}` })).id);

    // Concurrent PUTs of one project share statements (core/translations/value-writes.ts): several
    // rows per statement, in every language, only English kept.
    await Promise.all(
      keys.flatMap((keyId, i) =>
        ['en', 'de', 'fr'].map((language) => putTranslation(core.deps, { ...scope, keyId, language, value: `${language} ${i}`, status: 'draft' })),
      ),
    );
    await expectInSync(p, 12);

    // New values of the source text, together, and one written again unchanged.
    await Promise.all([
      ...keys.slice(0, 6).map((keyId, i) => putTranslation(core.deps, { ...scope, keyId, language: 'en', value: `en ${i} edited`, status: 'review' })),
      putTranslation(core.deps, { ...scope, keyId: keys[7]!, language: 'en', value: 'en 7', status: 'approved' }),
    ]);
    await expectInSync(p, 12);
    expect((await sources(p)).kept.filter((s) => s.value.endsWith('edited'))).toHaveLength(6);

    // A status-only bulk change leaves the sources as they are.
    await bulkSetStatus(core.deps, { ...scope, key_ids: keys, languages: ['en', 'de'], status: 'approved' });
    await expectInSync(p, 12);

    // An import in the source language: new keys and overwritten values, one statement each.
    await importFile(core.deps, {
      ...scope,
      language: 'en',
      format: 'json',
      status: 'approved',
      conflict: 'overwrite',
      dryRun: false,
      group: 'Default',
      body: json({ 'k.0': 'imported zero', 'k.1': 'imported one', 'new.a': 'Alpha', 'new.b': 'Beta' }),
    });
    await expectInSync(p, 14);

    // One value deleted; a key deleted is kept for restoring, its values with it.
    await deleteTranslation(core.deps, { ...scope, keyId: keys[2]!, language: 'en' });
    await deleteKey(core.deps, { ...scope, keyId: keys[3]! });
    await expectInSync(p, 13);

    // Another language removed: the sources stay; then the source language itself.
    await removeLanguage(core.deps, { ...scope, code: 'fr' });
    await expectInSync(p, 13);
    await updateProject(core.deps, { ...scope, source_language: 'de' });
    await expectInSync(p, 12);
    // The source language removed: the one left (en) takes its place, and its values are the sources.
    await removeLanguage(core.deps, { ...scope, code: 'de' });
    await expectInSync(p, 13);

    // Another project of the account is untouched by all of it.
    const other = await core.newProject('team');
    await addLanguage(core.deps, { projectId: other.projectId, actor: other.actor, code: 'en' });
    const k = await createKey(core.deps, { projectId: other.projectId, actor: other.actor, key: 'x' });
    await putTranslation(core.deps, { projectId: other.projectId, actor: other.actor, keyId: k.id, language: 'en', value: 'Other', status: 'draft' });
    await expectInSync(other, 1);
    await expectInSync(p, 13);
  });
});

// memory_sources has no foreign keys of its own (migration 045): a key or a project deleted by hand,
// which the service never does, cascades to its values, and their trigger takes the memory rows.
describe('memory sources after a key or project deleted by hand', () => {
  it('go with the values they came from', async () => {
    const { sql } = core.deps;
    const p = await core.newProject('team');
    const scope = { projectId: p.projectId, actor: p.actor };
    for (const code of ['en', 'de']) await addLanguage(core.deps, { ...scope, code });
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) keys.push((await createKey(core.deps, { ...scope, key: `hand.${i}` })).id);
    for (const [i, keyId] of keys.entries()) {
      for (const language of ['en', 'de']) await putTranslation(core.deps, { ...scope, keyId, language, value: `${language} ${i}`, status: 'draft' });
    }
    await expectInSync(p, 3);

    await sql`delete from translation_keys where id = ${keys[0]!}`;
    await expectInSync(p, 2);
    expect(await sql`select 1 from memory_sources where key_id = ${keys[0]!}`).toHaveLength(0);

    await sql`delete from projects where id = ${p.projectId}`;
    expect(await sql`select key_id from memory_sources where project_id = ${p.projectId}`).toHaveLength(0);
  });
});
