// Glossary files through the API (docs/decisions.md, "Glossary files"): a CSV or TBX term base
// imported all or nothing (new terms added, known ones updated by what the file gives, nothing
// removed), a dry run that writes nothing, the whole glossary exported as CSV or TBX and imported
// back unchanged; files in the shapes spreadsheets, hosted tools and term bases write; bad files a
// located 422 with nothing written.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { helpers } from './glossary-files-helpers.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/glossary/${name}`, import.meta.url));

const { json, project, importFile, exportFile, terms } = helpers(t);
const glossaryEvents = async (p: TestProject) =>
  sql()<{ type: string; after: unknown }[]>`select type, after from domain_events where project_id = ${p.projectId} and (type like 'term.%' or type like 'glossary.%') order by id`;

const CSV = [
  'term,description,translatable,case_sensitive,de,fr',
  'Dashboard,"The start page, after sign-in",yes,no,Übersicht,Tableau de bord',
  'Acme Cloud,Our product,no,yes,,',
  'Workspace,,,,Arbeitsbereich,',
  '',
].join('\r\n');

describe('glossary import (CSV)', () => {
  it('adds the terms with their descriptions, flags and translations, once, as one event', async () => {
    const p = await project();
    const answer = await json(await importFile(p, CSV));
    expect(answer).toEqual({
      project_id: p.projectId,
      format: 'csv',
      dry_run: false,
      terms_created: 3,
      terms_updated: 0,
      terms_unchanged: 0,
      translations_written: 3,
      languages: ['de', 'fr'],
      warnings: [],
    });
    expect(await terms(p)).toEqual([
      { term: 'Acme Cloud', description: 'Our product', case_sensitive: true, translatable: false, translations: {} },
      { term: 'Dashboard', description: 'The start page, after sign-in', case_sensitive: false, translatable: true, translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
      { term: 'Workspace', description: '', case_sensitive: false, translatable: true, translations: { de: 'Arbeitsbereich' } },
    ]);
    expect(await glossaryEvents(p)).toEqual([{ type: 'glossary.imported', after: { format: 'csv', terms_created: 3, terms_updated: 0, translations_written: 3 } }]);
    // The same file again: nothing to do, nothing recorded.
    expect(await json(await importFile(p, CSV))).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 3, translations_written: 0 });
    expect(await glossaryEvents(p)).toHaveLength(1);
  });

  it('dry run: the same answer, nothing written', async () => {
    const p = await project();
    const answer = await json(await importFile(p, CSV, 'format=csv&dry_run=true'));
    expect(answer).toMatchObject({ dry_run: true, terms_created: 3, translations_written: 3 });
    expect(await terms(p)).toEqual([]);
    expect(await glossaryEvents(p)).toEqual([]);
  });

  it('updates known terms by spelling in any case; an empty cell keeps what the glossary has; nothing is removed', async () => {
    const p = await project();
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'dashboard', description: 'Start page', translations: { de: 'Startseite', fr: 'Tableau' } }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Billing', translations: { de: 'Abrechnung' } }));
    const file = ['term,description,de,fr', 'Dashboard,,Übersicht,', 'Billing,,Abrechnung,Facturation', 'Invoice,A bill,Rechnung,Facture', ''].join('\n');
    expect(await json(await importFile(p, file))).toMatchObject({ terms_created: 1, terms_updated: 2, terms_unchanged: 0, translations_written: 4 });
    expect(await terms(p)).toEqual([
      { term: 'Billing', description: '', case_sensitive: false, translatable: true, translations: { de: 'Abrechnung', fr: 'Facturation' } },
      // The file's spelling (its case), its German; the description and French it left empty stay.
      { term: 'Dashboard', description: 'Start page', case_sensitive: false, translatable: true, translations: { de: 'Übersicht', fr: 'Tableau' } },
      { term: 'Invoice', description: 'A bill', case_sensitive: false, translatable: true, translations: { de: 'Rechnung', fr: 'Facture' } },
    ]);
  });

  it("reads a hosted tool's export: semicolons, other column names, columns and languages it has no use for (warned)", async () => {
    const p = await project();
    const answer = await json(await importFile(p, fixture('lokalise-style.csv')));
    expect(answer).toMatchObject({ terms_created: 3, translations_written: 4, languages: ['de', 'fr'] });
    expect(answer.warnings).toEqual([
      'column ja: not a language of the project, skipped (add it first to import its translations)',
      'columns ignored: tags, de_description',
    ]);
    expect(await terms(p)).toEqual([
      { term: 'Acme Cloud', description: 'Our product', case_sensitive: true, translatable: false, translations: {} },
      { term: 'Dashboard', description: 'The start page; after sign-in', case_sensitive: false, translatable: true, translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
      { term: 'Workspace', description: '', case_sensitive: false, translatable: true, translations: { de: 'Arbeitsbereich', fr: 'Espace de travail' } },
    ]);
  });

  it("takes the source language's column as the term, regional codes into the project's languages, do_not_translate as the opposite of translatable", async () => {
    const p = await project(['en', 'de', 'pt-BR']);
    const file = ['EN_us,DE-de,pt,Do not translate,Case Sensitive', 'Acme,,,Y,1', 'Save,Speichern,Salvar,,', ''].join('\n');
    const answer = await json(await importFile(p, file));
    expect(answer).toMatchObject({ terms_created: 2, languages: ['de', 'pt-BR'], warnings: [] });
    expect(await terms(p)).toEqual([
      { term: 'Acme', description: '', case_sensitive: true, translatable: false, translations: {} },
      { term: 'Save', description: '', case_sensitive: false, translatable: true, translations: { de: 'Speichern', 'pt-BR': 'Salvar' } },
    ]);
  });
});

