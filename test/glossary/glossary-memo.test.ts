// A PUT, and the key's terms (`GET /v1/glossary?key_id=`), find the source's glossary terms in the
// process's memo of the project's glossary, kept with the glossary version it was read at (migration
// 043, core/glossary/glossary-memo.ts): every glossary change (a term created, changed, deleted,
// imported, a translation of one) moves the version in its own transaction, and the next PUT's
// warnings and the next listing follow it, in this process and in another one on the same database. The memo is bounded by terms, least recently used first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { startReplicas, type Replicas } from '../support/replicas.ts';
import { createGlossaryMemo } from '../../core/glossary/glossary-memo.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
const glossaryWarnings = (answer: { warnings: { check: string; message: string }[] }) => answer.warnings.filter((w) => w.check === 'glossary').map((w) => w.message);
const versionOf = async (projectId: string) =>
  (await sql()<{ v: string }[]>`select coalesce((select version from project_glossary_versions where project_id = ${projectId}), 0)::text as v`)[0]!.v;

/** The key's terms as `GET /v1/glossary?key_id=` lists them: each term with its German. */
async function keyTerms(call: typeof t.call, apiKey: string, keyId: string): Promise<string[]> {
  const listed = await json(await call(apiKey, 'GET', `/v1/glossary?key_id=${keyId}`));
  return (listed.terms as { term: string; translations: Record<string, string> }[]).map((x) => `${x.term}=${x.translations.de ?? ''}`);
}

async function projectWithKey(call: typeof t.call, p: TestProject): Promise<string> {
  for (const code of ['en', 'de']) await json(await call(p.apiKey, 'POST', '/v1/languages', { code }));
  const key = await json(await call(p.apiKey, 'POST', '/v1/keys', { key: 'open' }));
  await json(await call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: 'Open the dashboard', status: 'approved' }));
  return key.id as string;
}

