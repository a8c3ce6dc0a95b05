// Comments on values at their edges (from a review): the limit counted after trimming, a member who
// left, a language's removal saying what it deletes, tms mcp's limit, escaping, other accounts, a
// reviewer's and a removed member's rights, a key recreated, a group deleted and restored, Activity
// without the text.
import { describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { createMcpServer } from '../../cli/src/commands/mcp.ts';
import type { Client } from '../../cli/src/client.ts';

const t = useTestApp();

const thread = (keyId: string, language: string) => `/v1/keys/${keyId}/translations/${language}/comments`;
const add = (p: Project, keyId: string, language: string, text: unknown) => t.call(p.apiKey, 'POST', thread(keyId, language), { text });

async function translated(): Promise<{ p: Project; keyId: string }> {
  const p = await project(t, ['en', 'de']);
  const keyId = await p.key('home.title', 'home');
  await p.put(keyId, 'en', 'Welcome', 'approved');
  return { p, keyId };
}

describe('edges', () => {
  it('text is limited after trimming: 2,000 characters plus a trailing line break are 2,000 characters stored', async () => {
    const { p, keyId } = await translated();
    // The API says "1 to 2,000 characters, trimmed"; the trim happens after the length check.
    const res = await add(p, keyId, 'de', `${'x'.repeat(2_000)}\n`);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await body(res)).text).toBe('x'.repeat(2_000));
  });

  it('a member who left the account is still named by their email, as Activity names them', async () => {
    const { p, keyId } = await translated();
    const member = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'review-leaver' });
    const posted = await member.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'Leaving soon' });
    expect(posted.status).toBe(303);
    // What removeMember (core/users/members.ts) does: the membership goes, the user row stays.
    await t.runtime.deps.sql`delete from memberships where account_id = ${p.accountId} and user_id in (select id from users where email like 'review-leaver-%')`;
    const list = await body(await p.get(thread(keyId, 'de')));
    expect(list.comments[0].author.name).toMatch(/^review-leaver-.*@example\.com$/);
  });

  it("the portal's Remove language confirmation says the comments it deletes, not only the values", async () => {
    const { p, keyId } = await translated();
    // de has no value, only a thread: the confirmation says "deletes its 0 values".
    expect((await add(p, keyId, 'de', 'A question about the source')).status).toBe(201);
    expect((await add(p, keyId, 'de', 'And its answer')).status).toBe(201);
    const dev = await signedInMember(t, p.accountId, 'developer');
    const confirm = await dev.post(`/portal/projects/${p.projectId}/languages/de/remove`, {});
    expect(confirm.status).toBe(200);
    const said = confirm.text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    expect(said).toContain('Removing de deletes its 0 values for good');
    expect(said).toMatch(/2 comments/);
  });

});

