// The quality check `glossary` (docs/quality.md): a translation of a source that holds a glossary
// term uses the term's agreed translation (anywhere, in any case unless the term is case-sensitive:
// "Übersichtsseite" holds "Übersicht"), and a term marked do-not-translate is kept as written. In
// the PUT's answer, an import's warnings, the problems filter; as a blocking check, approvals
// refused (PUT, bulk status, import) with nothing written. The word finder over a whole glossary
// (termFinder) finds what the direct search finds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { keysWithProblems } from '../../core/quality/keys-with-problems.ts';
import { termFinder, termsIn } from '../../core/glossary/find-terms.ts';
import { termsInTexts } from '../../core/glossary/terms-in-texts.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

const dashboard = { term: 'Dashboard', case_sensitive: false, translatable: true, translations: { de: 'Übersicht' } };
const acme = { term: 'Acme Cloud', case_sensitive: true, translatable: false, translations: {} };
const check = (text: string, terms = [dashboard, acme], language = 'de') =>
  checkTranslation({ text, language, source: 'Open the Acme Cloud dashboard', sourceLanguage: 'en', terms }).filter((w) => w.check === 'glossary').map((w) => w.message);

describe('the glossary check', () => {
  it('wants the agreed translation (inflected or compound forms hold it) and a do-not-translate term as written', () => {
    expect(check('Öffne die Acme Cloud Übersicht')).toEqual([]);
    expect(check('Öffne die Übersichtsseite von Acme Cloud')).toEqual([]);
    expect(check('Zur ÜBERSICHT der Acme Cloud')).toEqual([]);
    expect(check('Öffne das Dashboard der Acme-Wolke')).toEqual([
      'The glossary says "Dashboard" is "Übersicht" in de, and this does not use it',
      '"Acme Cloud" stays as written (glossary), and this does not have it',
    ]);
    // Case-sensitive: "acme cloud" is not the brand as written.
    expect(check('Öffne die Übersicht von acme cloud')).toEqual(['"Acme Cloud" stays as written (glossary), and this does not have it']);
    // A language without an agreed translation has nothing to use; an empty value nothing to judge.
    expect(check('Ouvrir le tableau de bord Acme Cloud', [dashboard, acme], 'fr')).toEqual([]);
    expect(check('', [dashboard, acme])).toEqual([]);
    // The source language is the term's own text: never judged.
    expect(checkTranslation({ text: 'x', language: 'en', source: null, sourceLanguage: 'en', terms: [dashboard] })).toEqual([]);
  });

  it('finds over a whole glossary what the direct search finds', () => {
    const words = ['Sign in', 'sign', 'Dashboard', 'C++', '.NET', 'e-mail', 'ログイン', 'Apple', 'Übersicht', 'page', 'Home page', 'café'];
    const terms = words.map((term, i) => ({ term, case_sensitive: i % 5 === 4 }));
    const find = termFinder(terms);
    const texts = [
      'Sign in to the dashboard',
      'SIGN IN with C++ and .NET',
      'Send an E-Mail, then ログインしてください',
      'apple pie, Apple Pay, Homepage, home page',
      'Zur Übersicht im Café',
      'signing in, dashboards, pages',
      'Cafe\u0301 (NFD) and CAFÉ',
      '',
    ];
    for (const text of texts) expect(find(text).map((x) => x.term), text).toEqual(termsIn(text, terms).map((x) => x.term));
  });
});

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
  await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Acme Cloud', translatable: false, case_sensitive: true }));
  return p;
}
const keyWithSource = async (p: TestProject, key: string, source: string) => {
  const created = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/en`, { value: source, status: 'approved' }));
  return created.id as string;
};
const put = (p: TestProject, keyId: string, value: string, status = 'draft') => t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value, status });
const block = (p: TestProject, checks: string[]) => t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: checks });
const importJson = (p: TestProject, file: Record<string, string>, status: string) =>
  t.app.request(`/v1/import/de?format=json&status=${status}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(file) });
const glossaryWarnings = (warnings: { check: string; message: string }[]) => warnings.filter((w) => w.check === 'glossary').map((w) => w.message);

