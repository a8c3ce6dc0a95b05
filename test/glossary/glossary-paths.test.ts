// Probes (from a review, 2026-12-01): the portal's Add form with a term NFC lengthens; the glossary check agreeing
// between a PUT, bulk approval of few keys (narrowed by strpos) and of many (termFinder), and the editor.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { formFields } from '../portal/support/form-fields.ts';

const t = useTestApp();

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(languages = ['en', 'de']): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of languages) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

describe('glossary: portal', () => {
  it('the Add form with a term of 101 × U+0958 answers a refusal page, not a 500', async () => {
    const p = await project();
    const owner = await signedInMember(t, p.accountId, 'owner');
    const path = `/portal/projects/${p.projectId}/glossary`;
    const page = await owner.get(path);
    const fields = formFields(page.text, path);
    const res = await owner.post(path, { ...fields, term: '\u0958'.repeat(101) });
    expect(res.status).toBeLessThan(500);
  });
});

describe('glossary: the check agrees between paths', () => {
  it('PUT warnings, bulk approval of 2 keys (strpos path) and of 60 keys (termFinder path) agree', async () => {
    const p = await project();
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'C++ Builder', translations: { de: 'C++-Baukasten' } }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Café', translatable: false }));
    const sources = ['Open C++ Builder now', 'Visit the Cafe\u0301 today'];
    const bad = ['Öffne den Builder', 'Besuche das Kaffee'];
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const key = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}` }));
      await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: sources[i % 2], status: 'approved' }));
      const put = await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: bad[i % 2], status: 'draft' }));
      expect(put.warnings.map((w: { check: string }) => w.check), `PUT ${i}`).toContain('glossary');
      ids.push(key.id);
    }
    expect((await t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: ['glossary'] })).status).toBe(200);
    const few = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: ids.slice(0, 2), languages: ['de'], status: 'approved' });
    const many = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: ids, languages: ['de'], status: 'approved' });
    expect(few.status).toBe(422);
    expect(many.status).toBe(422);
    expect((await many.json()).detail.length).toBe(60);
  });
});