describe('boundaries', () => {
  it('tms mcp add_comment takes what the API takes: 1,500 emoji are 1,500 characters', async () => {
    const { p, keyId } = await translated();
    const client: Client = {
      request: async (method, path, init = {}) =>
        t.app.request(path, { method, headers: { ...init.headers, 'X-API-Key': p.apiKey }, ...(init.body ? { body: init.body } : {}) }),
      json: async () => {
        throw new Error('not used');
      },
    };
    const server = createMcpServer(client, p.apiKey);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const agent = new McpClient({ name: 'review', version: '0' });
    await Promise.all([server.connect(a), agent.connect(b)]);
    const text = '👍'.repeat(1_500);
    // The API itself takes it (2,000 code points at most).
    expect((await add(p, keyId, 'de', text)).status).toBe(201);
    const result = await agent.callTool({ name: 'add_comment', arguments: { key_id: keyId, language: 'de', text } });
    expect(result.isError, JSON.stringify(result).slice(0, 300)).toBeFalsy();
    await agent.close();
  });
  it('comment text and an API key name with markup are escaped on the value page', async () => {
    const { p, keyId } = await translated();
    await t.runtime.deps.sql`update api_keys set name = ${'<img src=x onerror=alert(1)>"'} where id = ${p.apiKeyId}`;
    expect((await add(p, keyId, 'de', '<script>alert(1)</script>\n"><svg onload=alert(2)>')).status).toBe(201);
    const dev = await signedInMember(t, p.accountId, 'developer');
    const page = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<svg onload');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it("another account's member reaches no comment of this project through the portal, by key id or project id", async () => {
    const { p, keyId } = await translated();
    expect((await add(p, keyId, 'de', 'Private')).status).toBe(201);
    const [c] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from value_comments where key_id = ${keyId}`;
    const other = await project(t, ['de']);
    const stranger = await signedInMember(t, other.accountId, 'owner');
    const base = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    expect((await stranger.get(`${base}/history`)).status).toBe(404);
    expect((await stranger.post(`${base}/comments`, { text: 'x' })).status).toBe(404);
    expect((await stranger.post(`${base}/comments/${c!.id}/delete`)).status).toBe(404);
    // Their own project's address with our key.
    const theirs = `/portal/projects/${other.projectId}/keys/${keyId}/values/de`;
    const page = await stranger.get(`${theirs}/history`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Private');
    expect((await stranger.post(`${theirs}/comments`, { text: 'x' })).status).toBe(404);
    expect((await stranger.post(`${theirs}/comments/${c!.id}/delete`)).status).toBe(404);
    const [n] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from value_comments where key_id = ${keyId}`;
    expect(n!.n).toBe(1);
  });

  it('a reviewer deletes their own comment, not an API key\'s (403); a removed member deletes nothing (404)', async () => {
    const { p, keyId } = await translated();
    const theirs = (await body(await add(p, keyId, 'de', 'From CI'))).id;
    const reviewer = await signedInMember(t, p.accountId, 'reviewer', { emailPrefix: 'review-rev' });
    const base = `/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`;
    expect((await reviewer.post(`${base}/${theirs}/delete`)).status).toBe(403);
    expect((await reviewer.post(base, { text: 'Mine' })).status).toBe(303);
    const [mine] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from value_comments where key_id = ${keyId} and text = 'Mine'`;
    await t.runtime.deps.sql`delete from memberships where account_id = ${p.accountId} and user_id in (select id from users where email like 'review-rev-%')`;
    expect((await reviewer.post(`${base}/${mine!.id}/delete`)).status).toBe(404);
    expect((await reviewer.post(base, { text: 'Again' })).status).toBe(404);
  });

  it('a key deleted and a new key of the same name: the new key starts an empty thread and the old one stays hidden', async () => {
    const { p, keyId } = await translated();
    expect((await add(p, keyId, 'de', 'About the old key')).status).toBe(201);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const fresh = await p.key('home.title', 'home');
    expect(fresh).not.toBe(keyId);
    expect((await body(await p.get(thread(fresh, 'de')))).comments).toEqual([]);
    expect((await p.get(thread(keyId, 'de'))).status).toBe(404);
  });

  it('a group deleted hides its threads; restored, they are back', async () => {
    const { p, keyId } = await translated();
    expect((await add(p, keyId, 'de', 'In the group')).status).toBe(201);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/home')).status).toBeLessThan(300);
    expect((await p.get(thread(keyId, 'de'))).status).toBe(404);
    const restored = await t.admin('POST', `/projects/${p.projectId}/groups/home/restore`);
    expect(restored.status, await restored.clone().text()).toBeLessThan(300);
    expect((await body(await p.get(thread(keyId, 'de')))).comments.map((c: { text: string }) => c.text)).toEqual(['In the group']);
  });

  it('Activity names a comment event whose key was deleted, without its text', async () => {
    const { p, keyId } = await translated();
    expect((await add(p, keyId, 'de', 'secret-words-here')).status).toBe(201);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const dev = await signedInMember(t, p.accountId, 'developer');
    const activity = await dev.get(`/portal/projects/${p.projectId}/activity`);
    expect(activity.status).toBe(200);
    expect(activity.text).toContain('commented on');
    expect(activity.text).toContain('home.title');
    expect(activity.text).not.toContain('secret-words-here');
  });
});