describe('the glossary a PUT checks against', () => {
  it('follows every change of the glossary at once: created, translated again, imported, deleted', async () => {
    const p = await t.newProject('team');
    const keyId = await projectWithKey(t.call, p);
    const put = async (value: string) => glossaryWarnings(await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value, status: 'draft' })));
    const listed = () => keyTerms(t.call, p.apiKey, keyId);
    expect(await put('Dashboard öffnen')).toEqual([]);
    expect(await listed()).toEqual([]);
    const term = await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    expect(await listed()).toEqual(['Dashboard=Übersicht']);
    expect(await put('Dashboard öffnen')).toEqual(['The glossary says "Dashboard" is "Übersicht" in de, and this does not use it']);
    expect(await put('Übersicht öffnen')).toEqual([]);
    // Only the term's translation changes (glossary_term_translations).
    await json(await t.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { translations: { de: 'Startseite' } }));
    expect(await listed()).toEqual(['Dashboard=Startseite']);
    expect(await put('Übersicht öffnen')).toEqual(['The glossary says "Dashboard" is "Startseite" in de, and this does not use it']);
    // An import that changes the same term's translation, and adds one the source holds.
    await json(await t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: 'term,de\r\nDashboard,Cockpit\r\nOpen,Öffnen\r\n' }));
    expect(await listed()).toEqual(['Dashboard=Cockpit', 'Open=Öffnen']);
    expect(await put('Startseite öffnen')).toEqual(['The glossary says "Dashboard" is "Cockpit" in de, and this does not use it']);
    await t.call(p.apiKey, 'DELETE', `/v1/glossary/${term.id}`);
    expect(await listed()).toEqual(['Open=Öffnen']);
    expect(await put('Startseite öffnen')).toEqual([]);
    // A new source text is found in the glossary the memo holds.
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/en`, { value: 'Close the dashboard', status: 'approved' }));
    expect(await listed()).toEqual([]);
  });

  it('moves the version once per transaction, whatever it changes: a 500-term import is one step', async () => {
    const p = await t.newProject('team');
    await projectWithKey(t.call, p);
    const before = BigInt(await versionOf(p.projectId));
    const rows = Array.from({ length: 500 }, (_, i) => `Term ${i},Begriff ${i}`);
    const imported = await json(await t.app.request('/v1/glossary/import?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: `term,de\r\n${rows.join('\r\n')}\r\n` }));
    expect(imported.terms_created).toBe(500);
    expect(BigInt(await versionOf(p.projectId))).toBe(before + 1n);
    // Another project's version does not move with it.
    const other = await t.newProject('team');
    expect(await versionOf(other.projectId)).toBe('0');
  });

  it('is read once per version: the same finder until the glossary changes', async () => {
    const p = await t.newProject('team');
    await projectWithKey(t.call, p);
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    const memo = createGlossaryMemo({ maxTerms: 100 });
    const v1 = await versionOf(p.projectId);
    const first = await memo.finder(sql(), p.projectId, v1);
    expect(first('Open the dashboard').map((x) => x.term)).toEqual(['Dashboard']);
    // Concurrent writes that find it missing share one read.
    const [a, b] = await Promise.all([memo.finder(sql(), p.projectId, v1), memo.finder(sql(), p.projectId, v1)]);
    expect(a).toBe(first);
    expect(b).toBe(first);
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Open' }));
    const v2 = await versionOf(p.projectId);
    expect(BigInt(v2)).toBeGreaterThan(BigInt(v1));
    // A write that read the older version may use the newer glossary; one that read the newer never the older.
    const second = await memo.finder(sql(), p.projectId, v2);
    expect(second).not.toBe(first);
    expect(second('Open the dashboard').map((x) => x.term)).toEqual(['Dashboard', 'Open']);
    expect(await memo.finder(sql(), p.projectId, v1)).toBe(second);
  });

  it('holds at most its budget of terms, dropping the least recently used glossary', async () => {
    const memo = createGlossaryMemo({ maxTerms: 5 });
    const projects: TestProject[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await t.newProject('team');
      await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
      for (const term of ['Alpha', 'Beta']) await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term }));
      projects.push(p);
    }
    const [p0, p1, p2] = projects as [TestProject, TestProject, TestProject];
    const f0 = await memo.finder(sql(), p0.projectId, await versionOf(p0.projectId));
    await memo.finder(sql(), p1.projectId, await versionOf(p1.projectId));
    expect(memo.size()).toEqual({ glossaries: 2, terms: 4 });
    // p0 used again: p1 is now the least recently used, and goes for p2.
    expect(await memo.finder(sql(), p0.projectId, await versionOf(p0.projectId))).toBe(f0);
    await memo.finder(sql(), p2.projectId, await versionOf(p2.projectId));
    expect(memo.size()).toEqual({ glossaries: 2, terms: 4 });
    expect(await memo.finder(sql(), p0.projectId, await versionOf(p0.projectId))).toBe(f0);
    // A project without terms is an entry of its own (its finder finds nothing).
    const empty = await t.newProject('team');
    expect((await memo.finder(sql(), empty.projectId, '0'))('Alpha')).toEqual([]);
  });
});

// Two processes on one PostgreSQL: one changes the glossary, the other's next PUT follows.
describe.runIf(usingRealPostgres())('another process changes the glossary', () => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas(2);
  });
  afterAll(async () => {
    await r?.close();
  });

  it('and this process\'s next PUT warns, and its listing of a key\'s terms shows, the new glossary, not its memo', async () => {
    const [a, b] = r.replicas as [(typeof r.replicas)[0], (typeof r.replicas)[0]];
    const account = await json(await a.admin('POST', '/accounts', { name: 'memo', plan: 'team' }));
    const created = await json(await a.admin('POST', `/accounts/${account.id}/projects`, { name: 'memo' }));
    const p = { apiKey: created.api_key.key as string } as TestProject;
    const keyId = await projectWithKey(a.call, p);
    const term = await json(await b.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    const put = async (value: string) => glossaryWarnings(await json(await a.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value, status: 'draft' })));
    expect(await put('Übersicht öffnen')).toEqual([]);
    expect(await keyTerms(a.call, p.apiKey, keyId)).toEqual(['Dashboard=Übersicht']);
    await json(await b.call(p.apiKey, 'PATCH', `/v1/glossary/${term.id}`, { translations: { de: 'Startseite' } }));
    expect(await keyTerms(a.call, p.apiKey, keyId)).toEqual(['Dashboard=Startseite']);
    expect(await put('Übersicht öffnen')).toEqual(['The glossary says "Dashboard" is "Startseite" in de, and this does not use it']);
    await b.call(p.apiKey, 'DELETE', `/v1/glossary/${term.id}`);
    expect(await keyTerms(a.call, p.apiKey, keyId)).toEqual([]);
    expect(await put('Übersicht öffnen')).toEqual([]);
  });
});
