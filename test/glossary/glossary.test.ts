// The glossary through the API (docs/decisions.md, "Glossary"): terms with translations in the
// project's languages, created, read, searched, paged, changed (translations merged) and deleted;
// the terms found in a key's source text (whole words, case, scripts without spaces); bad input a
// 4xx that writes nothing; another project's terms never seen; each change one event.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

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
const eventsOf = async (p: TestProject) =>
  sql()<{ type: string; entity_type: string; before: unknown; after: unknown }[]>`
    select type, entity_type, before, after from domain_events where project_id = ${p.projectId} and type like 'term.%' order by id`;
const keyWithSource = async (p: TestProject, name: string, source: string) => {
  const key = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: source, status: 'approved' }));
  return key.id as string;
};
const found = async (p: TestProject, keyId: string) => ((await list(p, `?key_id=${keyId}`)).terms as { term: string }[]).map((x) => x.term);

describe('glossary terms', () => {
  it('are created with their translations, read by id, listed in spelling order, and recorded', async () => {
    const p = await project();
    const res = await add(p, { term: ' Dashboard ', description: 'The start page after sign-in', translations: { DE: 'Übersicht', fr: 'Tableau de bord' } });
    expect(res.status).toBe(201);
    const term = await res.json();
    expect(term).toEqual({
      id: expect.any(String),
      term: 'Dashboard',
      description: 'The start page after sign-in',
      case_sensitive: false,
      translatable: true,
      forbidden: false,
      translations: { de: 'Übersicht', fr: 'Tableau de bord' },
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    await json(await add(p, { term: 'Acme', translatable: false, case_sensitive: true }));
    await json(await add(p, { term: 'billing' }));
    expect(await json(await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`))).toEqual(term);
    const all = await list(p);
    expect(all).toMatchObject({ project_id: p.projectId, count: 3 });
    expect(all).not.toHaveProperty('next_cursor');
    expect(all.terms.map((x: { term: string }) => x.term)).toEqual(['Acme', 'billing', 'Dashboard']);
    expect((await eventsOf(p)).map((e) => [e.type, e.entity_type, e.after])).toEqual([
      ['term.added', 'term', { term: 'Dashboard', translations: { de: 'Übersicht', fr: 'Tableau de bord' } }],
      ['term.added', 'term', { term: 'Acme', translations: {} }],
      ['term.added', 'term', { term: 'billing', translations: {} }],
    ]);
  });

  it('refuses a spelling the glossary has in any case (409), and a translation in a language the project lacks or its source (422), writing nothing', async () => {
    const p = await project();
    await json(await add(p, { term: 'Straße' }));
    const dup = await add(p, { term: 'STRASSE' });
    expect(dup.status).toBe(201); // "ß" folds to itself, not to "ss": a different spelling
    const taken = await add(p, { term: 'straße' });
    expect(taken.status).toBe(409);
    expect((await taken.json()).detail).toMatch(/already has the term 'straße'/);
    for (const [translations, needle] of [
      [{ it: 'Cruscotto' }, /it is not one of the project's languages/],
      [{ en: 'Dashboard' }, /source language/],
      [{ de: 'a', DE: 'b' }, /names de twice/],
    ] as const) {
      const res = await add(p, { term: 'Dashboard', translations });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.detail[0].loc.slice(0, 2)).toEqual(['body', 'translations']);
      expect(body.detail[0].msg).toMatch(needle);
    }
    expect((await list(p)).count).toBe(2);
  });

  it('refuses bad bodies with a 422 at the field and writes nothing', async () => {
    const p = await project();
    const bad: [unknown, string][] = [
      [{}, 'term'],
      [{ term: '' }, 'term'],
      [{ term: '   ' }, 'term'],
      [{ term: 'x'.repeat(201) }, 'term'],
      [{ term: 'a\u0000b' }, 'term'],
      [{ term: 'a\nb' }, 'term'],
      [{ term: '\ud800' }, 'term'],
      [{ term: 7 }, 'term'],
      [{ term: 'ok', description: 'd'.repeat(1001) }, 'description'],
      [{ term: 'ok', translatable: 'no' }, 'translatable'],
      [{ term: 'ok', case_sensitive: 1 }, 'case_sensitive'],
      [{ term: 'ok', translations: [] }, 'translations'],
      [{ term: 'ok', translations: { de: '' } }, 'translations'],
      [{ term: 'ok', translations: { de: null } }, 'translations'],
      [{ term: 'ok', translations: { 'not a code': 'x' } }, 'translations'],
      [{ term: 'ok', extra: true }, 'extra'],
    ];
    for (const [body, field] of bad) {
      const res = await add(p, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).detail[0].loc, JSON.stringify(body)).toContain(field);
    }
    expect((await list(p)).count).toBe(0);
    expect(await eventsOf(p)).toEqual([]);
  });

  it('are changed by PATCH: translations merged (null removes one), a rename checked against the others, one event with what changed', async () => {
    const p = await project();
    const term = await json(await add(p, { term: 'Dashboard', translations: { de: 'Übersicht', fr: 'Tableau de bord' } }));
    await json(await add(p, { term: 'Home' }));
    const patch = (body: unknown) => t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, body);
    const changed = await json(await patch({ translations: { de: 'Startseite', fr: null }, case_sensitive: true }));
    expect(changed).toMatchObject({ term: 'Dashboard', case_sensitive: true, translations: { de: 'Startseite' } });
    expect(changed.updated_at >= term.updated_at).toBe(true);
    expect((await patch({ term: 'home' })).status).toBe(409);
    expect((await patch({})).status).toBe(422);
    expect((await patch({ term: '' })).status).toBe(422);
    // The same again changes nothing and records nothing.
    expect(await json(await patch({ translations: { de: 'Startseite' } }))).toEqual(changed);
    const events = (await eventsOf(p)).filter((e) => e.type === 'term.updated');
    expect(events.map((e) => [e.before, e.after])).toEqual([
      [
        { term: 'Dashboard', case_sensitive: false, translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
        { term: 'Dashboard', case_sensitive: true, translations: { de: 'Startseite' } },
      ],
    ]);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/glossary/${term.id}`)).status).toBe(204);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { description: 'x' })).status).toBe(404);
    expect((await eventsOf(p)).at(-1)).toMatchObject({ type: 'term.deleted', before: { term: 'Dashboard' } });
  });

  it('lose a language\'s translations when the project removes the language', async () => {
    const p = await project();
    const term = await json(await add(p, { term: 'Dashboard', translations: { de: 'Übersicht', fr: 'Tableau de bord' } }));
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`))).translations).toEqual({ de: 'Übersicht' });
    // Removing the translation of a language the project no longer has is a no-op, not an error.
    expect((await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { translations: { fr: null } }))).translations).toEqual({ de: 'Übersicht' });
  });

  it('are searched by spelling or translation in any case, and paged with a cursor', async () => {
    const p = await project();
    for (const term of ['Alpha', 'beta', 'Gamma', 'delta', 'Épée']) await json(await add(p, { term, translations: term === 'Gamma' ? { de: 'Übergang' } : {} }));
    expect((await list(p, '?q=ELT')).terms.map((x: { term: string }) => x.term)).toEqual(['delta']);
    expect((await list(p, `?q=${encodeURIComponent('übergang')}`)).terms.map((x: { term: string }) => x.term)).toEqual(['Gamma']);
    expect((await list(p, `?q=${encodeURIComponent('ÉP')}`)).terms.map((x: { term: string }) => x.term)).toEqual(['Épée']);
    expect((await list(p, '?q=%25')).count).toBe(0); // % is a character here, not a wildcard
    const seen: string[] = [];
    let page = await list(p, '?limit=2');
    for (;;) {
      seen.push(...page.terms.map((x: { term: string }) => x.term));
      expect(page.count).toBe(5);
      if (page.next_cursor === null) break;
      page = await list(p, `?limit=2&cursor=${page.next_cursor}`);
    }
    expect(seen).toEqual(['Alpha', 'beta', 'delta', 'Gamma', 'Épée']);
    for (const query of ['?limit=0', '?limit=501', '?cursor=nope', '?serach=x', '?q=', `?key_id=${p.projectId}&q=x`, '?key_id=12']) {
      expect((await t.call(p.apiKey, 'GET', `/v1/glossary${query}`)).status, query).toBe(422);
    }
  });

  it('found in a key\'s source text as whole words, in any case unless case-sensitive, anywhere in scripts without spaces', async () => {
    const p = await project(['en', 'de', 'ja']);
    for (const body of [
      { term: 'Dashboard', translations: { de: 'Übersicht' } },
      { term: 'Apple', case_sensitive: true },
      { term: 'C++' },
      { term: 'sign in' },
      { term: 'ログイン' },
      { term: 'Page' },
    ]) await json(await add(p, body));
    expect(await found(p, await keyWithSource(p, 'a', 'Open the dashboard, then sign in.'))).toEqual(['Dashboard', 'sign in']);
    expect(await found(p, await keyWithSource(p, 'b', 'Dashboards and homepage'))).toEqual([]);
    expect(await found(p, await keyWithSource(p, 'c', 'an apple a day, Apple Pay'))).toEqual(['Apple']);
    expect(await found(p, await keyWithSource(p, 'd', 'apple pie'))).toEqual([]);
    expect(await found(p, await keyWithSource(p, 'e', 'Learn C++, then C++20'))).toEqual(['C++']);
    expect(await found(p, await keyWithSource(p, 'f', 'ログインしてください'))).toEqual(['ログイン']);
    // A key without a source value has no terms; a deleted or foreign key is a 404.
    const bare = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'bare' }));
    expect(await list(p, `?key_id=${bare.id}`)).toEqual({ project_id: p.projectId, terms: [], count: 0 });
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${bare.id}`)).status).toBe(204);
    expect((await t.call(p.apiKey, 'GET', `/v1/glossary?key_id=${bare.id}`)).status).toBe(404);
  });

  it('of one project are never seen or changed through another', async () => {
    const p = await project();
    const q = await project();
    const term = await json(await add(p, { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    const keyId = await keyWithSource(p, 'k', 'Dashboard');
    expect((await list(q)).count).toBe(0);
    expect((await t.call(q.apiKey, 'GET', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect((await t.call(q.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { term: 'Stolen' })).status).toBe(404);
    expect((await t.call(q.apiKey, 'DELETE', `/v1/glossary/${term.id}`)).status).toBe(404);
    expect((await t.call(q.apiKey, 'GET', `/v1/glossary?key_id=${keyId}`)).status).toBe(404);
    // The same spelling is free in another project.
    expect((await add(q, { term: 'Dashboard' })).status).toBe(201);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`))).term).toBe('Dashboard');
  });

  it('written at once under one spelling: one is created, the others are 409s, never a 5xx', async () => {
    const p = await project();
    const other = await json(await add(p, { term: 'Other' }));
    const answers = await Promise.all([
      ...['Inbox', 'INBOX', 'inbox', 'Inbox'].map((term) => add(p, { term })),
      t.call(p.apiKey, 'PATCH', `/v1/glossary/${other.id}`, { term: 'inBox' }),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 409)).toHaveLength(4);
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(1);
    expect((await list(p, '?q=inbox')).count).toBe(1);
  });
});
