// core/files called directly: an import is all or nothing (one bad entry refuses the file, located
// by its key; conflict=fail refuses any change), one event per file, the plan's key limit counted
// for the whole file; an export is deterministic and shows only its own project's values.
import { describe, expect, it } from 'vitest';
import { importFile } from '../../core/files/import-file.ts';
import { exportFile } from '../../core/files/export-file.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { domainError, liveKeyCount, seedKeys, useCore, type CoreProject } from './support/core-harness.ts';

const core = useCore();

const json = (values: Record<string, string>) => new TextEncoder().encode(JSON.stringify(values));

const importInto = (p: CoreProject, body: Uint8Array<ArrayBuffer>, options: Partial<{ conflict: 'overwrite' | 'keep' | 'fail'; status: 'draft' | 'approved'; language: string }> = {}) =>
  importFile(core.deps, {
    projectId: p.projectId,
    language: options.language ?? 'de',
    format: 'json',
    status: options.status ?? 'approved',
    conflict: options.conflict ?? 'overwrite',
    dryRun: false,
    group: 'Default',
    body,
    actor: p.actor,
  });

const exported = async (p: CoreProject, status: 'approved' | 'all' = 'approved') =>
  new TextDecoder().decode((await exportFile(core.deps, { projectId: p.projectId, language: 'de', format: 'json', status })).body);

async function project(plan: 'free' | 'team' = 'team') {
  const p = await core.newProject(plan);
  await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
  return p;
}

describe('importFile', () => {
  it('writes keys (grouped by their prefix) and values, and records one translation.imported event with the counts', async () => {
    const p = await project();
    const since = await core.lastEventId();
    expect(await importInto(p, json({ 'home.title': 'Start', 'home.body': 'Text', plain: 'Ohne' }))).toMatchObject({
      keys_created: 3,
      values_created: 3,
      values_updated: 0,
    });
    expect((await listKeys(core.deps, { projectId: p.projectId })).keys.map((k) => [k.key, k.group_name])).toEqual([
      ['home.body', 'home'],
      ['home.title', 'home'],
      ['plain', 'Default'],
    ]);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([
      expect.objectContaining({
        type: 'translation.imported',
        entity_type: 'language',
        entity_id: 'de',
        actor_id: p.apiKeyId,
        after: expect.objectContaining({ format: 'json', keys_created: 3, values_created: 3, values_updated: 0 }),
      }),
    ]);
    // A file that changes nothing records nothing.
    const unchanged = await core.lastEventId();
    await importInto(p, json({ 'home.title': 'Start' }));
    expect(await core.events({ projectId: p.projectId }, unchanged)).toEqual([]);
  });

  it('refuses the whole file when one entry is invalid, locating it by its key, writing nothing', async () => {
    const p = await project();
    const since = await core.lastEventId();
    const error = await domainError(importInto(p, json({ good: 'ok', 'bad\u0001key': 'x', long: 'v'.repeat(10_001) })), 'validation');
    expect(error.issues?.map((i) => i.loc)).toEqual([
      ['body', 'bad\u0001key'],
      ['body', 'long'],
    ]);
    const format = await domainError(importInto(p, new TextEncoder().encode('{"a": {"nested": "x"}}')), 'validation');
    expect(format.issues?.[0]).toMatchObject({ loc: ['body', 'a'], type: 'format_invalid' });
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(0);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
    await domainError(importInto(p, json({ a: 'b' }), { language: 'fr' }), 'not_found');
  });

  it('conflict=fail refuses any change to a stored value, naming it; keep leaves stored values alone', async () => {
    const p = await project();
    await importInto(p, json({ a: 'eins', b: 'zwei' }));
    const since = await core.lastEventId();
    const refused = await domainError(importInto(p, json({ a: 'EINS', c: 'drei' }), { conflict: 'fail' }), 'conflict');
    expect(refused.message).toContain('a');
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(2);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);

    expect(await importInto(p, json({ a: 'EINS', c: 'drei' }), { conflict: 'keep' })).toMatchObject({ keys_created: 1, values_unchanged: 1 });
    expect(JSON.parse(await exported(p))).toEqual({ a: 'eins', b: 'zwei', c: 'drei' });
  });

  it("counts the whole file against the plan's key limit", async () => {
    const p = await project('free'); // 250 keys
    await seedKeys(core.deps, p.projectId, 248);
    const error = await domainError(importInto(p, json({ x: '1', y: '2', z: '3' })), 'plan_limit');
    expect(error.data).toEqual({ resource: 'keys', plan: 'free', limit: 250, current: 248, adding: 3 });
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(248);
  });
});

describe('exportFile', () => {
  it('exports approved values by default, deterministically, and only its own project', async () => {
    const a = await project();
    await importInto(a, json({ 'b.key': 'B', 'a.key': 'A' }));
    await importInto(a, json({ 'c.draft': 'C' }), { status: 'draft' });
    const first = await exportFile(core.deps, { projectId: a.projectId, language: 'de', format: 'json', status: 'approved' });
    const second = await exportFile(core.deps, { projectId: a.projectId, language: 'de', format: 'json', status: 'approved' });
    expect(Buffer.from(first.body).equals(Buffer.from(second.body))).toBe(true);
    expect(first.etag).toBe(second.etag);
    expect(first.filename).toBe('de.json');
    expect(JSON.parse(await exported(a))).toEqual({ 'a.key': 'A', 'b.key': 'B' });
    expect(Object.keys(JSON.parse(await exported(a, 'all')))).toEqual(['a.key', 'b.key', 'c.draft']);

    const b = await project();
    expect(JSON.parse(await exported(b))).toEqual({});
    const other = await core.newProject();
    await domainError(exportFile(core.deps, { projectId: other.projectId, language: 'de', format: 'json', status: 'approved' }), 'not_found');
  });
});
