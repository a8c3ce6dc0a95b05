// An Xcode String Catalog through HTTP, on both databases: POST /v1/import/de takes the German texts
// out of a catalog that holds every language (with warnings for what tms cannot store), and
// GET /v1/export/de gives them back as a catalog in Xcode's layout, its localizations as Xcode
// wrote them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalog, type CatalogObject } from '../../core/formats/xcstrings/catalog-json.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const FIXTURE = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'formats', 'Localizable.xcstrings'));

describe('xcstrings through import and export', () => {
  it('imports a catalog into de and exports it back as Xcode wrote it', async () => {
    const p = await project(t, ['de', 'en']);
    const upload = (language: string, extra = '') =>
      t.app.request(`/v1/import/${language}?format=xcstrings&status=approved${extra}`, {
        method: 'POST',
        headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
        body: FIXTURE,
      });
    const imported = await upload('de');
    expect(imported.status, await imported.clone().text()).toBe(200);
    const answer = await body(imported);
    expect(answer).toMatchObject({ format: 'xcstrings', language: 'de', keys_created: 7, values_created: 7 });
    expect(answer.warnings).toEqual([
      expect.stringMatching(/^Shared with %lld people by %@: positional substitutions/),
      expect.stringMatching(/^Tap to open: the value varies by device/),
      expect.stringMatching(/"Two\\nlines"/),
      expect.stringMatching(/"shouldTranslate": false.*"Acme"/),
    ]);

    const exported = await p.get('/v1/export/de?format=xcstrings&source=en');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toContain('de.xcstrings');
    const bytes = new Uint8Array(await exported.arrayBuffer());
    // Xcode's layout: `"name" : value`, no newline at the end.
    expect(new TextDecoder().decode(bytes.slice(0, 30))).toBe('{\n  "sourceLanguage" : "en",\n ');
    expect(bytes.at(-1)).toBe('}'.charCodeAt(0));
    const catalog = readCatalog(bytes);
    const original = readCatalog(FIXTURE);
    expect(Object.keys(catalog.strings)).toEqual(['%lld files in %lld folders', '%lld notes', 'Hello, %@!', 'home.title', 'Key2', 'Key10', 'Old text']);
    for (const [key, entry] of Object.entries(catalog.strings)) {
      const de = ((entry as CatalogObject).localizations as CatalogObject).de;
      const was = structuredClone(((original.strings[key] as CatalogObject).localizations as CatalogObject).de);
      // tms writes every state as translated; the fixture's stale one aside, the same localization.
      expect(de).toEqual(JSON.parse(JSON.stringify(was).replaceAll('"stale"', '"translated"')));
      expect((entry as CatalogObject).comment).toEqual((original.strings[key] as CatalogObject).comment);
    }

    // The same catalog pushed again is no change and costs nothing; the source language's texts
    // (implicit where the key is the text) import from the same file.
    expect(await body(await upload('de'))).toMatchObject({ values_created: 0, values_updated: 0, values_unchanged: 7, translation_units: 0 });
    // Without source=, the catalog names the project's source language (here its first language,
    // German), as the portal's export asks; the same texts otherwise.
    const plain = readCatalog(new Uint8Array(await (await p.get('/v1/export/de?format=xcstrings')).arrayBuffer()));
    expect(plain.sourceLanguage).toBe('de');
    expect(plain.strings).toEqual(catalog.strings);
    const en = await body(await upload('en'));
    expect(en).toMatchObject({ language: 'en', values_created: 9 });
    expect((await body(await p.get('/v1/translations/en'))).translations).toMatchObject({ 'Hello, %@!': 'Hello, %@!', Acme: 'Acme', 'home.title': 'Home' });
  });

  it('a catalog that is not one is a 422 saying where', async () => {
    const p = await project(t, ['de']);
    const res = await t.app.request('/v1/import/de?format=xcstrings', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
      body: '{"sourceLanguage" : "en", "strings" : {"k" : {"localizations" : {"de" : {"stringUnit" : {"state" : "translated"}}}}}}',
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await body(res))).toContain('stringUnit');
  });
});
