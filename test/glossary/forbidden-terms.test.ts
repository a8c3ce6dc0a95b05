// Forbidden glossary terms (docs/decisions.md, "Forbidden terms"): a word the product does not use.
// Its spelling must not appear in the source language's values, nor its translation in a language's
// values: the quality check forbidden_terms warns wherever values are judged (a PUT's answer, an
// import, the problems filter), blocks approval where a project makes it blocking, and judges the
// source language too. A forbidden term kept as written (a competitor's name) is the word not to use
// in every language. Glossary files carry the flag: CSV's `forbidden` column, TBX's administrative
// status (deprecatedTerm-admn-sts).
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { forbiddenWords } from '../../core/glossary/forbidden-words.ts';
import { keysWithProblems } from '../../core/quality/keys-with-problems.ts';
import { helpers } from './glossary-files-helpers.ts';

const t = useTestApp();
const { sql, json, project, importFile, exportFile } = helpers(t);

const login = { term: 'Login', case_sensitive: false, translatable: true, translations: { de: 'Einloggen', fr: 'Loguer' } };
const forbidden = forbiddenWords([login], 'en')!;
const found = (text: string, language: string) =>
  checkTranslation({ text, language, source: language === 'en' ? null : 'Sign in', sourceLanguage: 'en', forbidden }).filter((w) => w.check === 'forbidden_terms').map((w) => w.message);

describe('the forbidden_terms check', () => {
  it('finds the spelling in the source language and the translation in its language, as whole words in any case', () => {
    expect(found('Login to continue', 'en')).toEqual(['"Login" is a forbidden term (glossary): do not use it']);
    expect(found('Please LOGIN first', 'en')).toHaveLength(1);
    expect(found('Sign in to continue', 'en')).toEqual([]);
    // Whole words only: "Logins" and "loginname" are other words (as the glossary finds terms).
    expect(found('Two logins, one loginname', 'en')).toEqual([]);
    expect(found('Zum Einloggen klicken', 'de')).toEqual(['"Einloggen" is forbidden in de (glossary, the term "Login"): do not use it']);
    expect(found('Anmelden', 'de')).toEqual([]);
    // Another language's forbidden word is not this language's: "Login" in German is not judged.
    expect(found('Login', 'de')).toEqual([]);
    // A language without a forbidden translation has nothing to avoid.
    expect(found('Einloggen', 'it')).toEqual([]);
  });

  it('reads only the words a translator wrote: placeholders, tags, ICU syntax and addresses are no use of a word', () => {
    expect(found('Hello {login}, welcome', 'en')).toEqual([]);
    expect(found('Hello {{login}}', 'en')).toEqual([]);
    expect(found('<a href="/login">Sign in</a>', 'en')).toEqual([]);
    // Found by review: i18next's nesting names another key; an address's path and a mailbox are not words.
    expect(found('Click $t(common.login) to continue', 'en')).toEqual([]);
    expect(found('Open https://example.com/login or www.example.com/login', 'en')).toEqual([]);
    expect(found('Write to login@example.com', 'en')).toEqual([]);
    expect(found('Login at https://example.com', 'en')).toHaveLength(1);
    expect(found('{count, plural, one {# login attempt} other {# attempts}}', 'en')).toHaveLength(1);
    expect(found('{count, plural, one {# Versuch} other {Einloggen: # Versuche}}', 'de')).toHaveLength(1);
  });

  it('a term kept as written forbids its spelling in every language', () => {
    const rival = forbiddenWords([{ term: 'Crowdin', case_sensitive: false, translatable: false, translations: {} }], 'en')!;
    const checks = (text: string, language: string) => checkTranslation({ text, language, source: null, sourceLanguage: 'en', forbidden: rival }).map((w) => w.message);
    expect(checks('Switch from Crowdin', 'en')).toEqual(['"Crowdin" is a forbidden term (glossary): do not use it']);
    expect(checks('Wechseln Sie von Crowdin', 'de')).toEqual(['"Crowdin" is a forbidden term (glossary): do not use it']);
    expect(checks('Crowdin からの移行', 'ja')).toHaveLength(1);
  });

  it("a regional variant of the source language forbids the source spelling, unless the term has its own translation there", () => {
    const terms = forbiddenWords([login, { term: 'Color', case_sensitive: false, translatable: true, translations: { 'en-GB': 'Colour' } }], 'en')!;
    const words = (text: string, language: string) => terms(text, language).map((w) => w.word);
    expect(words('Login to continue', 'en-GB')).toEqual(['Login']);
    expect(words('Login to continue', 'EN-au')).toEqual(['Login']);
    expect(words('Pick a colour, not a color', 'en-GB')).toEqual(['Colour']);
    // Another language is still judged by its own translations only.
    expect(words('Login', 'de-AT')).toEqual([]);
  });

  it('honours a case-sensitive term', () => {
    const strict = forbiddenWords([{ term: 'SSO', case_sensitive: true, translatable: true, translations: {} }], 'en')!;
    const messages = (text: string) => checkTranslation({ text, language: 'en', source: null, sourceLanguage: 'en', forbidden: strict }).map((w) => w.check);
    expect(messages('Use SSO')).toEqual(['forbidden_terms']);
    expect(messages('Use sso')).toEqual([]);
  });

  it("is not the glossary check's agreed word: a source holding a forbidden term does not ask for its translation", () => {
    const terms = [{ ...login, translatable: true, forbidden: true }];
    const warnings = checkTranslation({ text: 'Anmelden', language: 'de', source: 'Login', sourceLanguage: 'en', terms, forbidden });
    expect(warnings).toEqual([]);
  });
});

