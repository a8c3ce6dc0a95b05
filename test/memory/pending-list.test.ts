// Translation memory's trigram index and its pending list (migration 046): a statement of 1,000
// source values or more goes through a 4 MB list merged in full at its end, so that the
// suggestions after a large import read no pending list at all; smaller writes keep the 256 kB
// list (gathered, merged in bulk when it passes 256 kB); the writer's own setting is put back.
// The list is read from the index's metapage with pageinspect, which needs a superuser: real
// PostgreSQL only (PGlite's build of the service does not load pageinspect).
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { importFile } from '../../core/files/import-file.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { useCore, type CoreProject } from '../core/support/core-harness.ts';
import { usingRealPostgres } from '../support/test-database.ts';

const core = useCore();
const INDEX = 'memory_sources_account_size_trgm_idx';

type Meta = { n_pending_tuples: number; n_pending_pages: number };

async function pending(): Promise<Meta> {
  const [meta] = await core.deps.sql<Meta[]>`
    select n_pending_tuples::int, n_pending_pages::int from gin_metapage_info(get_raw_page(${INDEX}, 0))`;
  return meta!;
}

const json = (values: Record<string, string>) => new TextEncoder().encode(JSON.stringify(values));
const texts = (n: number, tag: string) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${tag}.k${i}`, `${tag} sentence number ${i} about the checkout page`]));

async function englishProject(): Promise<CoreProject & { scope: { projectId: string; actor: CoreProject['actor'] } }> {
  const p = await core.newProject('team');
  const scope = { projectId: p.projectId, actor: p.actor };
  for (const code of ['en', 'de']) await addLanguage(core.deps, { ...scope, code });
  return { ...p, scope };
}

const importInto = (p: { scope: { projectId: string; actor: CoreProject['actor'] } }, language: string, values: Record<string, string>) =>
  importFile(core.deps, { ...p.scope, language, format: 'json', status: 'approved', conflict: 'overwrite', dryRun: false, group: 'Default', body: json(values) });

describe.skipIf(!usingRealPostgres())('translation memory pending list (real PostgreSQL)', () => {
  beforeAll(async () => {
    await core.deps.sql`create extension if not exists pageinspect`;
  });

  it('the index carries no limit of its own: the triggers choose it', async () => {
    const [index] = await core.deps.sql<{ options: string[] | null }[]>`select reloptions as options from pg_class where relname = ${INDEX}`;
    expect(index!.options).toEqual(['fastupdate=on']);
  });

  it('an import of 1,000 source values or more leaves nothing pending; small writes are gathered in the list', async () => {
    const p = await englishProject();
    // A few single writes first: they stay in the list (256 kB is far from full).
    for (let i = 0; i < 3; i++) {
      const key = await createKey(core.deps, { ...p.scope, key: `single.${i}` });
      await putTranslation(core.deps, { ...p.scope, keyId: key.id, language: 'en', value: `single value ${i}`, status: 'draft' });
    }
    expect((await pending()).n_pending_tuples).toBeGreaterThanOrEqual(3);

    // 999 source values: under the threshold, gathered like any write (not merged at the end).
    await importInto(p, 'en', texts(999, 'under'));
    expect((await pending()).n_pending_tuples).toBeGreaterThan(0);

    // 1,200: merged in full at the statement's end, with what the others had left.
    await importInto(p, 'en', texts(1200, 'bulk'));
    expect(await pending()).toEqual({ n_pending_tuples: 0, n_pending_pages: 0 });

    // Values of another language are no memory: they leave the list as it is.
    const key = await createKey(core.deps, { ...p.scope, key: 'after.bulk' });
    await putTranslation(core.deps, { ...p.scope, keyId: key.id, language: 'en', value: 'after the bulk', status: 'draft' });
    const before = (await pending()).n_pending_tuples;
    expect(before).toBeGreaterThan(0);
    await importInto(p, 'de', texts(1200, 'bulk'));
    expect((await pending()).n_pending_tuples).toBe(before);

    // Every source is found by a suggestion's search, merged or pending.
    const [found] = await core.deps.sql<{ n: number }[]>`
      select count(*)::int as n from memory_sources where project_id = ${p.projectId} and value % 'bulk sentence number 17 about the checkout page'`;
    expect(found!.n).toBeGreaterThan(0);
  });

  it('a small write merges a list that a writer by hand left longer than 256 kB', async () => {
    const p = await englishProject();
    // By hand, at the server's default limit (4 MB): nothing is merged.
    await core.deps.sql.begin(async (tx) => {
      await tx`set local gin_pending_list_limit = '4MB'`;
      await tx`
        insert into memory_sources (key_id, account_id, project_id, language, value)
        select gen_random_uuid(), (select account_id from projects where id = ${p.projectId}), ${p.projectId}, 'en', 'by hand number ' || i || ' of the batch'
        from generate_series(1, 3000) i`;
    });
    expect((await pending()).n_pending_pages).toBeGreaterThan(32); // 256 kB of 8 kB pages
    const key = await createKey(core.deps, { ...p.scope, key: 'small.one' });
    await putTranslation(core.deps, { ...p.scope, keyId: key.id, language: 'en', value: 'one small write', status: 'draft' });
    expect((await pending()).n_pending_pages).toBeLessThanOrEqual(32);
  });

  it("puts the writer's own limit back, in its transaction, after a bulk statement or a small one", async () => {
    const p = await englishProject();
    const seen = await core.deps.sql.begin(async (tx) => {
      await tx`set local gin_pending_list_limit = '1MB'`;
      await tx`insert into translation_keys (project_id, key, group_name) select ${p.projectId}, 'tx.k' || i, 'Default' from generate_series(1, 1100) i`;
      await tx`
        insert into translations (key_id, project_id, language, value, status)
        select id, project_id, 'en', 'in a transaction ' || key, 'draft' from translation_keys where project_id = ${p.projectId} and key like 'tx.k%'`;
      const [afterBulk] = await tx<{ limit: string }[]>`select current_setting('gin_pending_list_limit') as limit`;
      await tx`update translations set value = 'changed once' where project_id = ${p.projectId} and language = 'en' and key_id = (select id from translation_keys where project_id = ${p.projectId} and key = 'tx.k1')`;
      const [afterSmall] = await tx<{ limit: string }[]>`select current_setting('gin_pending_list_limit') as limit`;
      return [afterBulk!.limit, afterSmall!.limit];
    });
    expect(seen).toEqual(['1MB', '1MB']);
  });

  it('a new source language takes its sources in one merged statement', async () => {
    const p = await englishProject();
    await importInto(p, 'de', texts(50, 'german'));
    await updateProject(core.deps, { ...p.scope, source_language: 'de' });
    expect(await pending()).toEqual({ n_pending_tuples: 0, n_pending_pages: 0 });
    const [count] = await core.deps.sql<{ n: number }[]>`select count(*)::int as n from memory_sources where project_id = ${p.projectId} and language = 'de'`;
    expect(count!.n).toBe(50);
  });
});
