// Glossary writes racing other writers (from a review, 2026-12-01), made exact on real Postgres (test/support/commit-in-another-backend.ts):
// a separate backend commits what a concurrent request would, just before the service sends a statement.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { databaseUrl, onQuery } from '../support/commit-in-another-backend.ts';
import postgres from 'postgres';

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
async function racing(pattern: RegExp, statement: string, request: () => Promise<Response>): Promise<Response> {
  const stop = onQuery(sql(), pattern, await databaseUrl(sql()), statement);
  try {
    return await request();
  } finally {
    stop();
  }
}
// What DELETE /v1/languages/{code} does first (core/languages/remove-language.ts): the project row
// FOR NO KEY UPDATE, the language row FOR UPDATE, then the delete (cascading to glossary translations).
const removeLanguageSql = (p: TestProject, code: string) =>
  `begin; select 1 from projects where id = '${p.projectId}' for no key update; ` +
  `select 1 from project_languages where project_id = '${p.projectId}' and code = '${code}' for update; ` +
  `delete from project_languages where project_id = '${p.projectId}' and code = '${code}'; commit;`;

describe.runIf(usingRealPostgres())('glossary writes racing', () => {
  it('PATCH of a translation holds off a removal of its language until it is written (a 5xx before: found by review)', async () => {
    const p = await project();
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard' }));
    // The removal, sent just before the translation's insert, waits for the project row the PATCH
    // holds (and gives up after its 2 s lock_timeout): the PATCH writes, and de stays.
    const res = await racing(/insert into glossary_term_translations/, removeLanguageSql(p, 'de'), () =>
      t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { translations: { de: 'Übersicht' } }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).translations).toEqual({ de: 'Übersicht' });
    expect(await sql()`select 1 from project_languages where project_id = ${p.projectId} and code = 'de'`).toHaveLength(1);
    // Removed afterwards, the language takes its glossary translation with it.
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`))).translations).toEqual({});
  });

  it('POST of a term with a translation while its language is removed: a 4xx, not a 500', async () => {
    const p = await project();
    const res = await racing(/insert into glossary_term_translations/, removeLanguageSql(p, 'de'), () =>
      t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    expect(res.status, await res.clone().text()).toBeLessThan(500);
  });

  it('a rename racing a create of the same spelling: 409, not a 500', async () => {
    const p = await project();
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Old' }));
    const res = await racing(/update glossary_terms set/, `insert into glossary_terms (project_id, term, term_folded) values ('${p.projectId}', 'New', 'new')`, () =>
      t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { term: 'NEW' }));
    expect(res.status, await res.clone().text()).toBe(409);
  });

  it('an update whose term is deleted just before: 404', async () => {
    const p = await project();
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Gone' }));
    const res = await racing(/from glossary_terms t where t\.id = .* for no key update/s, `delete from glossary_terms where id = '${term.id}'`, () =>
      t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { description: 'x' }));
    expect(res.status, await res.clone().text()).toBe(404);
  });

  // A glossary file's import (core/glossary/import-glossary.ts) rewrites the rows of the terms it
  // changes from what it read: the terms are locked when read, so a colleague's change in between
  // waits for the import (and here gives up after its 2 s lock_timeout, which the colleague is told)
  // instead of committing and then being written over unseen. The colleague's transaction also
  // leaves a mark, so the test knows whether it committed: without the lock it did, and its
  // description was lost.
  it("an import does not write over a colleague's change of a term it read", async () => {
    const p = await project();
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', description: 'Start page' }));
    await sql()`create table if not exists race_marks (term_id uuid)`;
    const colleague = `update glossary_terms set description = 'Changed meanwhile' where id = '${term.id}'; insert into race_marks values ('${term.id}')`;
    const res = await racing(/update glossary_terms t set term = x\.term/, colleague, async () =>
      t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: 'term,de\nDashboard,Übersicht\n' }));
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await json(await t.call(p.apiKey, 'GET', `/v1/glossary/${term.id}`));
    expect(after.translations).toEqual({ de: 'Übersicht' });
    const committed = (await sql()`select 1 from race_marks where term_id = ${term.id}`).length > 0;
    // Either the colleague waited and was refused (the import's description stays), or committed
    // after the import (theirs stays): never committed and then lost.
    expect({ committed, description: after.description }).toEqual({ committed: false, description: 'Start page' });
  });

  it('an import racing a removal of a language it writes: the removal waits, the import writes', async () => {
    const p = await project();
    const res = await racing(/insert into glossary_terms/, removeLanguageSql(p, 'de'), async () =>
      t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: 'term,de\nDashboard,Übersicht\n' }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await sql()`select 1 from project_languages where project_id = ${p.projectId} and code = 'de'`).toHaveLength(1);
  });

  it('an import racing a rename onto one of its spellings: 409, nothing written', async () => {
    const p = await project();
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Old' }));
    const res = await racing(/insert into glossary_terms/, `update glossary_terms set term = 'Fresh', term_folded = 'fresh' where id = '${term.id}'`, async () =>
      t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: 'term,de\nFresh,Frisch\nOther,Andere\n' }));
    expect(res.status, await res.clone().text()).toBe(409);
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms.map((x: { term: string }) => x.term)).toEqual(['Fresh']);
  });

  it('concurrent creates of one spelling: one 201, the rest 409', async () => {
    const p = await project();
    const answers = await Promise.all(['Dash', 'dash', 'DASH', 'Dash', 'dAsh'].map((term) => t.call(p.apiKey, 'POST', '/v1/glossary', { term })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  // The limit and the languages are read in a statement of their own, after the project's lock is
  // granted: a read inside the locking statement saw what was committed before it waited (found
  // while building screenshots, 2026-12-01, where four uploads at 998 of 1,000 all passed).
  it('concurrent creates at 9,999 terms: one more is kept, the others are refused', async () => {
    const p = await project();
    await sql()`insert into glossary_terms (project_id, term, term_folded) select ${p.projectId}, 'filler ' || i, 'filler ' || i from generate_series(1, 9999) as i`;
    const answers = await Promise.all(['One', 'Two', 'Three'].map((term) => t.call(p.apiKey, 'POST', '/v1/glossary', { term })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    const [counted] = await sql()<{ n: number }[]>`select count(*)::int as n from glossary_terms where project_id = ${p.projectId}`;
    expect(counted!.n).toBe(10_000);
  });

  it('an import that waited for a language removal reads the languages as the removal left them', async () => {
    const p = await project();
    const other = postgres(await databaseUrl(sql()), { max: 1, onnotice: () => {} });
    try {
      let answer: Promise<Response> | undefined;
      await other.begin(async (tx) => {
        await tx.unsafe(removeLanguageSql(p, 'de').replace(/^begin; | commit;$/g, ''));
        // The import starts while the removal holds the project row, and waits for it.
        answer = Promise.resolve(t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: 'term,de,fr\nDashboard,Übersicht,Tableau de bord\n' }));
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const res = await answer!;
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).warnings.join(' ')).toMatch(/\bde\b/);
      expect((await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms[0].translations).toEqual({ fr: 'Tableau de bord' });
    } finally {
      await other.end();
    }
  });

  it('concurrent PATCHes renaming two terms to one spelling: one 200, one 409', async () => {
    const p = await project();
    const a = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'A' }));
    const b = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'B' }));
    const answers = await Promise.all([a, b].map((x, i) => t.call(p.apiKey, 'PATCH', `/v1/glossary/${x.id}`, { term: i ? 'same' : 'SAME' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
