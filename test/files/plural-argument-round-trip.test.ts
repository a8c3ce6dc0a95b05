// docs/rate-limits.md: "re-importing the same file ... costs nothing"; docs/decisions.md: "a pulled
// file pushed back is no change (no write, no unit, no History)". po, android, yaml and i18next
// read every plural back over `count` (their `%d` has no name; i18next and Rails call it so): a
// plural over `n` pulled and pushed back unchanged was rewritten to `{count, plural, …}` (an app
// passing `n` then showed nothing) and charged a translation unit. The import now writes such a
// plural over the stored value's own argument (core/files/import-file.ts, overStoredArgument).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const PLURAL = '{n, plural, one {# Datei} other {# Dateien}}';

describe.each(['po', 'android', 'yaml', 'i18next'])('%s: pull then push back unchanged', (format) => {
  it('costs no translation unit for a plural whose argument is not `count`', async () => {
    const p = await project(t, ['en', 'de']);
    const id = await p.key('files.count');
    await p.put(id, 'en', '{n, plural, one {# file} other {# files}}', 'approved');
    await p.put(id, 'de', PLURAL, 'approved');

    const pulled = await p.get(`/v1/export/de?format=${format}`);
    expect(pulled.status).toBe(200);
    const pushed = await t.app.request(`/v1/import/de?format=${format}&status=approved`, {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(await pulled.arrayBuffer()),
    });
    expect(pushed.status).toBe(200);
    const usage = await body(await p.get('/v1/usage'));
    const stored = (await body(await p.get('/v1/translations/de?status=all'))).translations['files.count'];
    expect({ units: (await body(pushed)).translation_units, used: usage.translation_units_used, value: stored.value }).toEqual({ units: 0, used: 0, value: PLURAL });
  });

  it('a translator\'s changed form is written over the stored argument too', async () => {
    const p = await project(t, ['en', 'de']);
    const id = await p.key('files.count');
    await p.put(id, 'de', PLURAL, 'approved');
    const pulled = await (await p.get(`/v1/export/de?format=${format}`)).text();
    expect(pulled).toContain('Dateien');
    const pushed = await t.app.request(`/v1/import/de?format=${format}&status=approved`, {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
      body: pulled.replace('Dateien', 'Dokumente'),
    });
    expect(pushed.status).toBe(200);
    expect((await body(pushed)).values_updated).toBe(1);
    const stored = (await body(await p.get('/v1/translations/de?status=all'))).translations['files.count'];
    expect(stored.value).toBe('{n, plural, one {# Datei} other {# Dokumente}}');
  });
});

describe('a new key\'s plural', () => {
  it('is stored over `count`, as the file gives it', async () => {
    const p = await project(t, ['en', 'de']);
    const pushed = await t.app.request('/v1/import/de?format=i18next&status=approved', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ files_one: '{{count}} Datei', files_other: '{{count}} Dateien' }),
    });
    expect(pushed.status).toBe(200);
    const stored = (await body(await p.get('/v1/translations/de?status=all'))).translations.files;
    expect(stored.value).toBe('{count, plural, one {# Datei} other {# Dateien}}');
  });
});

describe('po: the source language pulled and pushed back', () => {
  it('costs nothing for an empty value (and keeps it empty)', async () => {
    const p = await project(t, ['en']); // en is the project's source language
    const id = await p.key('home.empty');
    await p.put(id, 'en', '', 'approved');
    const pulled = await p.get('/v1/export/en?format=po');
    const pushed = await t.app.request('/v1/import/en?format=po&status=approved', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(await pulled.arrayBuffer()),
    });
    expect(pushed.status).toBe(200);
    const stored = (await body(await p.get('/v1/translations/en?status=all'))).translations['home.empty'];
    expect({ units: (await body(pushed)).translation_units, value: stored.value }).toEqual({ units: 0, value: '' });
  });
});
