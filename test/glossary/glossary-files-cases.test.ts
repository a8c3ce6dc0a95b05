// Glossary files, from the review of 2026-12-01: round trips (CSV and TBX, into the same project and another: spaces a term
// holds, a pasted vertical tab), spreadsheet quirks (BOM, sep=;, regional codes heading a semicolon sheet, an ID column, a
// de_note column), TBX shapes (namespaces, UTF-16 without BOM, synonyms and their notes, two sections of one language),
// refused files (entities, nesting), the 10,000-term cap and scope. The cases that failed before their fix: the spaces,
// the vertical tab, U+FFFF, the ID and de_note columns, the semicolon sheet, the synonym's note, the second section's warning.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { helpers } from './glossary-files-helpers.ts';

const t = useTestApp();
const h = helpers(t);

const tbx = (entries: string, root = '<martif type="TBX-Basic" xml:lang="en">', close = '</martif>') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${root}<text><body>${entries}</body></text>${close}`;

describe('round trips', () => {
  it('TBX round-trip keeps non-breaking / ideographic / double spaces in terms and translations', async () => {
    const p = await h.project(['en', 'fr', 'ja']);
    await h.addTerm(p, { term: 'Acme\u00A0Cloud', translations: { fr: 'mot de passe\u202F?', ja: 'ログイン\u3000画面' } });
    await h.addTerm(p, { term: 'two  spaces' });
    const before = await h.terms(p);
    const text = await (await h.exportFile(p, 'tbx')).text();
    const back = await h.json(await h.importFile(p, text, 'format=tbx'));
    expect(back).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 2 });
    expect(await h.terms(p)).toEqual(before);
    const q = await h.project(['en', 'fr', 'ja']);
    await h.json(await h.importFile(q, text, 'format=tbx'));
    expect(await h.terms(q)).toEqual(before);
  });

  it('CSV round-trip keeps the same terms (NBSP etc)', async () => {
    const p = await h.project(['en', 'fr', 'ja']);
    await h.addTerm(p, { term: 'Acme\u00A0Cloud', description: 'a;b\tc', translations: { fr: 'mot de passe\u202F?', ja: 'ログイン\u3000画面' } });
    await h.addTerm(p, { term: 'two  spaces', description: 'line\r\nbreak' });
    await h.addTerm(p, { term: '=SUM(A1)', translations: { fr: '"quoted"' } });
    const before = await h.terms(p);
    const text = await (await h.exportFile(p, 'csv')).text();
    expect(await h.json(await h.importFile(p, text))).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 3 });
    const q = await h.project(['en', 'fr', 'ja']);
    await h.json(await h.importFile(q, text));
    expect(await h.terms(q)).toEqual(before);
  });

  it('TBX round-trip keeps a description with a control character the API accepts (VT from PowerPoint)', async () => {
    const p = await h.project(['en', 'de']);
    await h.addTerm(p, { term: 'Slide', description: 'first\u000Bsecond' });
    const before = await h.terms(p);
    const text = await (await h.exportFile(p, 'tbx')).text();
    expect(await h.json(await h.importFile(p, text, 'format=tbx'))).toMatchObject({ terms_unchanged: 1, terms_updated: 0 });
    expect(await h.terms(p)).toEqual(before);
  });

  it('TBX round-trip of a term holding U+FFFF writes well-formed XML (other tools read it)', async () => {
    const p = await h.project(['en', 'de']);
    // A noncharacter is refused where a term or translation enters (it would make the TBX ill-formed).
    const res = await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'odd\uFFFFterm' });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0]).toMatchObject({ loc: ['body', 'term'], msg: 'term must not contain U+FFFE or U+FFFF, which are not characters' });
    expect((await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'ok', translations: { de: 'x\uFFFE' } })).status).toBe(422);
    const file = await h.importFile(p, 'term,de\nodd\uFFFFterm,x\n');
    expect(file.status).toBe(422);
    expect(await h.terms(p)).toEqual([]);
    expect(await (await h.exportFile(p, 'tbx')).text()).not.toMatch(/\uFFFF/);
  });

  it('round-trips flags, descriptions with markup and emoji, Greek, İ, ß', async () => {
    const p = await h.project(['en', 'de', 'el']);
    await h.addTerm(p, { term: 'İstanbul', case_sensitive: true, translatable: false, description: '<b>x</b> & 🎉\nline' });
    await h.addTerm(p, { term: 'Straße', translations: { de: 'STRASSE', el: 'ΚΩΔΙΚΟΣ' } });
    await h.addTerm(p, { term: '👩‍💻 dev', translations: { de: '👩‍💻' } });
    const before = await h.terms(p);
    for (const format of ['csv', 'tbx']) {
      const text = await (await h.exportFile(p, format)).text();
      expect(await h.json(await h.importFile(p, text, `format=${format}`)), format).toMatchObject({ terms_unchanged: 3 });
      const q = await h.project(['en', 'de', 'el']);
      await h.json(await h.importFile(q, text, `format=${format}`));
      expect(await h.terms(q), format).toEqual(before);
    }
  });
});

describe('CSV quirks', () => {
  it('Excel: BOM, sep=;, CRLF, quoted newlines in description, trailing empty columns, TRUE/FALSE', async () => {
    const p = await h.project(['en', 'de']);
    const body = '\uFEFFsep=;\r\nTerm;Description;Case sensitive;DE;;\r\nDashboard;"Start\r\npage";TRUE;Übersicht;;\r\n;;;;;\r\n';
    const a = await h.json(await h.importFile(p, body));
    expect(a).toMatchObject({ terms_created: 1 });
    expect(await h.terms(p)).toEqual([{ term: 'Dashboard', description: 'Start\r\npage', case_sensitive: true, translatable: true, translations: { de: 'Übersicht' } }]);
  });

  it('a semicolon sheet headed by regional codes (en-US;de-DE), as a German Excel saves it', async () => {
    const p = await h.project(['en', 'de']);
    const res = await h.importFile(p, 'en-US;de-DE\r\nDashboard;Übersicht\r\n');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await h.terms(p)).toEqual([{ term: 'Dashboard', description: '', case_sensitive: false, translatable: true, translations: { de: 'Übersicht' } }]);
  });

  it('a semicolon sheet with a "Term" header in quotes and a BOM', async () => {
    const p = await h.project(['en', 'de']);
    const res = await h.importFile(p, '\uFEFF"Term";"de"\r\n"Dashboard";"Übersicht"\r\n');
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('only a header: 200 with zero counts, nothing recorded', async () => {
    const p = await h.project(['en', 'de']);
    expect(await h.json(await h.importFile(p, 'term,de\r\n'))).toMatchObject({ terms_created: 0, terms_updated: 0 });
  });

  it('whitespace-only cells change nothing; a whitespace-only term cell is a located 422', async () => {
    const p = await h.project(['en', 'de']);
    await h.addTerm(p, { term: 'Save', description: 'keep', translations: { de: 'Speichern' } });
    expect(await h.json(await h.importFile(p, 'term,description,de,case_sensitive\nsave,  ,\u00A0,  \n'))).toMatchObject({ terms_updated: 1 });
    expect(await h.terms(p)).toEqual([{ term: 'save', description: 'keep', case_sensitive: false, translatable: true, translations: { de: 'Speichern' } }]);
    const res = await h.importFile(p, 'term,de\n   ,x\n');
    expect(res.status).toBe(422);
  });

  it('NFC/NFD and case duplicates are a 422; NFD term matches NFC stored', async () => {
    const p = await h.project(['en', 'de']);
    const nfd = 'Cafe\u0301';
    let res = await h.importFile(p, `term\nCafé\n${nfd}\n`);
    expect(res.status).toBe(422);
    res = await h.importFile(p, `term\nΚΩΔΙΚΟΣ\nκωδικοσ\n`);
    expect(res.status).toBe(422);
    res = await h.importFile(p, `term\nİ\ni\u0307\n`);
    expect(res.status).toBe(422);
    await h.addTerm(p, { term: 'Café' });
    expect(await h.json(await h.importFile(p, `term,de\n${nfd},Kaffee\n`))).toMatchObject({ terms_created: 0, terms_updated: 1 });
  });

  it('a term equal to a translation; a file whose translations name the source language', async () => {
    const p = await h.project(['en', 'de']);
    const a = await h.json(await h.importFile(p, 'term,en,de\nOK,OK,OK\n'));
    expect(a.warnings.join()).toMatch(/source/);
    expect(await h.terms(p)).toEqual([{ term: 'OK', description: '', case_sensitive: false, translatable: true, translations: { de: 'OK' } }]);
  });

  it('huge single cell: a located 422', async () => {
    const p = await h.project(['en', 'de']);
    const res = await h.importFile(p, `term,de\nx,"${'y'.repeat(9 * 1024 * 1024)}"\n`);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(JSON.stringify(body).length).toBeLessThan(2000);
  });

  it('an "ID" column is not read as Indonesian translations', async () => {
    const p = await h.project(['en', 'id']);
    const a = await h.json(await h.importFile(p, 'ID,term,description\n17,Dashboard,Start page\n'));
    expect(await h.terms(p)).toEqual([{ term: 'Dashboard', description: 'Start page', case_sensitive: false, translatable: true, translations: {} }]);
    expect(a.languages).toEqual([]);
  });

  it('a "de_note" column is not read as German translations ahead of the de column', async () => {
    const p = await h.project(['en', 'de']);
    await h.json(await h.importFile(p, 'term,de_note,de\nDashboard,ask Anna,Übersicht\n'));
    expect((await h.terms(p))[0]!.translations).toEqual({ de: 'Übersicht' });
  });
});

describe('TBX shapes', () => {
  it('namespaced TBX 2019 with a prefix, xml:lang on langSec, hi markup', async () => {
    const p = await h.project(['en', 'de']);
    const body = `<?xml version="1.0"?><tbx:tbx xmlns:tbx="urn:iso:std:iso:30042:ed-2" type="TBX-Basic" style="dca" xml:lang="en"><tbx:text><tbx:body>
      <tbx:conceptEntry id="c1"><tbx:langSec xml:lang="en-US"><tbx:termSec><tbx:term>Dash<tbx:hi type="bold">board</tbx:hi></tbx:term></tbx:termSec></tbx:langSec>
      <tbx:langSec xml:lang="de-DE"><tbx:termSec><tbx:term>Übersicht</tbx:term></tbx:termSec></tbx:langSec></tbx:conceptEntry></tbx:body></tbx:text></tbx:tbx>`;
    expect(await h.json(await h.importFile(p, body, 'format=tbx'))).toMatchObject({ terms_created: 1 });
    expect((await h.terms(p))[0]).toMatchObject({ term: 'Dashboard', translations: { de: 'Übersicht' } });
  });

  it('UTF-16 BE and LE without BOM', async () => {
    const p = await h.project(['en', 'de']);
    const text = tbx('<termEntry><langSet xml:lang="en"><tig><term>Save</term></tig></langSet><langSet xml:lang="de"><tig><term>Speichern</term></tig></langSet></termEntry>');
    const le = new Uint8Array(Buffer.from(text, 'utf16le'));
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) { be[i] = le[i + 1]!; be[i + 1] = le[i]!; }
    expect(await h.json(await h.importFile(p, le, 'format=tbx'))).toMatchObject({ terms_created: 1 });
    expect(await h.json(await h.importFile(p, be, 'format=tbx'))).toMatchObject({ terms_unchanged: 1 });
  });

  it('several langSets of the same language: the first is read, the second warned about', async () => {
    const p = await h.project(['en', 'de']);
    const a = await h.json(await h.importFile(p, tbx(`<termEntry>
      <langSet xml:lang="en"><tig><term>Save</term></tig></langSet>
      <langSet xml:lang="en-GB"><tig><term>Store</term></tig></langSet>
      <langSet xml:lang="de"><tig><term>Speichern</term></tig></langSet>
      <langSet xml:lang="de"><tig><term>Sichern</term></tig></langSet></termEntry>`), 'format=tbx'));
    expect(await h.terms(p)).toEqual([{ term: 'Save', description: '', case_sensitive: false, translatable: true, translations: { de: 'Speichern' } }]);
    expect(a.warnings.length).toBeGreaterThan(0);
  });

  it('empty terms: an empty source term skips the entry, an empty translation changes nothing', async () => {
    const p = await h.project(['en', 'de']);
    await h.addTerm(p, { term: 'Save', translations: { de: 'Speichern' } });
    const a = await h.json(await h.importFile(p, tbx(`<termEntry><langSet xml:lang="en"><tig><term/></tig></langSet></termEntry>
      <termEntry><langSet xml:lang="en"><tig><term>Save</term></tig></langSet><langSet xml:lang="de"><tig><term>  </term></tig></langSet></termEntry>`), 'format=tbx'));
    expect(a).toMatchObject({ terms_created: 0, terms_unchanged: 1 });
    expect((await h.terms(p))[0]!.translations).toEqual({ de: 'Speichern' });
  });

  it('billion laughs, external entity, 300 nested elements: a 422', async () => {
    const p = await h.project(['en', 'de']);
    const laughs = `<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><martif><text><body><termEntry><langSet xml:lang="en"><tig><term>&lol2;</term></tig></langSet></termEntry></body></text></martif>`;
    for (const body of [
      laughs,
      `<?xml version="1.0"?><!DOCTYPE martif SYSTEM "file:///etc/passwd"><martif><text><body><termEntry><langSet xml:lang="en"><tig><term>&xxe;</term></tig></langSet></termEntry></body></text></martif>`,
      tbx(`<termEntry><langSet xml:lang="en"><tig><term>${'<hi>'.repeat(300)}x${'</hi>'.repeat(300)}</term></tig></langSet></termEntry>`),
      `<martif>${'<text>'.repeat(5000)}`,
    ]) {
      const res = await h.importFile(p, body, 'format=tbx');
      expect(res.status).toBe(422);
      const d = await res.json();
      expect(d.detail[0].loc[0]).toBe('body');
    }
    expect(await h.terms(p)).toEqual([]);
  });

  it('a synonym count and flags in the second tig do not set the term flags', async () => {
    const p = await h.project(['en', 'de']);
    await h.json(await h.importFile(p, tbx(`<termEntry><langSet xml:lang="en"><tig><term>Save</term></tig><tig><term>Store</term><termNote type="x-doNotTranslate">yes</termNote></tig></langSet></termEntry>`), 'format=tbx'));
    expect((await h.terms(p))[0]).toMatchObject({ term: 'Save', translatable: true });
  });
});

describe('cap and projects', () => {
  it('10,000 counts terms already present; matched terms do not count', async () => {
    const p = await h.project(['en']);
    await h.json(await h.importFile(p, `term\n${Array.from({ length: 9_999 }, (_, i) => `t${i}`).join('\n')}\n`));
    expect(await h.json(await h.importFile(p, 'term\nT0\nnew1\n'))).toMatchObject({ terms_created: 1, terms_updated: 1 });
    const res = await h.importFile(p, 'term\nnew2\n');
    expect(res.status).toBe(422);
    expect((await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'x' })).status).toBe(422);
  }, 120_000);

  it("an import in B of A's export never touches A", async () => {
    const a = await h.project(['en', 'de']);
    const b = await h.project(['en', 'de']);
    await h.addTerm(a, { term: 'Save', translations: { de: 'Speichern' } });
    const before = await h.terms(a);
    const text = await (await h.exportFile(a, 'tbx')).text();
    await h.json(await h.importFile(b, text.replace('Speichern', 'Sichern'), 'format=tbx'));
    expect(await h.terms(a)).toEqual(before);
    expect((await h.terms(b))[0]!.translations).toEqual({ de: 'Sichern' });
  });
});
