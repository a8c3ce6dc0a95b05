// The helpers of test/glossary/glossary-files(-cases).test.ts: a project, a glossary file in and out, the terms as listed.
import type { TestApp, TestProject } from '../support/test-app.ts';

export function helpers(t: TestApp) {
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
  const importFile = (p: TestProject, body: string | Uint8Array, query = 'format=csv') =>
    t.app.request(`/v1/glossary/import?${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'text/csv' }, body });
  const exportFile = (p: TestProject, format: string) => t.app.request(`/v1/glossary/export?format=${format}`, { headers: { 'X-API-Key': p.apiKey } });
  type Term = { id?: string; term: string; description: string; case_sensitive: boolean; translatable: boolean; translations: Record<string, string> };
  const terms = async (p: TestProject): Promise<Term[]> =>
    ((await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms as Term[]).map(({ term, description, case_sensitive, translatable, translations }) => ({ term, description, case_sensitive, translatable, translations }));
  const termsWithIds = async (p: TestProject): Promise<Term[]> => (await json(await t.call(p.apiKey, 'GET', '/v1/glossary'))).terms as Term[];
  const addTerm = async (p: TestProject, body: Record<string, unknown>) => json(await t.call(p.apiKey, 'POST', '/v1/glossary', body));
  return { sql, json, project, importFile, exportFile, terms, termsWithIds, addTerm };
}
