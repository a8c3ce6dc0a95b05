// Removing a language in the portal says how many values it deletes for good, then deletes only
// those: values written, changed or deleted between the confirmation and the click (a CI push, a
// translator's save) are not deleted unseen. The confirmation is asked again with the new count.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;

const visible = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');
/** The hidden fields of the confirmation form, as a browser would send them back. */
function confirmation(html: string, code: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*action="/portal/projects/${p.projectId}/languages/${code}/remove"[^>]*class="card[^"]*"[^>]*>([^]*?)</form>`).exec(html)?.[1];
  if (!form) throw new Error('no confirmation form');
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[name!] = value!;
  delete fields._csrf;
  return fields;
}
const count = async (code: string) =>
  (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from translations where project_id = ${p.projectId} and language = ${code}`)[0]!.n;
async function valueIn(code: string, key: string, value: string): Promise<string> {
  const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key });
  const { id } = (await created.json()) as { id: string };
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/${code}`, { value })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  p = await t.newProject('team');
  owner = await signedInMember(t, p.accountId, 'owner');
});

describe('removing a language in the portal', () => {
  it('does not delete values written after the confirmation counted them: it asks again with the new count', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })).status).toBe(201);
    await valueIn('it', 'rm.one', 'Uno');
    await valueIn('it', 'rm.two', 'Due');
    const asked = await owner.post(`/portal/projects/${p.projectId}/languages/it/remove`);
    expect(asked.status).toBe(200);
    expect(visible(asked.text)).toContain('deletes its 2 values for good');
    const fields = confirmation(asked.text, 'it');
    expect(fields).toMatchObject({ confirmed: 'yes', values: '2', digest: expect.stringMatching(/^[0-9a-f]{32}$/) });

    // CI pushes three more before the owner clicks.
    const push = await t.call(p.apiKey, 'POST', '/v1/import/it?format=json', JSON.stringify({ 'rm.three': 'Tre', 'rm.four': 'Quattro', 'rm.five': 'Cinque' }));
    expect(push.status).toBe(200);
    const refused = await owner.post(`/portal/projects/${p.projectId}/languages/it/remove`, fields);
    expect(refused.status).toBe(412);
    expect(visible(refused.text)).toContain('The values of it changed since you were asked (2 then, 5 now). Nothing was removed');
    expect(await count('it')).toBe(5);

    // The page asks again, with the count it now deletes; that confirmation removes them.
    expect(visible(refused.text)).toContain('deletes its 5 values for good');
    const removed = await owner.post(`/portal/projects/${p.projectId}/languages/it/remove`, confirmation(refused.text, 'it'));
    expect(removed.status).toBe(303);
    expect(visible((await owner.get(removed.location!)).text)).toContain('Removed it and its 5 values.');
    expect(await count('it')).toBe(0);
  });

  it('a value changed, or one deleted, since the confirmation is a change too (the count alone would not see the first)', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'es' })).status).toBe(201);
    const uno = await valueIn('es', 'es.one', 'Uno');
    await valueIn('es', 'es.two', 'Dos');
    const asked = await owner.post(`/portal/projects/${p.projectId}/languages/es/remove`);
    const fields = confirmation(asked.text, 'es');
    // Same count, another text: a translator's save.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${uno}/translations/es`, { value: 'Uno (revisado)' })).status).toBe(200);
    expect((await owner.post(`/portal/projects/${p.projectId}/languages/es/remove`, fields)).status).toBe(412);
    expect(await count('es')).toBe(2);

    const again = confirmation((await owner.post(`/portal/projects/${p.projectId}/languages/es/remove`)).text, 'es');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${uno}/translations/es`)).status).toBe(204);
    expect((await owner.post(`/portal/projects/${p.projectId}/languages/es/remove`, again)).status).toBe(412);
    expect(await count('es')).toBe(1);
  });

  // Versions are handed out when a write runs, not when it commits: a long import's change that
  // commits after the confirmation, under a version older than one already committed, moves neither
  // the count nor the latest version. Real PostgreSQL only (PGlite serves one connection at a time).
  it.runIf(usingRealPostgres())('a change committed after the confirmation under an older version than the newest shown is seen too', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'nl' })).status).toBe(201);
    const slow = await valueIn('nl', 'nl.slow', 'Langzaam');
    const fast = await valueIn('nl', 'nl.fast', 'Snel');
    const { sql } = t.runtime.deps;
    let fields: Record<string, string> = {};
    await sql.begin(async (tx) => {
      // The long write takes its version first...
      await tx`update translations set value = 'Langzaam (nieuw)' where key_id = ${slow} and language = 'nl'`;
      // ...another commits a later one, and the owner is asked while the first is still running.
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${fast}/translations/nl`, { value: 'Snel (nieuw)' })).status).toBe(200);
      fields = confirmation((await owner.post(`/portal/projects/${p.projectId}/languages/nl/remove`)).text, 'nl');
    });
    expect((await owner.post(`/portal/projects/${p.projectId}/languages/nl/remove`, fields)).status).toBe(412);
    expect(await count('nl')).toBe(2);
  });

  it('a confirmation without its counts (a form of an earlier version) asks again; one for a language gone meanwhile is a 404', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'pt' })).status).toBe(201);
    await valueIn('pt', 'pt.one', 'Um');
    const asked = await owner.post(`/portal/projects/${p.projectId}/languages/pt/remove`, { confirmed: 'yes' });
    expect(asked.status).toBe(200);
    expect(visible(asked.text)).toContain('deletes its 1 value for good');
    expect(await count('pt')).toBe(1);

    const fields = confirmation(asked.text, 'pt');
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/pt')).status).toBe(200);
    expect((await owner.post(`/portal/projects/${p.projectId}/languages/pt/remove`, fields)).status).toBe(404);
    expect((await owner.post(`/portal/projects/${p.projectId}/languages/pt/remove`)).status).toBe(404);
  });
});
