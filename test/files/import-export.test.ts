// POST /v1/import/{language} and GET /v1/export/{language} through HTTP: all-or-nothing imports,
// conflict policies, dry runs, plan limits, and exports with ETags, on both databases.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

function importFile(t: TestApp, p: Project, language: string, file: string | Uint8Array, query = '', contentType = 'application/octet-stream') {
  return t.app.request(`/v1/import/${language}${query}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': contentType },
    body: file,
  });
}

const flat = (values: Record<string, string>) => JSON.stringify(values);

async function liveKeys(p: Project): Promise<string[]> {
  return (await body(await p.get('/v1/keys'))).keys.map((k: { key: string }) => k.key);
}

describe('import', () => {
  it('creates keys and values, derives groups from the key prefix, and answers the counts', async () => {
    const p = await project(t, ['de']);
    const res = await importFile(t, p, 'de', flat({ 'home.title': 'Willkommen', 'home.body': 'Text', plain: 'Ohne Gruppe' }), '?format=json');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await body(res)).toEqual({
      project_id: p.projectId,
      language: 'de',
      format: 'json',
      dry_run: false,
      keys_created: 3,
      values_created: 3,
      values_updated: 0,
      values_unchanged: 0,
      values_kept: 0,
      descriptions_updated: 0,
      keys_tagged: 0,
      translation_units: 3,
      warnings: [],
      quality_warnings: { count: 0, values: [] },
    });
    const keys = (await body(await p.get('/v1/keys'))).keys as { key: string; group_name: string }[];
    expect(Object.fromEntries(keys.map((k) => [k.key, k.group_name]))).toEqual({ 'home.body': 'home', 'home.title': 'home', plain: 'Default' });
    // Default status is draft: not served as approved.
    expect((await body(await p.get('/v1/translations/de?status=draft'))).translations).toEqual({
      'home.title': 'Willkommen',
      'home.body': 'Text',
      plain: 'Ohne Gruppe',
    });
  });

  it('a second import of the same file changes nothing and costs nothing', async () => {
    const p = await project(t, ['de']);
    const file = flat({ a: '1', b: '2' });
    expect((await importFile(t, p, 'de', file)).status).toBe(200);
    const again = await body(await importFile(t, p, 'de', file));
    expect(again).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, values_unchanged: 2, translation_units: 0 });
  });

  it('a status-only change is an update but no translation unit (the text is already stored)', async () => {
    const p = await project(t, ['de']);
    await importFile(t, p, 'de', flat({ a: 'x' }));
    const res = await body(await importFile(t, p, 'de', flat({ a: 'x' }), '?status=approved'));
    expect(res).toMatchObject({ values_updated: 1, translation_units: 0 });
    expect((await body(await p.get('/v1/translations/de'))).translations).toEqual({ a: 'x' });
  });

  it('conflict=keep leaves existing values alone; conflict=fail refuses the whole file naming the keys', async () => {
    const p = await project(t, ['de']);
    await importFile(t, p, 'de', flat({ a: 'old', b: 'old' }));
    const kept = await body(await importFile(t, p, 'de', flat({ a: 'new', c: 'new' }), '?conflict=keep'));
    expect(kept).toMatchObject({ keys_created: 1, values_created: 1, values_updated: 0, values_unchanged: 1, values_kept: 1 });
    const refused = await importFile(t, p, 'de', flat({ a: 'newer', d: 'fresh' }), '?conflict=fail');
    expect(refused.status).toBe(409);
    expect((await body(refused)).detail).toContain('a');
    // Nothing of the refused file was written, not even the new key d.
    expect(await liveKeys(p)).toEqual(['a', 'b', 'c']);
    expect((await body(await p.get('/v1/translations/de?status=all'))).translations.a.value).toBe('old');
  });

  it('a dry run answers the same counts and writes nothing', async () => {
    const p = await project(t, ['de']);
    const dry = await body(await importFile(t, p, 'de', flat({ a: '1', b: '2' }), '?dry_run=true'));
    expect(dry).toMatchObject({ dry_run: true, keys_created: 2, values_created: 2, translation_units: 2 });
    expect(await liveKeys(p)).toEqual([]);
    const usage = await body(await p.get('/v1/usage'));
    expect(usage.translation_units_used).toBe(0);
  });

  it('values=true lists every key of the file with the text it reads (plurals as ICU, namespace prefixed); without it, no list', async () => {
    const p = await project(t, ['de']);
    const file = '{"title": "Willkommen", "notes_one": "{{count}} Notiz", "notes_other": "{{count}} Notizen", "__proto__": "Eigen"}';
    const dry = await body(await importFile(t, p, 'de', file, '?format=i18next&namespace=home&dry_run=true&values=true'));
    expect(dry.values).toEqual({
      'home.title': 'Willkommen',
      'home.notes': '{count, plural, one {# Notiz} other {# Notizen}}',
      'home.__proto__': 'Eigen',
    });
    expect(await liveKeys(p)).toEqual([]);
    expect(await body(await importFile(t, p, 'de', file, '?format=i18next&namespace=home&dry_run=true'))).not.toHaveProperty('values');
    const bad = await importFile(t, p, 'de', file, '?format=i18next&values=yes');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await body(bad))).toContain('values must be true or false');
  });

  it('bad files are a 422 that says where, and write nothing', async () => {
    const p = await project(t, ['de']);
    const cases: [string, string][] = [
      ['{"a": "1", "b": ', 'truncated JSON'],
      ['["not", "an", "object"]', 'wrong shape'],
      [flat({ ok: 'fine', ['x'.repeat(501)]: 'too long a key' }), 'key over 500 characters'],
      [flat({ ok: 'fine', long: 'v'.repeat(10_001) }), 'value over 10,000 characters'],
      [flat({ ok: 'fine', bad: 'nul\u0000inside' }), 'NUL in a value'],
    ];
    for (const [file, what] of cases) {
      const res = await importFile(t, p, 'de', file);
      expect(res.status, what).toBe(422);
      const { detail } = await body(res);
      expect(Array.isArray(detail), what).toBe(true);
      expect(detail[0].loc[0], what).toBe('body');
    }
    expect(await liveKeys(p)).toEqual([]);
  });

  it('a PO message or .strings key with a line break is skipped with a warning, the rest imported; an over-long PO msgid still refuses the file', async () => {
    const p = await project(t, ['de']);
    const po = 'msgid "Two\\nlines"\nmsgstr "Zwei\\nZeilen"\n\nmsgid "Save"\nmsgstr "Speichern"\n';
    const res = await importFile(t, p, 'de', po, '?format=po');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await body(res)).toMatchObject({ keys_created: 1, warnings: [expect.stringMatching(/^1 message was skipped because tms keys cannot contain line breaks.*"Two\\nlines" \(line 1\)$/)] });
    const strings = await importFile(t, p, 'de', '"Tab\there" = "x";\n"Open" = "Öffnen";\n', '?format=ios-strings');
    expect(strings.status).toBe(200);
    expect((await body(strings)).warnings).toEqual([expect.stringMatching(/"Tab\\there" \(line 1\)$/)]);
    expect((await liveKeys(p)).sort()).toEqual(['Open', 'Save']);
    const long = await importFile(t, p, 'de', `msgid "${'x'.repeat(501)}"\nmsgstr "y"\n`, '?format=po');
    expect(long.status).toBe(422);
  });

  it("a gettext template (.pot) imported into the source language takes its msgids as the values; into another language they stay untranslated", async () => {
    const p = await project(t, ['en', 'de']);
    const pot = [
      'msgid ""',
      'msgstr ""',
      '"Content-Type: text/plain; charset=UTF-8\\n"',
      '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"',
      '',
      '#. The save button',
      'msgid "Save"',
      'msgstr ""',
      '',
      'msgid "One file"',
      'msgid_plural "%d files"',
      'msgstr[0] ""',
      'msgstr[1] ""',
      '',
    ].join('\n');
    const source = await importFile(t, p, 'en', pot, '?format=po&status=approved');
    expect(source.status, await source.clone().text()).toBe(200);
    expect(await body(source)).toMatchObject({ keys_created: 2, values_created: 2, warnings: [] });
    expect((await body(await p.get('/v1/translations/en'))).translations).toEqual({ Save: 'Save', 'One file': '{count, plural, one {One file} other {# files}}' });
    expect((await body(await p.get('/v1/keys'))).keys.find((k: { key: string }) => k.key === 'Save').description).toBe('The save button');
    const target = await importFile(t, p, 'de', pot, '?format=po');
    expect(await body(target)).toMatchObject({ values_created: 0, warnings: ['2 untranslated messages were skipped (empty msgstr)'] });
  });

  it('a PO msgid is a text: its new key goes to the Default group (or group=), not to its first sentence', async () => {
    const p = await project(t, ['de']);
    const po = 'msgid "File not found. Try again."\nmsgstr "Datei nicht gefunden. Nochmal."\n\nmsgid "home.title"\nmsgstr "Start"\n';
    expect((await importFile(t, p, 'de', po, '?format=po')).status).toBe(200);
    const keys = (await body(await p.get('/v1/keys'))).keys as { key: string; group_name: string }[];
    expect(Object.fromEntries(keys.map((k) => [k.key, k.group_name]))).toEqual({ 'File not found. Try again.': 'Default', 'home.title': 'Default' });
  });

  it('unknown format and bad query values are 422; an unregistered language is 404', async () => {
    const p = await project(t, ['de']);
    expect((await importFile(t, p, 'de', '{}', '?format=docx')).status).toBe(422);
    expect((await importFile(t, p, 'de', '{}', '?conflict=maybe')).status).toBe(422);
    expect((await importFile(t, p, 'de', '{}', '?dry_run=yes')).status).toBe(422);
    expect((await importFile(t, p, 'fr', flat({ a: 'b' }))).status).toBe(404);
    expect((await importFile(t, p, 'not a language', flat({ a: 'b' }))).status).toBe(422);
  });

  it("the plan's key limit refuses the whole file with 402", async () => {
    const p = await project(t, ['de'], 'free');
    const many = Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`k${i}`, 'v']));
    const res = await importFile(t, p, 'de', flat(many));
    expect(res.status).toBe(402);
    expect(typeof (await body(res)).detail).toBe('string');
    expect(await liveKeys(p)).toEqual([]);
  });

  it('takes files up to 10 MiB, refuses larger ones with 413', async () => {
    const p = await project(t, ['de']);
    const big = '{"a": "' + 'x'.repeat(10 * 1024 * 1024) + '"}';
    const res = await importFile(t, p, 'de', big);
    expect(res.status).toBe(413);
    expect(typeof (await body(res)).detail).toBe('string');
  });

  it('an import records one event with its counts and its actor', async () => {
    const p = await project(t, ['de']);
    await importFile(t, p, 'de', flat({ a: '1', b: '2' }));
    const events = await t.runtime.deps.sql<{ type: string; actor_type: string; actor_id: string; after: { keys_created: number } }[]>`
      select type, actor_type, actor_id, after from domain_events where project_id = ${p.projectId} and type = 'translation.imported'`;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_type: 'api_key', actor_id: p.apiKeyId, after: { keys_created: 2 } });
    // Every count of the answer, unchanged values too (the activity log says "1 unchanged").
    await importFile(t, p, 'de', flat({ a: '1', b: 'zwei', c: '3' }));
    const [second] = await t.runtime.deps.sql<{ after: unknown }[]>`
      select after from domain_events where project_id = ${p.projectId} and type = 'translation.imported' order by id desc limit 1`;
    expect(second!.after).toMatchObject({ keys_created: 1, values_created: 1, values_updated: 1, values_unchanged: 1, translation_units: 2 });
  });
});

describe('export', () => {
  it('exports approved values by default, with filename, type and a strong ETag answering 304', async () => {
    const p = await project(t, ['de']);
    await importFile(t, p, 'de', flat({ 'b.two': 'Zwei', 'a.one': 'Eins' }), '?status=approved');
    await importFile(t, p, 'de', flat({ 'c.draft': 'Entwurf' }));
    const res = await p.get('/v1/export/de?format=json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="de.json"');
    expect(res.headers.get('content-type')).toContain('json');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(JSON.parse(await res.text())).toEqual({ 'a.one': 'Eins', 'b.two': 'Zwei' });
    const again = await t.call(p.apiKey, 'GET', '/v1/export/de?format=json', undefined, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    const all = JSON.parse(await (await p.get('/v1/export/de?format=json&status=all')).text());
    expect(Object.keys(all).sort()).toEqual(['a.one', 'b.two', 'c.draft']);
    const group = JSON.parse(await (await p.get('/v1/export/de?format=json&group=a')).text());
    expect(group).toEqual({ 'a.one': 'Eins' });
  });

  it('the same data exports to the same bytes; import(export(x)) changes nothing', async () => {
    const p = await project(t, ['de']);
    await importFile(t, p, 'de', flat({ z: 'letzte', a: 'erste', 'm.x': 'mitte "zitiert"' }), '?status=approved');
    const first = await (await p.get('/v1/export/de?format=json')).text();
    const second = await (await p.get('/v1/export/de?format=json')).text();
    expect(second).toBe(first);
    const again = await body(await importFile(t, p, 'de', first, '?status=approved'));
    expect(again).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, translation_units: 0 });
  });

  it('XLIFF needs a source language; unknown languages are 404; unknown formats 422', async () => {
    const p = await project(t, ['de', 'en']);
    expect((await p.get('/v1/export/de?format=xliff')).status).toBe(422);
    expect((await p.get('/v1/export/de?format=xliff&source=en')).status).toBe(200);
    expect((await p.get('/v1/export/fr?format=json')).status).toBe(404);
    expect((await p.get('/v1/export/de?format=xliff&source=fr')).status).toBe(404);
    expect((await p.get('/v1/export/de?format=docx')).status).toBe(422);
  });

  it('an Android export refused for key names lists every key to rename, up to 100, then how many more', async () => {
    const p = await project(t, ['de']);
    const keys = Object.fromEntries(Array.from({ length: 103 }, (_, i) => [`home-item-${String(i).padStart(3, '0')}`, `Eintrag ${i}`]));
    expect((await importFile(t, p, 'de', flat({ ...keys, 'app.title': 'App', 'settings-title': 'Einstellungen' }), '?status=approved')).status).toBe(200);
    const refused = await p.get('/v1/export/de?format=android');
    expect(refused.status).toBe(422);
    const detail = (await refused.json()).detail as { loc: string[]; msg: string }[];
    expect(detail).toHaveLength(101);
    expect(detail[0]).toMatchObject({ loc: ['query', 'format', 'home-item-000'], msg: expect.stringContaining("'home-item-000' is not a valid Android resource name") });
    expect(detail.map((d) => d.loc[2])).toContain('home-item-099');
    expect(detail.at(-1)).toMatchObject({ loc: ['query', 'format'], msg: 'and 4 more' });
    expect(detail.some((d) => d.loc[2] === 'app.title')).toBe(false);
  });
});

describe('usage', () => {
  it('reports calls today and translation units against the allowance', async () => {
    const p = await project(t, ['de'], 'free');
    await importFile(t, p, 'de', flat({ a: '1', b: '2', c: '3' }));
    const usage = await body(await p.get('/v1/usage'));
    expect(usage).toMatchObject({
      project_id: p.projectId,
      daily_limit: 5000,
      translation_units_used: 3,
      translation_units_allowance: 1000,
    });
    expect(usage.calls_today).toBeGreaterThanOrEqual(3);
    const resets = new Date(usage.cycle_resets_at);
    expect(resets.getUTCDate()).toBe(1);
    expect(resets.getTime()).toBeGreaterThan(Date.now());
  });
});