describe('glossary import (TBX)', () => {
  it('reads a TBX 2008 term base in UTF-16: regional codes, ntig and termGrp, inline markup, synonyms, entries without the source language', async () => {
    const p = await project(['en', 'de', 'fr']);
    const answer = await json(await importFile(p, fixture('multiterm-2008.tbx'), 'format=tbx'));
    expect(answer).toMatchObject({ format: 'tbx', terms_created: 2, translations_written: 3, languages: ['de', 'fr'] });
    expect(answer.warnings).toEqual([
      "1 entry has no term in en, the project's source language: skipped",
      'languages not in the project, skipped: ja-JP',
      '1 language section holds more than one term: the first of each was read',
    ]);
    expect(await terms(p)).toEqual([
      { term: 'Dashboard', description: 'The start page after sign-in', case_sensitive: false, translatable: true, translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
      { term: 'Sign in', description: '', case_sensitive: false, translatable: true, translations: { de: 'Anmelden' } },
    ]);
  });

  it('reads TBX 2019 (tbx, conceptEntry, langSec, termSec) with its flags', async () => {
    const p = await project(['en', 'de']);
    expect(await json(await importFile(p, fixture('tbx-basic-2019.tbx'), 'format=tbx'))).toMatchObject({ terms_created: 2, warnings: [] });
    expect(await terms(p)).toEqual([
      { term: 'Acme', description: '', case_sensitive: true, translatable: false, translations: {} },
      { term: 'Workspace', description: 'Where a team keeps its projects', case_sensitive: false, translatable: true, translations: { de: 'Arbeitsbereich' } },
    ]);
  });
});

describe('glossary export', () => {
  const seed = async (p: TestProject) => {
    await json(await importFile(p, CSV));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Quote "this", please', description: 'Line one\nline two; & <tags>', translations: { fr: 'Citez « ceci »' } }));
  };

  it('writes CSV with a column per language but the source, which imports back into another project unchanged', async () => {
    const p = await project();
    await seed(p);
    const res = await exportFile(p, 'csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="glossary.csv"');
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('term,description,translatable,case_sensitive,forbidden,de,fr');
    expect(text).toContain('"Quote ""this"", please","Line one\nline two; & <tags>",true,false,false,,Citez « ceci »\r\n');
    const q = await project();
    expect(await json(await importFile(q, text))).toMatchObject({ terms_created: 4, warnings: [] });
    expect(await terms(q)).toEqual(await terms(p));
  });

  it('writes TBX-Basic that imports back unchanged, flags included', async () => {
    const p = await project();
    await seed(p);
    const res = await exportFile(p, 'tbx');
    expect(res.headers.get('content-type')).toBe('application/x-tbx+xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="glossary.tbx"');
    const text = await res.text();
    expect(text).toContain('<martif type="TBX-Basic" xml:lang="en">');
    expect(text).toContain('<termNote type="x-doNotTranslate">yes</termNote>');
    expect(text).toContain('<descrip type="definition">Line one\nline two; &amp; &lt;tags&gt;</descrip>');
    const q = await project();
    expect(await json(await importFile(q, text, 'format=tbx'))).toMatchObject({ terms_created: 4, warnings: [] });
    expect(await terms(q)).toEqual(await terms(p));
  });

  it('of an empty glossary is a header alone, and an empty TBX body', async () => {
    const p = await project();
    expect(await (await exportFile(p, 'csv')).text()).toBe('term,description,translatable,case_sensitive,forbidden,de,fr\r\n');
    expect(await (await exportFile(p, 'tbx')).text()).toContain('<body>\n    </body>');
  });
});

describe('bad glossary files', () => {
  const refused = async (p: TestProject, body: string | Uint8Array, query = 'format=csv') => {
    const res = await importFile(p, body, query);
    expect(res.status).toBe(422);
    const detail = (await res.json()).detail as { loc: unknown[]; msg: string }[];
    expect(await terms(p)).toEqual([]);
    expect(await glossaryEvents(p)).toEqual([]);
    return detail.map((d) => [d.loc, d.msg]);
  };

  it('are a 422 at their line, each bad row listed, and nothing is written', async () => {
    const p = await project();
    expect(await refused(p, 'term,de\nDashboard,"Übersicht\n')).toEqual([[['body', 'line', 2], 'a quoted field is not closed']]);
    expect(await refused(p, 'term,de,case_sensitive\nSave,Speichern,\nsave,Sichern,\n,Leer,\nOpen,Öffnen,maybe\n')).toEqual([
      [['body', 'line', 3], "term 'save' appears twice (lines 2 and 3; spellings are compared in any case)"],
      [['body', 'line', 4], 'the row has no term (its term cell is empty)'],
      [['body', 'line', 5], "case_sensitive must be yes or no (or true, false, 1, 0, or empty), not 'maybe'"],
    ]);
    expect(await refused(p, `term,de\n${'x'.repeat(201)},y\nOk,${'ü'.repeat(201)}\n`)).toEqual([
      [['body', 'line', 2], 'term must be at most 200 characters'],
      [['body', 'line', 3], 'de: translation must be at most 200 characters'],
    ]);
    expect(await refused(p, 'description,de\nA,B\n')).toEqual([[['body', 'line', 1], "the header has no term column (expected term, or the source language's code en)"]]);
    expect(await refused(p, 'term,de,fr\nA,B\n')).toEqual([[['body', 'line', 2], 'expected 3 fields as in the header, found 2']]);
    expect(await refused(p, new Uint8Array([0x74, 0x65, 0x72, 0x6d, 0x0a, 0xff, 0x41, 0x0a]))).toEqual([[['body', 'line', 2], 'file is not valid UTF-8']]);
    expect(await refused(p, '')).toEqual([[['body'], 'the file is empty; expected a header such as term,description,translatable,case_sensitive,de']]);
    expect(await refused(p, '<xliff version="1.2"/>', 'format=tbx')).toEqual([[['body', 'line', 1], 'not a TBX file: its root element is <xliff>, expected <martif> (TBX 2008) or <tbx> (TBX 2019)']]);
    expect((await refused(p, '<martif><text><body><termEntry>', 'format=tbx'))[0]![1]).toMatch(/^invalid XML: <termEntry> \(line 1\) is not closed/);
    expect((await refused(p, '<!DOCTYPE martif [<!ENTITY x "y">]><martif/>', 'format=tbx'))[0]![1]).toBe('invalid XML: DTD internal subsets are not supported');
  });

  it('lists the first 100 bad rows and counts the rest', async () => {
    const p = await project(['en']);
    const rows = Array.from({ length: 250 }, () => '');
    const detail = await refused(p, `term,case_sensitive\n${rows.map((_, i) => `t${i},maybe`).join('\n')}\n`);
    expect(detail).toHaveLength(101);
    expect(detail[99]).toEqual([['body', 'line', 101], "case_sensitive must be yes or no (or true, false, 1, 0, or empty), not 'maybe'"]);
    expect(detail[100]).toEqual([['body'], 'and 150 more refused (the first 100 are listed)']);
  });

  it('past 10,000 terms in the glossary is a 422, nothing written', async () => {
    const p = await project(['en']);
    const rows = Array.from({ length: 10_001 }, (_, i) => `term ${i}`);
    expect(await refused(p, `term\n${rows.join('\n')}\n`)).toEqual([[['body'], "the file adds 10,001 terms to the glossary's 0: over 10,000, the most a project keeps"]]);
  });

  it('a format or parameter the route does not know is a 422', async () => {
    const p = await project();
    for (const query of ['format=xlsx', 'format=csv&dry=true', 'dry_run=yes']) {
      const res = await importFile(p, CSV, query);
      expect(res.status, query).toBe(422);
    }
    expect((await exportFile(p, 'po')).status).toBe(422);
  });

  it('a file over 10 MiB is a 413; a JSON body over 1 MiB on the other routes still is', async () => {
    const p = await project();
    expect((await importFile(p, 'x'.repeat(10 * 1024 * 1024 + 1))).status).toBe(413);
    const big = await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'a', description: 'x'.repeat(1024 * 1024) });
    expect(big.status).toBe(413);
  });
});

describe('glossary files and projects', () => {
  it("import writes only the key's project; export reads only it", async () => {
    const a = await project();
    const b = await project();
    await json(await importFile(a, CSV));
    expect(await terms(b)).toEqual([]);
    expect(await (await exportFile(b, 'csv')).text()).toBe('term,description,translatable,case_sensitive,forbidden,de,fr\r\n');
    expect(await (await exportFile(a, 'csv')).text()).toContain('Dashboard');
  });
});