describe('the terms of many texts or long ones', () => {
  it('are the same whether PostgreSQL narrows the glossary (few, short texts) or it is read whole (long ones)', async () => {
    const p = await project();
    const short = ['Open the dashboard', 'Welcome to Acme Cloud', 'Nothing here'];
    const long = [...short, `${'lorem ipsum '.repeat(2_000)}dashboard`];
    const names = (m: Map<string, { term: string }[]>) => Object.fromEntries([...m].map(([text, terms]) => [text.slice(-30), terms.map((x) => x.term)]));
    const few = await termsInTexts(sql(), p.projectId, short);
    expect(names(few)).toEqual({ 'Open the dashboard': ['Dashboard'], 'Welcome to Acme Cloud': ['Acme Cloud'] });
    const whole = await termsInTexts(sql(), p.projectId, long);
    expect(names(whole)).toEqual({ ...names(few), [long[3]!.slice(-30)]: ['Dashboard'] });
  });

  it('PostgreSQL, narrowing a glossary by the first words of few texts, finds what the direct search finds in the whole glossary', async () => {
    // Terms beginning with an ASCII letter or digit are looked up by the texts' words (index
    // ranges); the others (punctuation, accents, other scripts) are all tested. Spellings that share
    // a first word or are each other's prefix, digits, case, marks, no-break spaces, astral letters.
    const spellings = [
      'Sign in', 'sign', 'Sign-in page', 'signal', 'Dashboard', 'C++', '.NET', 'e-mail', 'E', 'ログイン', 'Übersicht', 'über',
      'page', 'Home page', 'home', 'café', 'Cafe', '2FA', '2fa code', '3D', '_id', 'İstanbul', 'Wi\u00A0Fi', 'wi-fi', 'zz\u{1D41A}',
      'Привет', 'ǅem', 'x\uD7FB', 'x\uD7FF', 'a', 'ab', 'abz', '{x}', '~home', 'Acme Cloud', 'acme',
    ];
    const p = await t.newProject('team');
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
    const terms: { term: string; case_sensitive: boolean }[] = [];
    for (const [i, term] of spellings.entries()) {
      const created = await t.call(p.apiKey, 'POST', '/v1/glossary', { term, case_sensitive: i % 4 === 3 });
      if (created.status === 201) terms.push({ term, case_sensitive: i % 4 === 3 });
    }
    expect(terms.length).toBeGreaterThan(30);
    const pieces = [...spellings, 'Sign', 'SIGN IN', 'signin', 'Home', 'pages', 'CAFÉ', 'Cafe\u0301', '2FA-Code', 'istanbul', 'Wi Fi', 'WI-FI', 'abc', 'AB', 'x', 'z', '12', 'ログインしてください', '欢迎使用Acme Cloud服务', '.net', 'über-', 'ab.', '  ', ', ', ' and ', '(', ')'];
    const text = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' ').replace(/ ([,.)])/g, '$1'));
    const direct = (texts: string[]) => Object.fromEntries(texts.flatMap((x) => { const found = termsIn(x, terms).map((term) => term.term).sort(); return found.length ? [[x, found]] : []; }));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), async (texts) => {
        const narrowed = await termsInTexts(sql(), p.projectId, texts);
        expect(Object.fromEntries([...narrowed].map(([x, found]) => [x, found.map((term) => term.term).sort()]))).toEqual(direct([...new Set(texts)]));
      }),
      { seed: 20261203, numRuns: 150 },
    );
  });
});

describe('the glossary check where values are written', () => {
  it('warns in a PUT answer, and not when the translation uses the term', async () => {
    const p = await project();
    const k = await keyWithSource(p, 'open', 'Open the dashboard');
    expect(glossaryWarnings((await json(await put(p, k, 'Dashboard öffnen'))).warnings)).toEqual(['The glossary says "Dashboard" is "Übersicht" in de, and this does not use it']);
    expect((await json(await put(p, k, 'Übersicht öffnen'))).warnings).toEqual([]);
    // Another key's source without the term: no glossary warning.
    const other = await keyWithSource(p, 'close', 'Close the window');
    expect((await json(await put(p, other, 'Fenster schließen'))).warnings).toEqual([]);
  });

  it('as a blocking check refuses approvals by PUT, bulk status and import, writing nothing, and keeps drafts', async () => {
    const p = await project();
    await json(await block(p, ['glossary']));
    const k = await keyWithSource(p, 'brand', 'Welcome to Acme Cloud');
    const refused = await put(p, k, 'Willkommen bei Acme Wolke', 'approved');
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0]).toMatchObject({ loc: ['body', 'value'], type: 'quality.glossary' });
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${k}/translations/de`)).status).toBe(404);
    expect(glossaryWarnings((await json(await put(p, k, 'Willkommen bei Acme Wolke'))).warnings)).toHaveLength(1);
    const bulk = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [k], languages: ['de'], status: 'approved' });
    expect(bulk.status).toBe(422);
    expect((await bulk.json()).detail[0].type).toBe('quality.glossary');
    const imported = await importJson(p, { brand: 'Willkommen bei der Wolke' }, 'approved');
    expect(imported.status).toBe(422);
    expect((await imported.json()).detail[0]).toMatchObject({ loc: ['file', 'brand'], type: 'quality.glossary' });
    const stored = await sql()<{ value: string; status: string }[]>`select value, status from translations where key_id = ${k} and language = 'de'`;
    expect(stored).toEqual([{ value: 'Willkommen bei Acme Wolke', status: 'draft' }]);
    expect((await json(await put(p, k, 'Willkommen bei Acme Cloud', 'approved'))).status).toBe('approved');
  });

  it("lists an import's glossary warnings, and the problems filter finds the key", async () => {
    const p = await project();
    await keyWithSource(p, 'open', 'Open the dashboard');
    await keyWithSource(p, 'fine', 'Open the dashboard now');
    const answer = await json(await importJson(p, { open: 'Dashboard öffnen', fine: 'Übersicht jetzt öffnen' }, 'draft'));
    expect(answer.quality_warnings.values).toEqual([{ key: 'open', check: 'glossary', message: 'The glossary says "Dashboard" is "Übersicht" in de, and this does not use it' }]);
    const found = await keysWithProblems(t.runtime.deps, { projectId: p.projectId, language: 'de', sourceLanguage: 'en', limit: 10 });
    expect(found.keys.map((x) => [x.key, x.warnings.map((w) => w.check)])).toEqual([['open', ['glossary']]]);
    // A term deleted: no longer judged.
    const terms = (await json(await t.call(p.apiKey, 'GET', '/v1/glossary?q=dashboard'))).terms;
    expect((await t.call(p.apiKey, 'DELETE', `/v1/glossary/${terms[0].id}`)).status).toBe(204);
    expect((await keysWithProblems(t.runtime.deps, { projectId: p.projectId, language: 'de', sourceLanguage: 'en', limit: 10 })).keys).toEqual([]);
  });

  it("judges one project's values by its own glossary only", async () => {
    const p = await project();
    const q = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(q.apiKey, 'POST', '/v1/languages', { code }));
    const k = await keyWithSource(q, 'open', 'Open the dashboard');
    expect((await json(await put(q, k, 'Dashboard öffnen'))).warnings).toEqual([]);
    expect(p.projectId).not.toBe(q.projectId);
  });
});
