// i18next, Rails YAML and PO exports write every plural category of the language (i18next and
// gettext have no fallback to `other`); an import compares a file's value with the stored one by
// what they say (core/formats/plural/every-category.ts). So a file pulled and pushed back unchanged
// changes nothing, costs no translation unit and records no History, while a real file's forms,
// a `few` equal to `other` included, are all kept.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

const ONE_OTHER = '{count, plural, one {# файл} other {# файлов}}';

describe('an import of plurals with every category written out', () => {
  for (const format of ['i18next', 'yaml', 'po'] as const) {
    it(`a ${format} file pulled and pushed back unchanged is no change: no write, no unit`, async () => {
      const p = await project(t, ['ru']);
      const id = await p.key('files');
      await p.put(id, 'ru', ONE_OTHER, 'approved');
      const exported = await t.app.request(`/v1/export/ru?format=${format}`, { headers: { 'X-API-Key': p.apiKey } });
      expect(exported.status).toBe(200);
      const file = new Uint8Array(await exported.arrayBuffer());
      expect(new TextDecoder().decode(file)).toContain('файлов');
      const pushed = await t.app.request(`/v1/import/ru?format=${format}&status=approved`, { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
      expect(pushed.status, await pushed.clone().text()).toBe(200);
      expect(await body(pushed)).toMatchObject({ values_created: 0, values_updated: 0, values_unchanged: 1, translation_units: 0 });
      const stored = await body(await p.get(`/v1/keys/${id}/translations/ru`));
      expect(stored).toMatchObject({ value: ONE_OTHER, status: 'approved' });
    });
  }

  it('the same file with another status changes the status only: the stored text keeps its spelling, free', async () => {
    const p = await project(t, ['ru']);
    const id = await p.key('files');
    await p.put(id, 'ru', ONE_OTHER, 'approved');
    const file = JSON.stringify({ files_one: '{{count}} файл', files_few: '{{count}} файлов', files_many: '{{count}} файлов', files_other: '{{count}} файлов' });
    const pushed = await t.app.request('/v1/import/ru?format=i18next&status=review', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
    expect(await body(pushed)).toMatchObject({ values_updated: 1, translation_units: 0 });
    expect(await body(await p.get(`/v1/keys/${id}/translations/ru`))).toMatchObject({ value: ONE_OTHER, status: 'review' });
  });

  it('a file that says something else is a change; a new value keeps every form the file has', async () => {
    const p = await project(t, ['ru']);
    const id = await p.key('files');
    await p.put(id, 'ru', ONE_OTHER, 'approved');
    // `few` differs from `other` now: a real change, one unit.
    const changed = JSON.stringify({ files_one: '{{count}} файл', files_few: '{{count}} файла', files_many: '{{count}} файлов', files_other: '{{count}} файлов', fresh_one: '{{count}} раз', fresh_few: '{{count}} раза', fresh_many: '{{count}} раз', fresh_other: '{{count}} раза' });
    const pushed = await t.app.request('/v1/import/ru?format=i18next&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: changed });
    expect(await body(pushed)).toMatchObject({ values_updated: 1, values_created: 1, translation_units: 2 });
    expect((await body(await p.get(`/v1/keys/${id}/translations/ru`))).value).toBe('{count, plural, one {# файл} few {# файла} many {# файлов} other {# файлов}}');
    // i18next-parser's Russian: `other` (fractions) the same word as `few`, both kept.
    const keys = (await body(await p.get('/v1/keys'))).keys as { id: string; key: string }[];
    const fresh = keys.find((k) => k.key === 'fresh')!;
    expect((await body(await p.get(`/v1/keys/${fresh.id}/translations/ru`))).value).toBe('{count, plural, one {# раз} few {# раза} many {# раз} other {# раза}}');
  });
});
