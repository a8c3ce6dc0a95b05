// Quality checks where values are written, on both databases: the warnings a PUT and an import
// answer with, and the project setting quality_blocking that refuses approvals (PUT, bulk status,
// import) with a 422 naming the value and the check, writing nothing. docs/quality.md.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

async function key(p: TestProject, name: string, source?: string): Promise<string> {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  if (source !== undefined) await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: source, status: 'approved' }));
  return k.id;
}

const put = (p: TestProject, keyId: string, language: string, value: string, status = 'draft') =>
  t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status });

const importFile = (p: TestProject, language: string, file: Record<string, string>, status: string) =>
  t.app.request(`/v1/import/${language}?format=json&status=${status}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(file),
  });

const block = (p: TestProject, checks: unknown) => t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: checks });

describe('quality warnings in write answers', () => {
  it("answers a PUT with the checks' warnings against the key's source value, and [] when there is nothing to say", async () => {
    const p = await project();
    const id = await key(p, 'greeting', 'Hello {name}!');

    const broken = await json(await put(p, id, 'de', 'Hallo!'));
    expect(broken.warnings).toEqual([{ check: 'placeholders', message: 'Missing placeholder {name}' }]);
    expect(broken).toMatchObject({ value: 'Hallo!', status: 'draft' });

    expect((await json(await put(p, id, 'de', 'Hallo {name}!'))).warnings).toEqual([]);

    // The source language's value is the source: judged alone (its ICU syntax), never against itself.
    const source = await json(await put(p, id, 'en', 'Hello {name'));
    expect(source.warnings.map((w: { check: string }) => w.check)).toEqual(['icu_syntax']);
    // A key without a source value: only what needs no source.
    const lone = await key(p, 'lone');
    expect((await json(await put(p, lone, 'de', ' Hallo'))).warnings).toEqual([]);
  });

  it('follows the project source language', async () => {
    const p = await project();
    const id = await key(p, 'k', 'Hello {name}');
    await json(await put(p, id, 'de', 'Hallo', 'approved'));
    await json(await t.admin('PATCH', `/projects/${p.projectId}`, { source_language: 'de' }));
    // Now German is the source and English is judged against it.
    const en = await json(await put(p, id, 'en', 'Hello {name}'));
    expect(en.warnings).toEqual([{ check: 'placeholders', message: 'Placeholder not in the source: {name}' }]);
  });

  it("lists an import's warnings (how many, and which) without refusing drafts", async () => {
    const p = await project();
    await key(p, 'a', 'Hello {name}');
    await key(p, 'b', 'Bye.');
    const res = await json(await importFile(p, 'de', { a: 'Hallo', b: 'Tschüss.', c: 'Neu <b>fett' }, 'draft'));
    expect(res.values_created).toBe(3);
    expect(res.quality_warnings.count).toBe(2);
    expect(res.quality_warnings.values).toEqual([
      { key: 'a', check: 'placeholders', message: 'Missing placeholder {name}' },
      { key: 'c', check: 'html_tags', message: expect.stringContaining('<b>') },
    ]);
  });
});

describe('quality_blocking: chosen checks refuse approval', () => {
  it('is a project setting, validated, shown by the admin API', async () => {
    const p = await project();
    expect((await json(await t.admin('GET', `/projects/${p.projectId}`))).quality_blocking).toEqual([]);
    const bad = await block(p, ['placeholders', 'spelling']);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('quality_blocking');
    expect((await block(p, 'placeholders')).status).toBe(422);
    const set = await json(await block(p, ['plurals', 'placeholders', 'placeholders']));
    expect(set.quality_blocking).toEqual(['placeholders', 'plurals']);
    expect((await json(await t.admin('GET', `/projects/${p.projectId}`))).quality_blocking).toEqual(['placeholders', 'plurals']);
    expect((await json(await block(p, []))).quality_blocking).toEqual([]);
  });

  it('refuses an approving PUT that a blocking check flags, writing nothing; drafts and clean approvals pass', async () => {
    const p = await project();
    const id = await key(p, 'greeting', 'Hello {name}, you have <b>{count}</b> messages.');
    await json(await block(p, ['placeholders']));

    await json(await put(p, id, 'de', 'Hallo {name}, Sie haben <b>{count}</b> Nachrichten.', 'approved'));
    const refused = await put(p, id, 'de', 'Hallo, Sie haben <b>{count}</b> Nachrichten.', 'approved');
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.detail).toEqual([
      {
        loc: ['body', 'value'],
        msg: expect.stringMatching(/cannot be approved: Missing placeholder \{name\} \(quality check placeholders blocks approval/),
        type: 'quality.placeholders',
      },
    ]);
    // Nothing written: the approved value stays.
    const stored = await json(await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`));
    expect(stored).toMatchObject({ value: 'Hallo {name}, Sie haben <b>{count}</b> Nachrichten.', status: 'approved' });

    // Not blocking: a draft with the same problem is written, with its warning.
    const draft = await json(await put(p, id, 'de', 'Hallo, Sie haben <b>{count}</b> Nachrichten.', 'draft'));
    expect(draft.warnings).toEqual([{ check: 'placeholders', message: 'Missing placeholder {name}' }]);
    // A check that is not chosen only warns, even when approving.
    const tags = await json(await put(p, id, 'de', 'Hallo {name}, Sie haben {count} Nachrichten.', 'approved'));
    expect(tags.warnings.map((w: { check: string }) => w.check)).toEqual(['html_tags']);
    // An unknown key is still a 404, not a quality refusal.
    expect((await put(p, '00000000-0000-4000-8000-000000000000', 'de', 'x', 'approved')).status).toBe(404);
  });

  it('refuses a bulk approval as a whole, pointing at the key in key_ids', async () => {
    const p = await project();
    const good = await key(p, 'good', 'Save {n} files');
    const bad = await key(p, 'bad', 'Open {n} files');
    await json(await put(p, good, 'de', '{n} Dateien speichern', 'review'));
    await json(await put(p, bad, 'de', 'Dateien öffnen', 'review'));
    await json(await block(p, ['placeholders']));

    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [good, bad], languages: ['de'], status: 'approved' });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0]).toMatchObject({ loc: ['body', 'key_ids', 1], type: 'quality.placeholders', msg: expect.stringContaining('bad (de) cannot be approved') });
    for (const id of [good, bad]) expect((await json(await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`))).status).toBe('review');

    // Through a filter the refusal points at the filter.
    const byFilter = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { filter: { language: 'de' }, languages: ['de'], status: 'approved' });
    expect(byFilter.status).toBe(422);
    expect((await byFilter.json()).detail[0].loc).toEqual(['body', 'filter']);

    await json(await put(p, bad, 'de', '{n} Dateien öffnen', 'review'));
    expect((await json(await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [good, bad], languages: ['de'], status: 'approved' }))).changed).toBe(2);
  });

  it('refuses an import as approved when a value is blocked, writing nothing; as draft it goes in', async () => {
    const p = await project();
    await key(p, 'a', 'You have {count, plural, one {# file} other {# files}}');
    await json(await block(p, ['plurals', 'placeholders']));
    // Russian needs one/few/many/other; the file gives one/other only.
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'ru' }));
    const file = { a: 'У вас {count, plural, one {# файл} other {# файлов}}', b: 'Новый' };
    const refused = await importFile(p, 'ru', file, 'approved');
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.detail[0]).toMatchObject({ loc: ['file', 'a'], type: 'quality.plurals' });
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/keys?search=b'))).keys.map((k: { key: string }) => k.key)).not.toContain('b');

    const drafted = await json(await importFile(p, 'ru', file, 'draft'));
    expect(drafted.values_created).toBe(2);
    expect(drafted.quality_warnings.values[0]).toMatchObject({ key: 'a', check: 'plurals' });
  });
});
