// csv/xlsx export with source= (core/formats/table/write-table.ts): round trips that
// must write nothing unexpected, filters that must apply to the source-only rows too.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const upload = (apiKey: string, language: string, file: string, query = '') =>
  t.app.request(`/v1/import/${language}?format=csv&status=approved${query}`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/octet-stream' }, body: file });

describe('csv with source=', () => {
  it('keys and values needing quoting survive the round trip; re-importing the unchanged sheet writes nothing', async () => {
    const p = await project(t, ['en', 'de']);
    const k1 = await p.key('a,"quoted" key', 'g');
    const k2 = await p.key('b key', 'g');
    await p.put(k1, 'en', 'Line one\nline "two", three', 'approved');
    await p.put(k1, 'de', 'Zeile eins\r\nzwei', 'approved');
    await p.put(k2, 'en', '=1+1', 'approved');
    const text = await (await p.get('/v1/export/de?format=csv&source=en')).text();
    const res = await body(await upload(p.apiKey, 'de', text));
    expect(res).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0 });
    expect((await body(await p.get('/v1/translations/de'))).translations).toEqual({ 'a,"quoted" key': 'Zeile eins\r\nzwei' });
  });

  it("a language whose code is 'key' imports back from its own column, not the key column", async () => {
    const p = await project(t, ['en', 'key']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'en', 'Welcome', 'approved');
    await p.put(k, 'key', 'Translated', 'approved');
    const text = await (await p.get('/v1/export/key?format=csv&source=en')).text();
    expect(text.split('\r\n')[0]).toBe('key,group,description,en,key');
    const res = await body(await upload(p.apiKey, 'key', text));
    // The sheet was not changed: nothing must be written.
    expect(res).toMatchObject({ values_created: 0, values_updated: 0 });
    expect((await body(await p.get('/v1/translations/key'))).translations).toEqual({ 'home.title': 'Translated' });
  });

  it('plurals=only|none splits the source-only rows as it splits the rows with a value', async () => {
    const p = await project(t, ['en', 'de']);
    const plural = await p.key('items', 'g');
    const plain = await p.key('title', 'g');
    await p.put(plural, 'en', '{count, plural, one {# item} other {# items}}', 'approved');
    await p.put(plural, 'de', '{count, plural, one {# Ding} other {# Dinge}}', 'approved');
    await p.put(plain, 'en', 'Title', 'approved');
    await p.put(plain, 'de', 'Titel', 'approved');
    const only = await (await p.get('/v1/export/de?format=csv&source=en&plurals=only')).text();
    const none = await (await p.get('/v1/export/de?format=csv&source=en&plurals=none')).text();
    const keysOf = (csv: string) => csv.split('\r\n').slice(1).filter(Boolean).map((l) => l.split(',')[0]);
    expect(keysOf(only), only).toEqual(['items']);
    expect(keysOf(none), none).toEqual(['title']);
  });

  it('group and tag filters apply to the source-only rows', async () => {
    const p = await project(t, ['en', 'de']);
    const a = await p.key('home.a', 'home');
    const b = await p.key('other.b', 'other');
    await p.put(a, 'en', 'A', 'approved');
    await p.put(b, 'en', 'B', 'approved');
    const text = await (await p.get('/v1/export/de?format=csv&source=en&group=home')).text();
    expect(text).toBe('key,group,description,en,de\r\nhome.a,home,,A,\r\n');
    expect(await (await p.get('/v1/export/de?format=csv&source=en&tag=nope')).text()).toBe('key,group,description,en,de\r\n');
  });

  it('a key whose translation the status filter left out gets no row: it is not "not translated yet"', async () => {
    const p = await project(t, ['en', 'de']);
    const a = await p.key('home.a', 'home');
    const b = await p.key('home.b', 'home');
    await p.put(a, 'en', 'A', 'approved');
    await p.put(b, 'en', 'B', 'approved');
    await p.put(a, 'de', 'Entwurf', 'draft');
    // An empty de cell would read as "no translation yet": the draft translated again, and replaced on import.
    expect(await (await p.get('/v1/export/de?format=csv&source=en')).text()).toBe('key,group,description,en,de\r\nhome.b,home,,B,\r\n');
    expect(await (await p.get('/v1/export/de?format=csv&source=en&status=all')).text()).toBe('key,group,description,en,de\r\nhome.a,home,,A,Entwurf\r\nhome.b,home,,B,\r\n');
    // XLIFF's source-only units follow the same rule.
    const xliff = await (await p.get('/v1/export/de?format=xliff&source=en')).text();
    expect(xliff).toContain('home.b');
    expect(xliff).not.toContain('home.a');
  });
});
