// An export imported back, into the same project or a fresh one, gives the values it held (docs/
// formats.md, "What each format cannot carry"). Two exports once read back different values:
// - i18next wrote stored keys `items_one` / `items_other` (no key `items`) as they are, which read
//   back as one plural key `items`: importing the export created it, and `tms pull` then `tms push
//   --remove-unused` created `items` and deleted `items_one` and `items_other`. The export is now
//   refused with a 422 naming the keys, and `tms pull` says so.
// - XLIFF 1.2 and 2.0 wrote an empty value as an empty <target>, which import skips as untranslated.
//   It is now marked translated and read back as the empty value.
// And what moving a project to a fresh one through files keeps and renames.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp, type ServedApp } from '../cli/support/served-app.ts';
import { runTms } from '../cli/support/run-tms.ts';
import type { TestProject } from '../support/test-app.ts';

let s: ServedApp;
beforeAll(async () => {
  s = await serveTestApp();
});
afterAll(async () => {
  await s?.close();
});

async function project(values: [key: string, en: string, de: string | null][]): Promise<TestProject> {
  const p = await s.t.newProject('team');
  for (const code of ['en', 'de']) expect((await s.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const [key, en, de] of values) {
    const res = await s.t.call(p.apiKey, 'POST', '/v1/keys', { key });
    expect(res.status).toBe(201);
    const id = (await res.json()).id;
    expect((await s.t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: en, status: 'approved' })).status).toBe(200);
    if (de !== null) expect((await s.t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: de, status: 'approved' })).status).toBe(200);
  }
  return p;
}
const upload = (p: TestProject, format: string, file: string) =>
  s.t.app.request(`/v1/import/de?format=${format}&status=approved`, { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
const keysOf = async (p: TestProject) => ((await (await s.t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string }[]).map((k) => k.key).sort();

describe('i18next: stored keys named like plural forms', () => {
  const VALUES: [string, string, string][] = [
    ['items_one', 'one thing', 'ein Ding'],
    ['items_other', 'things', 'Dinge'],
    ['home.title', 'Home', 'Start'],
  ];

  it('the export is refused with a 422 naming each key, and the project is unchanged by it', async () => {
    const p = await project(VALUES);
    const res = await s.t.call(p.apiKey, 'GET', '/v1/export/de?format=i18next');
    expect(res.status).toBe(422);
    const detail = (await res.json()).detail as { loc: string[]; msg: string; type: string }[];
    expect(detail.map((d) => d.loc)).toEqual([
      ['query', 'format', 'items_one'],
      ['query', 'format', 'items_other'],
    ]);
    expect(detail[0]).toMatchObject({ type: 'format_unsupported', msg: expect.stringContaining("one plural key 'items'") });
    // Other formats carry them; a plural stored at `items` exports as i18next's own forms.
    expect((await s.t.call(p.apiKey, 'GET', '/v1/export/de?format=json')).status).toBe(200);
    expect(await keysOf(p)).toEqual(['home.title', 'items_one', 'items_other']);
  });

  it('a plural key exported as i18next forms and imported back changes nothing', async () => {
    const p = await project([['items', '{count, plural, one {# thing} other {# things}}', '{count, plural, one {# Ding} other {# Dinge}}']]);
    const file = await (await s.t.call(p.apiKey, 'GET', '/v1/export/de?format=i18next')).text();
    expect(JSON.parse(file)).toEqual({ items_one: '{{count}} Ding', items_other: '{{count}} Dinge' });
    const res = await upload(p, 'i18next', file);
    expect(await res.json()).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, translation_units: 0 });
    expect(await keysOf(p)).toEqual(['items']);
  });

  it('tms pull stops with the refusal naming the keys, and writes no file (so no push --remove-unused can delete them)', async () => {
    const p = await project(VALUES);
    const dir = await mkdtemp(join(tmpdir(), 'tms-i18next-'));
    try {
      await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: s.base, sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'i18next' }] }));
      const pull = await runTms(['pull', '--include-source'], { cwd: dir, apiKey: p.apiKey });
      expect(pull.code).not.toBe(0);
      expect(pull.stderr).toContain('refused (422)');
      expect(pull.stderr).toContain('query.format.items_one: i18next reads the keys items_one, items_other as the forms of one plural key');
      expect(pull.stderr).toContain('query.format.items_other');
      expect(await readdir(dir)).toEqual(['tms.config.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('xliff: an empty value', () => {
  it.each(['xliff', 'xliff2'])('%s: exported, then imported into a fresh project, is kept', async (format) => {
    const a = await project([['home.suffix', ' (copy)', '']]);
    const res = await s.t.call(a.apiKey, 'GET', `/v1/export/de?format=${format}&source=en`);
    expect(res.status).toBe(200);
    const file = await res.text();
    // A fresh project with only the key and its source value.
    const b = await project([['home.suffix', ' (copy)', null]]);
    const imported = await upload(b, format, file);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ keys_created: 0, values_created: 1, warnings: [] });
    const read = await s.t.call(b.apiKey, 'GET', '/v1/translations/de?status=all');
    expect((await read.json()).translations['home.suffix']).toMatchObject({ value: '' });
    // And the same file into the project it came from is no change.
    expect(await (await upload(a, format, file)).json()).toMatchObject({ values_created: 0, values_updated: 0, translation_units: 0, warnings: [] });
  });
});