async function withTerms(): Promise<TestProject> {
  const p = await project(['en', 'de']);
  await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Login', forbidden: true, description: 'Say "Sign in"', translations: { de: 'Einloggen' } }));
  await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Sign in', translations: { de: 'Anmelden' } }));
  return p;
}
const keyWith = async (p: TestProject, key: string, source: string) => {
  const created = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/en`, { value: source }));
  return created.id as string;
};
const put = (p: TestProject, keyId: string, language: string, value: string, status = 'draft') => t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status });
const checks = (warnings: { check: string }[]) => warnings.map((w) => w.check);

describe('forbidden terms through the API', () => {
  it('are created, listed and changed with the flag, kept as written or not', async () => {
    const p = await project(['en', 'de']);
    const created = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Login', forbidden: true }));
    expect(created).toMatchObject({ term: 'Login', forbidden: true, translatable: true });
    const plain = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard' }));
    expect(plain.forbidden).toBe(false);
    const rival = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Crowdin', forbidden: true, translatable: false }));
    expect(rival).toMatchObject({ forbidden: true, translatable: false });
    for (const bad of [{ forbidden: 'yes' }, { forbidden: null }, { forbidden: 1 }]) {
      const res = await t.call(p.apiKey, 'PATCH', `/v1/glossary/${created.id}`, bad);
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['body', 'forbidden']);
    }
    const brand = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Acme', translatable: false }));
    expect(await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${brand.id}`, { forbidden: true }))).toMatchObject({ forbidden: true, translatable: false });
    expect(await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${brand.id}`, { forbidden: false, translatable: true }))).toMatchObject({ forbidden: false, translatable: true });
    const updated = await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${created.id}`, { forbidden: false }));
    expect(updated.forbidden).toBe(false);
    const events = await sql()<{ before: unknown; after: unknown }[]>`
      select before, after from domain_events where project_id = ${p.projectId} and type = 'term.updated' and entity_id = ${created.id}`;
    expect(events).toEqual([{ before: { term: 'Login', forbidden: true }, after: { term: 'Login', forbidden: false } }]);
    const stored = await sql()<{ term: string; forbidden: boolean }[]>`select term, forbidden from glossary_terms where project_id = ${p.projectId} order by term`;
    expect(stored).toEqual([{ term: 'Acme', forbidden: false }, { term: 'Crowdin', forbidden: true }, { term: 'Dashboard', forbidden: false }, { term: 'Login', forbidden: false }]);
  });

  it("warn in a PUT's answer, in the source language and in a translation, and not where the value avoids them", async () => {
    const p = await withTerms();
    const k = await keyWith(p, 'cta', 'Sign in to continue');
    const source = await json(await put(p, k, 'en', 'Login to continue'));
    expect(source.warnings).toEqual([{ check: 'forbidden_terms', message: '"Login" is a forbidden term (glossary): do not use it' }]);
    await json(await put(p, k, 'en', 'Sign in to continue'));
    // Both checks: the agreed word for "Sign in" is missing, and a forbidden word is used.
    const de = await json(await put(p, k, 'de', 'Zum Fortfahren einloggen'));
    expect(de.warnings).toEqual([
      { check: 'glossary', message: 'The glossary says "Sign in" is "Anmelden" in de, and this does not use it' },
      { check: 'forbidden_terms', message: '"Einloggen" is forbidden in de (glossary, the term "Login"): do not use it' },
    ]);
    expect((await json(await put(p, k, 'de', 'Zum Fortfahren anmelden'))).warnings).toEqual([]);
    // A project without forbidden terms (a glossary of agreed words only) is not judged by another's.
    const q = await project(['en', 'de']);
    const other = await keyWith(q, 'cta', 'Sign in');
    expect((await json(await put(q, other, 'de', 'Einloggen'))).warnings).toEqual([]);
  });

  it('a PUT reads only the forbidden words its value could hold, and finds them among hundreds', async () => {
    const p = await project(['en', 'de']);
    const csv = ['term,forbidden,de', ...Array.from({ length: 300 }, (_, i) => `Banned ${i},yes,Verboten${i}`), 'Login,yes,Einloggen'].join('\n');
    await json(await importFile(p, csv));
    const k = await keyWith(p, 'cta', 'Sign in');
    const warned = async (language: string, value: string) => checks((await json(await put(p, k, language, value))).warnings).filter((c) => c === 'forbidden_terms').length;
    expect(await warned('de', 'Jetzt einloggen')).toBe(1);
    expect(await warned('de', 'Verboten7 und Verboten250')).toBe(2);
    // "Verboten1" is inside "Verboten12" as text (the narrowing's strpos), but not as a word.
    expect(await warned('de', 'Verboten12')).toBe(1);
    expect(await warned('de', 'Jetzt anmelden')).toBe(0);
    expect(await warned('en', 'Banned 42 here')).toBe(1);
  });

  it('as a blocking check refuse approval by PUT, bulk status and import, writing nothing', async () => {
    const p = await withTerms();
    await json(await t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: ['forbidden_terms'] }));
    const k = await keyWith(p, 'cta', 'Sign in');
    const refused = await put(p, k, 'de', 'Einloggen', 'approved');
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0]).toMatchObject({ loc: ['body', 'value'], type: 'quality.forbidden_terms' });
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${k}/translations/de`)).status).toBe(404);
    // The source language's own approval too.
    const source = await put(p, k, 'en', 'Login', 'approved');
    expect(source.status).toBe(422);
    await json(await put(p, k, 'de', 'Einloggen'));
    const bulk = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [k], languages: ['de'], status: 'approved' });
    expect(bulk.status).toBe(422);
    expect((await bulk.json()).detail[0].type).toBe('quality.forbidden_terms');
    const imported = await t.app.request('/v1/import/de?format=json&status=approved', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cta: 'Jetzt einloggen' }),
    });
    expect(imported.status).toBe(422);
    expect((await imported.json()).detail[0]).toMatchObject({ loc: ['file', 'cta'], type: 'quality.forbidden_terms' });
    const stored = await sql()<{ value: string; status: string }[]>`select value, status from translations where key_id = ${k} and language = 'de'`;
    expect(stored).toEqual([{ value: 'Einloggen', status: 'draft' }]);
    expect((await json(await put(p, k, 'de', 'Anmelden', 'approved'))).status).toBe('approved');
  });

  it('judge the values of keys an import creates, and block their approval (found by review)', async () => {
    const p = await withTerms();
    const importValues = (language: string, body: Record<string, string>, query = '') =>
      t.app.request(`/v1/import/${language}?format=json${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const en = await json(await importValues('en', { 'auth.cta': 'Login to continue' }));
    expect(checks(en.quality_warnings.values)).toEqual(['forbidden_terms']);
    const de = await json(await importValues('de', { 'auth.other': 'Zum Fortfahren einloggen' }));
    expect(checks(de.quality_warnings.values)).toEqual(['forbidden_terms']);
    await json(await t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: ['forbidden_terms'] }));
    const refused = await importValues('en', { 'auth.new': 'Login now' }, '&status=approved');
    expect(refused.status).toBe(422);
    const keys = await sql()<{ key: string }[]>`select key from translation_keys where project_id = ${p.projectId} order by key`;
    expect(keys.map((k) => k.key)).toEqual(['auth.cta', 'auth.other']);
  });

  it("are listed in an import's warnings and found by the problems filter, in the source language too", async () => {
    const p = await withTerms();
    await keyWith(p, 'a', 'Login here');
    await keyWith(p, 'b', 'Sign in here');
    const answer = await json(
      await t.app.request('/v1/import/de?format=json', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ a: 'Hier anmelden', b: 'Hier einloggen' }) }),
    );
    expect(answer.quality_warnings.values.filter((w: { check: string }) => w.check === 'forbidden_terms')).toEqual([
      { key: 'b', check: 'forbidden_terms', message: '"Einloggen" is forbidden in de (glossary, the term "Login"): do not use it' },
    ]);
    const problems = async (language: string) =>
      (await keysWithProblems(t.runtime.deps, { projectId: p.projectId, language, sourceLanguage: 'en', limit: 10 })).keys.map((x) => [x.key, checks(x.warnings)]);
    expect(await problems('de')).toEqual([['b', ['glossary', 'forbidden_terms']]]);
    expect(await problems('en')).toEqual([['a', ['forbidden_terms']]]);
    // No longer forbidden: nothing to report of it.
    const [term] = (await json(await t.call(p.apiKey, 'GET', '/v1/glossary?q=login'))).terms;
    await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { forbidden: false }));
    // Its German word is now the agreed one: "Login here" asks for it, and "Sign in here" for Anmelden.
    expect(await problems('de')).toEqual([['a', ['glossary']], ['b', ['glossary']]]);
    expect(await problems('en')).toEqual([]);
  });
});

