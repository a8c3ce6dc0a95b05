// No-break spaces in glossary terms (docs/decisions.md, "No-break spaces in glossary terms"): a value
// written with U+00A0, the narrow U+202F, a thin or figure space, or HTML's &nbsp; between the words
// of a term holds the term, for the editor's hints, the agreed-word and forbidden-word checks and the
// glossary's own uniqueness; migration 039 refolded the spellings stored before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { termsIn, termFinder } from '../../core/glossary/find-terms.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { fold } from '../../core/glossary/fold.ts';
import { helpers } from './glossary-files-helpers.ts';

const t = useTestApp();
const { sql, json, project, addTerm } = helpers(t);

const SPACES = ['\u00A0', '\u202F', '\u2009', '\u2007', '&nbsp;', '&#160;', '&#xA0;', '&#x00a0;'];
const acme = { term: 'Acme Cloud', case_sensitive: false };
const strict = { term: 'Acme Cloud', case_sensitive: true };

describe('a term with a no-break space between its words', () => {
  it('is found however the space is written, case-sensitive or not, one by one and by the finder', () => {
    for (const space of SPACES) {
      const text = `Welcome to Acme${space}Cloud.`;
      expect(termsIn(text, [acme]), space).toEqual([acme]);
      expect(termsIn(text, [strict]), space).toEqual([strict]);
      expect(termFinder([acme])(text), space).toEqual([acme]);
    }
    // A term written with a no-break space is found in a text with a plain one.
    expect(termsIn('Welcome to Acme Cloud', [{ term: 'Acme\u00A0Cloud', case_sensitive: true }])).toHaveLength(1);
    // Still whole words, and other entities are not spaces.
    expect(termsIn('Acme&nbsp;Clouds', [acme])).toEqual([]);
    expect(termsIn('Acme&amp;Cloud', [acme])).toEqual([]);
    expect(fold('Mot\u202Fde\u00A0passe')).toBe('mot de passe');
  });

  it('satisfies the agreed-word check and trips the forbidden-word check', () => {
    const terms = [{ term: 'Acme Cloud', case_sensitive: true, translatable: false, forbidden: false, translations: {} }];
    const agreed = (text: string) => checkTranslation({ text, language: 'de', source: 'Open Acme Cloud', sourceLanguage: 'en', terms }).map((w) => w.check);
    expect(agreed('Acme&nbsp;Cloud öffnen')).toEqual([]);
    expect(agreed('Acme\u00A0Cloud öffnen')).toEqual([]);
    expect(agreed('Acme-Cloud öffnen')).toEqual(['glossary']);
  });
});

const keyWith = async (p: TestProject, key: string, source: string) => {
  const created = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/en`, { value: source }));
  return created.id as string;
};

describe('through the API', () => {
  it("a PUT's warnings and the editor's hints read a no-break space as a space", async () => {
    const p = await project(['en', 'de']);
    await addTerm(p, { term: 'Acme Cloud', translatable: false });
    await addTerm(p, { term: 'Log in', forbidden: true, translations: { de: 'Log-in' } });
    const k = await keyWith(p, 'cta', 'Open Acme&nbsp;Cloud');
    const put = async (language: string, value: string) => (await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/${language}`, { value }))).warnings;
    expect(await put('de', 'Acme\u00A0Cloud öffnen')).toEqual([]);
    expect(await put('de', 'Cloud öffnen')).toEqual([{ check: 'glossary', message: '"Acme Cloud" stays as written (glossary), and this does not have it' }]);
    expect(await put('en', 'Log\u00A0in to Acme&nbsp;Cloud')).toEqual([{ check: 'forbidden_terms', message: '"Log in" is a forbidden term (glossary): do not use it' }]);
    // The key's source text holds the term (the narrowing in PostgreSQL compares folded spellings).
    const hints = await json(await t.call(p.apiKey, 'GET', `/v1/glossary?key_id=${k}`));
    expect(hints.terms.map((x: { term: string }) => x.term)).toEqual(['Acme Cloud', 'Log in']);
  });

  it('a term spelled with a no-break space is the same term as with a space', async () => {
    const p = await project(['en']);
    await addTerm(p, { term: 'Acme Cloud' });
    const res = await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Acme\u00A0Cloud' });
    expect(res.status).toBe(409);
  });

  it('migration 039 refolds stored spellings, and leaves a spelling another term already has', async () => {
    const p = await project(['en', 'de']);
    const a = await addTerm(p, { term: 'Acme Cloud', translations: { de: 'Acme Wolke' } });
    const b = await addTerm(p, { term: 'Mot de passe' });
    // As a database before 039 holds them: the no-break spaces kept in the folded spellings.
    await sql()`update glossary_terms set term_folded = 'acme' || chr(160) || 'cloud' where id = ${a.id}`;
    await sql()`update glossary_term_translations set text_folded = 'acme&nbsp;wolke' where term_id = ${a.id}`;
    await sql()`update glossary_terms set term_folded = 'mot' || chr(8239) || 'de passe' where id = ${b.id}`;
    const c = await addTerm(p, { term: 'Mot de passe2' });
    // Two terms that fold alike after 039: the second keeps its spelling instead of failing the upgrade.
    await sql()`update glossary_terms set term_folded = 'mot de passe' where id = ${c.id}`;
    const migration = readFileSync(join(import.meta.dirname, '../../core/db/migrations/039_glossary_no_break_spaces.sql'), 'utf8');
    await sql().unsafe(migration);
    const rows = await sql()<{ id: string; term_folded: string }[]>`select id, term_folded from glossary_terms where project_id = ${p.projectId} order by term`;
    expect(rows).toEqual([
      { id: a.id, term_folded: 'acme cloud' },
      { id: b.id, term_folded: 'mot\u202Fde passe' },
      { id: c.id, term_folded: 'mot de passe' },
    ]);
    expect(await sql()`select text_folded from glossary_term_translations where term_id = ${a.id}`).toEqual([{ text_folded: 'acme wolke' }]);
  });
});