describe('moving a project to a fresh one (docs/formats.md, "Leaving tms, or moving a project")', () => {
  type Spec = { key: string; group?: string; description?: string; values: Record<string, [string, 'draft' | 'review' | 'approved']> };
  const SPECS: Spec[] = [
    { key: 'home.title', description: 'Title of the home screen', values: { en: ['Welcome', 'approved'], de: ['Willkommen', 'approved'] } },
    { key: 'home.greeting', values: { en: ['Hello, {name}!', 'approved'], de: ['Hallo, {name}!', 'review'] } },
    { key: 'home.draft', values: { en: ['Draft', 'approved'], de: ['Entwurf', 'draft'] } },
    { key: 'files.count', group: 'counts', values: { en: ['{count, plural, one {# file} other {# files}}', 'approved'], de: ['{count, plural, =0 {keine} one {# Datei} other {# Dateien}}', 'approved'] } },
    { key: 'Save changes', values: { en: ['Save changes', 'approved'], de: ['Änderungen speichern', 'approved'] } },
    { key: 'settings.theme', group: 'prefs', description: 'Theme\nsecond line -- */ <b>', values: { en: ['Theme', 'approved'], de: [' Thema "x"\n', 'approved'] } },
    { key: 'empty.value', values: { en: ['', 'approved'], de: ['', 'draft'] } },
    { key: 'items_one', values: { en: ['one', 'approved'] } },
    { key: 'no.values', description: 'not yet written', values: {} },
  ];

  async function state(p: TestProject) {
    const keys = (await (await s.t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string; group_name: string; description: string | null }[];
    const out: Record<string, Record<string, string | null>> = {};
    for (const k of keys) out[k.key] = { group: k.group_name, description: k.description };
    for (const language of ['en', 'de']) {
      const read = await (await s.t.call(p.apiKey, 'GET', `/v1/translations/${language}?status=all`)).json();
      for (const [k, v] of Object.entries(read.translations as Record<string, { value: string; status: string }>)) out[k]![language] = `${v.status}:${v.value}`;
    }
    return out;
  }

  it('csv, one export and import per language and status, keeps names, groups, descriptions, plurals, empty values and statuses; a key with no value in any language is in no export', async () => {
    const a = await project([]);
    for (const spec of SPECS) {
      const res = await s.t.call(a.apiKey, 'POST', '/v1/keys', { key: spec.key, ...(spec.group ? { group_name: spec.group } : {}), ...(spec.description ? { description: spec.description } : {}) });
      expect(res.status).toBe(201);
      const id = (await res.json()).id;
      for (const [language, [value, status]] of Object.entries(spec.values)) {
        expect((await s.t.call(a.apiKey, 'PUT', `/v1/keys/${id}/translations/${language}`, { value, status })).status).toBe(200);
      }
    }
    const b = await project([]);
    for (const language of ['en', 'de']) {
      for (const status of ['approved', 'review', 'draft']) {
        const file = await s.t.call(a.apiKey, 'GET', `/v1/export/${language}?format=csv&status=${status}`);
        expect(file.status).toBe(200);
        const res = await s.t.app.request(`/v1/import/${language}?format=csv&status=${status}`, { method: 'POST', headers: { 'X-API-Key': b.apiKey }, body: await file.arrayBuffer() });
        expect(res.status, await res.clone().text()).toBe(200);
        expect((await res.json()).warnings).toEqual([]);
      }
    }
    const before = await state(a);
    expect(before['no.values']).toEqual({ group: 'Default', description: 'not yet written' });
    delete before['no.values'];
    expect(await state(b)).toEqual(before);
  });

  it('a namespace file ({group} in a tms mapping) pushed into a fresh project names its keys <group>.<name>', async () => {
    const a = await project([['home.title', 'Home', 'Start']]);
    const id = (await (await s.t.call(a.apiKey, 'POST', '/v1/keys', { key: 'settings.theme', group_name: 'prefs' })).json()).id;
    expect((await s.t.call(a.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Thema', status: 'approved' })).status).toBe(200);
    const b = await project([]);
    for (const group of ['Default', 'prefs']) {
      const file = await (await s.t.call(a.apiKey, 'GET', `/v1/export/de?format=i18next&namespace=${group}`)).text();
      const res = await s.t.app.request(`/v1/import/de?format=i18next&namespace=${group}&status=approved`, { method: 'POST', headers: { 'X-API-Key': b.apiKey }, body: file });
      expect(res.status).toBe(200);
    }
    expect(await keysOf(a)).toEqual(['home.title', 'settings.theme']);
    expect(await keysOf(b)).toEqual(['Default.home.title', 'prefs.settings.theme']);
  });
});