describe('forbidden terms in glossary files', () => {
  it('CSV: the forbidden column is read and written, and the export reads back as the same glossary', async () => {
    const p = await project(['en', 'de']);
    const csv = 'term,forbidden,de\r\nLogin,yes,Einloggen\r\nSign in,no,Anmelden\r\nDashboard,,Übersicht\r\n';
    const result = await json(await importFile(p, csv));
    expect(result).toMatchObject({ terms_created: 3, warnings: [] });
    const listed = (await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms.map((x: { term: string; forbidden: boolean }) => [x.term, x.forbidden]);
    expect(listed).toEqual([['Dashboard', false], ['Login', true], ['Sign in', false]]);
    const exported = await (await exportFile(p, 'csv')).text();
    expect(exported.split('\r\n')[0]).toBe('term,description,translatable,case_sensitive,forbidden,de');
    expect(exported).toContain('Login,,true,false,true,Einloggen');
    const again = await json(await importFile(p, exported));
    expect(again).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 3 });
  });

  it("CSV: a Lokalise row both forbidden and non-translatable is a competitor's name, forbidden in every language", async () => {
    const p = await project(['en', 'de']);
    const answer = await json(await importFile(p, 'term;description;translatable;forbidden;de\nCrowdin;A competitor;no;yes;\n'));
    expect(answer).toMatchObject({ terms_created: 1, warnings: [] });
    const k = await keyWith(p, 'switch', 'Switch to us');
    expect(checks((await json(await put(p, k, 'de', 'Wechseln Sie von Crowdin'))).warnings)).toEqual(['forbidden_terms']);
    const bad = await importFile(p, 'term,forbidden\nLogin,maybe\n');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].msg).toContain('forbidden must be yes or no');
  });

  it('TBX: a deprecated term is a forbidden one, read apart from the term to use of the same entry', async () => {
    const p = await project(['en', 'de', 'fr']);
    const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="en"><text><body>
  <termEntry id="c1">
    <descrip type="definition">Entering an account</descrip>
    <langSet xml:lang="en">
      <tig><term>Login</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
      <tig><term>Sign in</term><termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
    </langSet>
    <langSet xml:lang="de">
      <tig><term>Einloggen</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
      <tig><term>Anmelden</term></tig>
    </langSet>
    <langSet xml:lang="fr">
      <ntig><termGrp><term>Se connecter</term><termNote type="administrativeStatus">admittedTerm-admn-sts</termNote></termGrp></ntig>
    </langSet>
  </termEntry>
  <termEntry id="c2">
    <langSet xml:lang="en"><tig><term>Dashboard</term></tig></langSet>
    <langSet xml:lang="de">
      <tig><term>Armaturenbrett</term><termNote type="normativeAuthorization">deprecatedTerm</termNote></tig>
      <tig><term>Übersicht</term></tig>
    </langSet>
  </termEntry>
</body></text></martif>`;
    const result = await json(await importFile(p, tbx, 'format=tbx'));
    expect(result).toMatchObject({ terms_created: 3 });
    // Armaturenbrett has no forbidden source term to be kept under: skipped, and said so.
    expect(result.warnings).toEqual([expect.stringContaining('1 entry has terms marked not to use (deprecated) in other languages but none in en')]);
    const listed = (await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms.map((x: { term: string; forbidden: boolean; translations: Record<string, string>; description: string }) => [x.term, x.forbidden, x.translations, x.description]);
    expect(listed).toEqual([
      ['Dashboard', false, { de: 'Übersicht' }, ''],
      ['Login', true, { de: 'Einloggen' }, 'Entering an account'],
      ['Sign in', false, { de: 'Anmelden', fr: 'Se connecter' }, 'Entering an account'],
    ]);
    // The export marks a forbidden term's terms deprecated, and reads back as the same glossary.
    const exported = await (await exportFile(p, 'tbx')).text();
    expect(exported.match(/deprecatedTerm-admn-sts/g)).toHaveLength(2);
    const again = await json(await importFile(p, exported, 'format=tbx'));
    expect(again).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 3, warnings: [] });
  });

  it('TBX: a term base as one writes it: a forbidden word in several entries, one kept as written, terms to use without a source term', async () => {
    const p = await project(['en', 'de']);
    const tbx = `<?xml version="1.0"?><martif xml:lang="en"><text><body>
<termEntry><langSet xml:lang="en"><tig><term>Crowdin</term><termNote type="administrativeStatus">forbidden</termNote><termNote type="x-doNotTranslate">yes</termNote></tig></langSet></termEntry>
<termEntry><langSet xml:lang="en"><tig><term>Sign in</term></tig><tig><term>Login</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig></langSet></termEntry>
<termEntry><langSet xml:lang="en"><tig><term>Sign-in page</term></tig><tig><term>Login</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig></langSet></termEntry>
<termEntry><langSet xml:lang="en"><tig><term>Logon</term><termNote type="administrativeStatus">supersededTerm-admn-sts</termNote></tig></langSet>
  <langSet xml:lang="de"><tig><term>Anmelden</term><termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig></langSet></termEntry>
</body></text></martif>`;
    const answer = await json(await importFile(p, tbx, 'format=tbx'));
    expect(answer.terms_created).toBe(5);
    expect(answer.warnings).toEqual([
      expect.stringContaining('1 entry has terms to use in other languages but only terms marked not to use in en'),
      expect.stringContaining('1 term marked not to use is in more than one entry: each was read from its first entry'),
    ]);
    const listed = (await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms.map((x: { term: string; forbidden: boolean; translatable: boolean }) => [x.term, x.forbidden, x.translatable]);
    expect(listed).toEqual([
      ['Crowdin', true, false],
      ['Login', true, true],
      ['Logon', true, true],
      ['Sign in', false, true],
      ['Sign-in page', false, true],
    ]);
  });
});
