// The activity page in words, after real writes through the service: API keys (one named, written
// with, then revoked), a key and its value from the API and the editor, an import, a publish and a
// settings change read as sentences with their changes, the named key's writes by its name, and
// never an event's type name or raw JSON.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { EVENT_TYPES } from '../../core/events/domain-event.ts';
import { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values ('owner@example.com', ${await hashPassword('not used here')}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'owner')`;
  const session = await createSession(t.runtime.deps, user!.id);
  owner = new PortalClient(t.app);
  owner.cookies.set('tms_session', session.token);
  owner.csrf = session.csrf;
});

/** The activity table's rows as text: who, what, change (tags dropped, entities decoded). */
function rows(html: string) {
  const body = /<tbody>([^]*?)<\/tbody>/.exec(html)![1]!;
  const text = (cell: string) => cell.replace(/<[^>]*>/g, '').replaceAll('&quot;', '"').replaceAll('&amp;', '&').replace(/\s+/g, ' ').trim();
  return [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map(([, tr]) => {
    const cells = [...tr!.matchAll(/<td[^>]*>([^]*?)<\/td>/g)].map(([, td]) => text(td!));
    return { who: cells[1]!, what: cells[2]!, change: cells[3]! };
  });
}

describe('the activity page', () => {
  it('tells every write in words, API keys by name, with no event type or JSON', async () => {
    const base = `/portal/projects/${p.projectId}`;
    // An API key created in the portal with a name, and writes made with it.
    const created = await owner.post(`${base}/api-keys`, { name: 'CI pipeline', kind: 'live' });
    expect(created.status).toBe(201);
    const ci = /key_live_[0-9A-Za-z]+/.exec(created.text)![0];
    const key = (await (await t.call(ci, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' })).json()) as { id: string };
    expect((await t.call(ci, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Hallo' })).status).toBe(200);
    // The editor: a new text, then the same text approved.
    expect((await owner.post(`${base}/keys/${key.id}/values/de`, { value: 'Servus', status: 'draft' })).status).toBe(303);
    expect((await owner.post(`${base}/keys/${key.id}/values/de`, { value: 'Servus', status: 'approved' })).status).toBe(303);
    // An import with the named key: one new key and value, one changed value.
    const imported = await t.app.request(`/v1/import/de?format=json&status=draft`, {
      method: 'POST',
      headers: { 'X-API-Key': ci, 'Content-Type': 'application/octet-stream' },
      body: JSON.stringify({ 'home.title': 'Grüß Gott', 'home.subtitle': 'Willkommen' }),
    });
    expect(imported.status).toBe(200);
    // Publish, change a setting, revoke the key: it keeps its name in the log.
    expect((await owner.post(`${base}/publish`)).status).toBe(303);
    await t.runtime.rebuilds!.idle();
    expect((await owner.post(`${base}/settings`, { auto_rebuild: 'true' })).status).toBe(303);
    const [ciRow] = await t.runtime.deps.sql<{ id: string }[]>`select id from api_keys where project_id = ${p.projectId} and name = 'CI pipeline'`;
    expect((await owner.post(`${base}/api-keys/${ciRow!.id}/revoke`)).status).toBe(303);

    const page = await owner.get(`${base}/activity`);
    expect(page.status).toBe(200);
    const log = rows(page.text);
    const said = (who: string, what: string, change?: string | RegExp) => {
      const row = log.find((r) => r.who === who && r.what.startsWith(what));
      expect(row, `${who} ${what} in\n${log.map((r) => `${r.who} | ${r.what} | ${r.change}`).join('\n')}`).toBeDefined();
      if (typeof change === 'string') expect(row!.change).toBe(change);
      else if (change) expect(row!.change).toMatch(change);
    };
    const named = 'API key “CI pipeline”';
    const unnamed = `API key ${p.apiKeyId.slice(0, 8)}`;
    said(unnamed, 'added language de', '');
    said('owner@example.com', 'created API key “CI pipeline” (live)', 'live: full access');
    said(named, 'created key home.title', 'in group home');
    said(named, 'wrote home.title (de) history', 'nothing → "Hallo" (draft)');
    said('owner@example.com', 'changed the value of home.title (de)', '"Hallo" (draft) → "Servus" (draft)');
    said('owner@example.com', 'approved home.title (de)', '"Servus" (draft) → "Servus" (approved)');
    said(named, 'imported a json file into de', /^1 new key, 1 new value, 1 changed, 0 unchanged \(as draft; \d+ translation units?\)$/);
    said(named, 'changed the value of home.title (de)', '"Servus" (approved) → "Grüß Gott" (draft)');
    said('owner@example.com', 'asked to publish the translations');
    said('tms (builder)', 'published the translations (cache built)', /^everything up to request \d+$/);
    said('owner@example.com', 'changed the project settings: auto rebuild', 'auto rebuild: off → on');
    said('owner@example.com', `revoked ${named}`, '');

    // The names are shown as names, the values in their language, the history links kept.
    expect(page.text).toContain('created key <span class="mono">home.title</span>');
    expect(page.text).toContain('&quot;<span lang="de" dir="ltr">Hallo</span>&quot; (draft) → &quot;<span lang="de" dir="ltr">Servus</span>&quot; (draft)');
    expect(page.text).toContain(`<a href="${base}/keys/${key.id}/values/de/history">history</a>`);
    expect(page.text).toContain('<caption class="sr-only">Activity, newest first</caption>');
    // Never JSON, never an event's type name.
    const table = /<tbody>([^]*?)<\/tbody>/.exec(page.text)![1]!;
    expect(table).not.toMatch(/\{&quot;|\{"/);
    for (const type of EVENT_TYPES) expect(table, type).not.toContain(type);

    // History names the key the same way.
    const history = await owner.get(`${base}/keys/${key.id}/values/de/history`);
    expect(history.text).toContain(named);
  });

  it("the Members page keeps the account's own log: invitations, roles and removals by email, for this account only", async () => {
    const members = `/portal/accounts/${p.accountId}/members`;
    const sql = t.runtime.deps.sql;
    const [member] = await sql<{ id: string }[]>`
      insert into users (email, password_hash) values ('tr@example.com', ${await hashPassword('not used here')}) returning id`;
    // The membership as an accepted invitation makes it, so that its events are the service's own.
    expect((await owner.post(`/portal/accounts/${p.accountId}/invites`, { role: 'reviewer', languages: 'fr' })).status).toBe(201);
    const revoke = /action="(\/portal\/accounts\/[0-9a-f-]{36}\/invites\/[0-9a-f-]{36}\/revoke)"/.exec((await owner.get(members)).text)![1]!;
    expect((await owner.follow(await owner.post(revoke, {}))).text).toContain("Invitation revoked");
    await sql`insert into memberships (user_id, account_id, role, languages) values (${member!.id}, ${p.accountId}, 'translator', ${['de']})`;
    expect((await owner.post(`${members}/${member!.id}/role`, { role: 'reviewer', languages: 'de, fr' })).status).toBe(303);
    expect((await owner.post(`${members}/${member!.id}/remove`, {})).status).toBe(303);

    const page = await owner.get(members);
    expect(page.status).toBe(200);
    const section = /<section id="account-activity">([^]*?)<\/section>/.exec(page.text)![1]!;
    const log = rows(section);
    expect(log.slice(0, 4).map((r) => [r.who, r.what, r.change])).toEqual([
      ['owner@example.com', 'removed tr@example.com (reviewer for de, fr)', ''],
      ['owner@example.com', 'changed the role of tr@example.com to reviewer for de, fr', 'translator for de → reviewer for de, fr'],
      ['owner@example.com', 'revoked an unused invitation (reviewer for fr)', ''],
      ['owner@example.com', 'invited someone as reviewer for fr', expect.stringMatching(/^the link works until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/)],
    ]);
    expect(section).not.toMatch(/\{&quot;|\{"/);
    for (const type of EVENT_TYPES) expect(section, type).not.toContain(type);

    // Another account's owner sees their own log only, and never this one.
    const other = await t.newProject('team');
    const [stranger] = await sql<{ id: string }[]>`
      insert into users (email, password_hash) values ('stranger@example.com', ${await hashPassword('not used here')}) returning id`;
    await sql`insert into memberships (user_id, account_id, role) values (${stranger!.id}, ${other.accountId}, 'owner')`;
    const session = await createSession(t.runtime.deps, stranger!.id);
    const them = new PortalClient(t.app);
    them.cookies.set('tms_session', session.token);
    them.csrf = session.csrf;
    expect((await them.get(members)).status).toBe(404);
    const theirs = await them.get(`/portal/accounts/${other.accountId}/members`);
    expect(theirs.status).toBe(200);
    expect(theirs.text).not.toContain('tr@example.com');
    // Its own log: the account and its project, made through the admin API.
    const theirLog = rows(/<section id="account-activity">([^]*?)<\/section>/.exec(theirs.text)![1]!);
    expect(theirLog.map((r) => r.what)).toEqual(['created the project project', `created the account ${/Members of (acct-[0-9a-f]+)/.exec(theirs.text)![1]}`]);
  });
});
