// Probes of the glossary API (from a review, 2026-12-01): odd Unicode, regex metacharacters, q with LIKE wildcards,
// cursor paging while terms are added, and matching of Latin terms inside CJK text.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(languages = ['en', 'de', 'fr']): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of languages) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}
const add = (p: TestProject, body: Record<string, unknown>) => t.call(p.apiKey, 'POST', '/v1/glossary', body);
const list = async (p: TestProject, query = '') => json(await t.call(p.apiKey, 'GET', `/v1/glossary${query}`));
const keyWithSource = async (p: TestProject, name: string, source: string) => {
  const key = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: source, status: 'approved' }));
  return key.id as string;
};
const found = async (p: TestProject, keyId: string) => ((await list(p, `?key_id=${keyId}`)).terms as { term: string }[]).map((x) => x.term);

describe('glossary: terms that NFC lengthens', () => {
  // U+0958 (DEVANAGARI LETTER QA) is a composition exclusion: NFC writes it as two code points
  // (U+0915 U+093C). 101 of them pass the 200-character check, then are stored as 202.
  it('a term of 101 × U+0958 is a 422 at term, never a 5xx', async () => {
    const p = await project();
    const res = await add(p, { term: '\u0958'.repeat(101) });
    expect(res.status, await res.clone().text()).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(['body', 'term']);
    // 100 of them are 200 characters in NFC, the limit: stored, in NFC.
    expect((await json(await add(p, { term: '\u0958'.repeat(100) }))).term).toBe('\u0958'.repeat(100).normalize('NFC'));
  });
  it('PATCH to such a spelling is a 422 at term, never a 5xx', async () => {
    const p = await project();
    const term = await json(await add(p, { term: 'Dashboard' }));
    const res = await t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { term: '\u0958'.repeat(101) });
    expect(res.status, await res.clone().text()).toBe(422);
  });
  it('a musical symbol U+1D160 (3 code points in NFC) × 70 is a 422, never a 5xx', async () => {
    const p = await project();
    const res = await add(p, { term: '\u{1D160}'.repeat(70) });
    expect(res.status, await res.clone().text()).toBe(422);
  });
});

describe('glossary: regex metacharacters and odd Unicode', () => {
  it('terms with regex metacharacters are stored and found in a source as written', async () => {
    const p = await project();
    const cases: [string, string][] = [
      ['a+b', 'Compute a+b now'],
      ['(x)', 'Press (x) to close'],
      ['$', 'Costs $ 5'],
      ['\\', 'Path a \\ b'],
      ['[beta]', 'The [beta] flag'],
      ['.NET', 'Built on .NET today'],
      ['C++', 'Written in C++, fast'],
      ['a.b', 'See a.b here'],
      ['x*', 'Any x* glob'],
      ['{n}', 'Has {n} items'],
      ['a|b', 'Either a|b'],
      ['^top', 'Go ^top'],
      ['Wi-Fi', 'Use the Wi-Fi'],
      ['what?', 'Say what? now'],
      ['end/start', 'The end/start mark'],
    ];
    for (const [term] of cases) {
      const res = await add(p, { term });
      expect(res.status, `${term}: ${await res.clone().text()}`).toBe(201);
    }
    for (const [i, [term, source]] of cases.entries()) {
      const k = await keyWithSource(p, `k${i}`, source);
      expect(await found(p, k), term).toContain(term);
    }
    // "a.b" is not found in "axb" ('.' is literal)
    const k = await keyWithSource(p, 'dot', 'See axb here');
    expect(await found(p, k)).not.toContain('a.b');
  });

  it('NFD source text finds an NFC term, and an NFD term is found in an NFC source', async () => {
    const p = await project();
    await json(await add(p, { term: 'Caf\u00e9' }));
    await json(await add(p, { term: 'Mu\u0308nchen' }));
    const k1 = await keyWithSource(p, 'a', 'Open the Cafe\u0301 now');
    const k2 = await keyWithSource(p, 'b', 'Visit M\u00fcnchen');
    expect(await found(p, k1)).toEqual(['Café']);
    expect(await found(p, k2)).toEqual(['München']);
    // and NFC/NFD spellings are one term
    expect((await add(p, { term: 'Cafe\u0301' })).status).toBe(409);
  });

  it('ß / ẞ, emoji and RTL terms are found', async () => {
    const p = await project();
    await json(await add(p, { term: 'Straße' }));
    await json(await add(p, { term: '🚀 Launch' }));
    await json(await add(p, { term: 'لوحة التحكم' }));
    const k1 = await keyWithSource(p, 'a', 'DIE STRAẞE ist lang');
    const k2 = await keyWithSource(p, 'b', 'Press 🚀 Launch now');
    const k3 = await keyWithSource(p, 'c', 'افتح لوحة التحكم الآن');
    expect(await found(p, k1)).toEqual(['Straße']);
    expect(await found(p, k2)).toEqual(['🚀 Launch']);
    expect(await found(p, k3)).toEqual(['لوحة التحكم']);
  });

  // README: found "as a whole word"; scripts without spaces have no word edges. A Latin brand in a
  // Japanese or Chinese sentence is written without spaces around it, and its edges are a change of script.
  it('a Latin term inside Japanese / Chinese text (no spaces around it) is found', async () => {
    const p = await project(['ja', 'en']);
    await json(await add(p, { term: 'Acme Cloud' }));
    const key = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'login' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/ja`, { value: 'Acme Cloudにログイン', status: 'approved' }));
    const key2 = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'zh' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key2.id}/translations/ja`, { value: '欢迎使用Acme Cloud服务', status: 'approved' }));
    expect(await found(p, key.id)).toEqual(['Acme Cloud']);
    expect(await found(p, key2.id)).toEqual(['Acme Cloud']);
  });

  // Greek: "ΚΩΔΙΚΟΣ" folds to "κωδικος" (final sigma), but in "ΚΩΔΙΚΟΣ:ΑΒ" the Σ is followed (past a
  // case-ignorable ':') by a letter, so toLowerCase gives "κωδικοσ:αβ": the substring test misses.
  it('an upper-case Greek term ending in Σ followed by ":" and a letter is found', async () => {
    const p = await project();
    await json(await add(p, { term: 'ΚΩΔΙΚΟΣ' }));
    const k = await keyWithSource(p, 'a', 'ΚΩΔΙΚΟΣ:ΑΒΓ');
    expect(await found(p, k)).toEqual(['ΚΩΔΙΚΟΣ']);
  });
});

