// core/files previewImport: the import's dry run with a sample of its changes (the portal's
// preview), counted the same as importFile's dry run, writing nothing; and the API's import answer,
// dry run or not, without any of it.
import { beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';
import { importFile, previewImport } from '../../core/files/import-file.ts';
import { ImportResult } from '../../core/files/schemas.ts';

const t = useTestApp();
let p: Project;

const json = (values: Record<string, string>) => new TextEncoder().encode(JSON.stringify(values));
const command = (file: Record<string, string>, options: Partial<{ status: 'draft' | 'review' | 'approved'; conflict: 'overwrite' | 'keep' | 'fail' }> = {}) => ({
  projectId: p.projectId,
  actor: { type: 'api_key' as const, id: p.apiKeyId },
  language: 'de',
  format: 'json' as const,
  status: options.status ?? 'draft',
  conflict: options.conflict ?? 'overwrite',
  group: 'Default',
  body: json(file),
});

const FILE = { a: 'A neu', b: 'B', c: 'C neu', d: 'D', fresh: 'Frisch' };

async function snapshot() {
  const sql = t.runtime.deps.sql;
  const [values, events, units] = await Promise.all([
    sql`select k.key, t.value, t.status, t.updated_at from translation_keys k left join translations t on t.key_id = k.id where k.project_id = ${p.projectId} order by k.key`,
    sql`select count(*)::int as n from domain_events where project_id = ${p.projectId}`,
    sql`select cycle_start, used from translation_unit_usage where account_id = ${p.accountId}`,
  ]);
  return { values, events, units };
}

beforeAll(async () => {
  p = await project(t, ['de']);
  // a, b approved; c draft; d a key without a value in de.
  expect((await t.call(p.apiKey, 'POST', '/v1/import/de?status=approved', { a: 'A', b: 'B' })).status).toBe(200);
  expect((await t.call(p.apiKey, 'POST', '/v1/import/de?status=draft', { c: 'C' })).status).toBe(200);
  await p.key('d');
});

describe('previewImport', () => {
  it('samples what the dry run counts: new keys, new values, changed values before and after, approved values demoted', async () => {
    const before = await snapshot();
    const preview = await previewImport(t.runtime.deps, command(FILE));
    const { changes, ...answer } = preview;
    expect(answer).toEqual(await importFile(t.runtime.deps, { ...command(FILE), dryRun: true }));
    expect(answer).toMatchObject({ dry_run: true, keys_created: 1, values_created: 2, values_updated: 3, values_unchanged: 0 });
    expect(changes).toEqual({
      new_keys: ['fresh'],
      new_values: [
        { key: 'd', value: 'D' },
        { key: 'fresh', value: 'Frisch' },
      ],
      changed_values: [
        { key: 'a', before: { value: 'A', status: 'approved' }, after: { value: 'A neu', status: 'draft' } },
        { key: 'b', before: { value: 'B', status: 'approved' }, after: { value: 'B', status: 'draft' } },
        { key: 'c', before: { value: 'C', status: 'draft' }, after: { value: 'C neu', status: 'draft' } },
      ],
      changed_descriptions: [],
      tagged_keys: [],
      approved_demoted: 2,
      values_kept: 0,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('approved stays approved: no demotion; conflict=keep: nothing changed, the differing values counted as kept', async () => {
    const approved = await previewImport(t.runtime.deps, command(FILE, { status: 'approved' }));
    expect(approved.changes.approved_demoted).toBe(0);
    expect(approved.changes.changed_values.map((c) => c.key)).toEqual(['a', 'c']); // b: same text, same status
    const kept = await previewImport(t.runtime.deps, command(FILE, { conflict: 'keep' }));
    expect(kept).toMatchObject({ values_updated: 0, values_unchanged: 3, changes: { changed_values: [], approved_demoted: 0, values_kept: 3 } });
    expect(kept.changes.new_keys).toEqual(['fresh']);
  });

  it('refuses as the import does (conflict=fail is a 409 naming the keys)', async () => {
    await expect(previewImport(t.runtime.deps, command(FILE, { conflict: 'fail' }))).rejects.toMatchObject({ message: expect.stringMatching(/would change for a, b, c$/) });
  });

  it('lists the first 100 of each kind in the file order; the counts and the demotions count them all', async () => {
    const q = await project(t, ['de']);
    const file = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`k${String(i).padStart(3, '0')}`, `W${i}`]));
    expect((await t.call(q.apiKey, 'POST', '/v1/import/de?status=approved', Object.fromEntries(Object.keys(file).slice(0, 110).map((k) => [k, 'alt'])))).status).toBe(200);
    const preview = await previewImport(t.runtime.deps, { ...command(file), projectId: q.projectId, actor: { type: 'api_key', id: q.apiKeyId } });
    expect(preview).toMatchObject({ keys_created: 20, values_created: 20, values_updated: 110 });
    expect(preview.changes.new_keys).toEqual(Object.keys(file).slice(110));
    expect(preview.changes.changed_values).toHaveLength(100);
    expect(preview.changes.changed_values.at(-1)!.key).toBe('k099');
    expect(preview.changes.approved_demoted).toBe(110);
  });
});

describe("the API's import answer", () => {
  it('is the ImportResult fields only, dry run or not: no sample of changes (and values only when asked)', async () => {
    const fields = Object.keys(ImportResult.entries)
      .filter((f) => f !== 'values')
      .sort();
    const dry = await body(await t.call(p.apiKey, 'POST', '/v1/import/de?dry_run=true', FILE));
    expect(Object.keys(dry).sort()).toEqual(fields);
    expect(v.is(ImportResult, dry)).toBe(true);
    const core = await importFile(t.runtime.deps, { ...command(FILE), dryRun: true });
    expect(Object.keys(core).sort()).toEqual(fields);
  });
});