describe('glossary: q and paging', () => {
  it('q treats % _ and \\ literally, and count equals the matches', async () => {
    const p = await project();
    for (const term of ['50% off', 'a_b', 'ab', 'axb', 'back\\slash', 'plain']) await json(await add(p, { term }));
    const q = async (s: string) => {
      const r = await list(p, `?q=${encodeURIComponent(s)}`);
      expect(r.count).toBe(r.terms.length);
      return r.terms.map((x: { term: string }) => x.term);
    };
    expect(await q('%')).toEqual(['50% off']);
    expect(await q('_')).toEqual(['a_b']);
    expect(await q('\\')).toEqual(['back\\slash']);
    expect(await q('A_B')).toEqual(['a_b']);
    const paged = await list(p, `?q=a&limit=1`);
    expect(paged.count).toBe((await list(p, '?q=a')).terms.length);
  });

  it('q finds a translation written in NFD by its NFC spelling, and İ/ß by their folded forms', async () => {
    const p = await project();
    await json(await add(p, { term: 'Dashboard', translations: { de: 'U\u0308bersicht' } }));
    await json(await add(p, { term: 'İstanbul' }));
    expect((await list(p, `?q=${encodeURIComponent('Ü')}`)).terms.map((x: { term: string }) => x.term)).toEqual(['Dashboard']);
    expect((await list(p, `?q=${encodeURIComponent('İSTANBUL')}`)).terms.map((x: { term: string }) => x.term)).toEqual(['İstanbul']);
  });

  it('paging with a cursor lists each term once while terms are added meanwhile', async () => {
    const p = await project();
    for (const term of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']) await json(await add(p, { term }));
    const seen: string[] = [];
    let page = await list(p, '?limit=2');
    let added = 0;
    for (;;) {
      seen.push(...page.terms.map((x: { term: string }) => x.term));
      if (added === 0) {
        await json(await add(p, { term: 'a0' })); // before the cursor: not on later pages
        await json(await add(p, { term: 'B35' })); // after: listed once
        await json(await add(p, { term: 'z9' }));
        added = 1;
      }
      if (page.next_cursor === null) break;
      page = await list(p, `?limit=2&cursor=${page.next_cursor}`);
    }
    expect(seen).toEqual(['b1', 'b2', 'b3', 'B35', 'b4', 'b5', 'b6', 'z9']);
  });

  it('a cursor of another listing (keys) is refused or harmless, never a 5xx', async () => {
    const p = await project();
    await json(await add(p, { term: 'x' }));
    const cursor = Buffer.from(JSON.stringify(['\uffff', '00000000-0000-4000-8000-000000000000']), 'utf8').toString('base64url');
    const res = await t.call(p.apiKey, 'GET', `/v1/glossary?cursor=${cursor}`);
    expect(res.status).toBeLessThan(500);
  });
});

describe('glossary: projects stay apart', () => {
  it('PATCH, DELETE, GET of another project\'s term are 404 and change nothing; its terms never judge this project', async () => {
    const a = await project();
    const b = await project();
    const term = await json(await add(a, { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    expect((await t.call(b.apiKey, 'GET', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect((await t.call(b.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { term: 'Hijack' })).status).toBe(404);
    expect((await t.call(b.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { translations: { de: null } })).status).toBe(404);
    expect((await t.call(b.apiKey, 'DELETE', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect(await json(await t.call(a.apiKey, 'GET', `/v1/glossary/${term.id}`))).toEqual(term);
    const k = await keyWithSource(b, 'k', 'Open the Dashboard');
    expect(await found(b, k)).toEqual([]);
    const put = await json(await t.call(b.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: 'Öffne das Dashboard', status: 'draft' }));
    expect(put.warnings.filter((w: { check: string }) => w.check === 'glossary')).toEqual([]);
  });
});
