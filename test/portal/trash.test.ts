// The Trash page: a Restore button restores what its line shows (a group's line names the delete it
// lists, by its deleted_at: a later delete of the group is never undone in its place), and deleted
// keys beyond one page are reached by an Older link, as on the Activity page.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

async function newKey(key: string, group_name: string): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const live = async (ids: string[]) =>
  (await t.runtime.deps.sql<{ id: string }[]>`select id from translation_keys where id = any(${ids}::uuid[]) and deleted_at is null`).map((r) => r.id).sort();

/** A group line's restore form: its action and its fields (the line's deleted_at). */
function restoreForm(html: string, group: string): [string, Record<string, string>] {
  const form = new RegExp(`<form method="post" action="([^"]*/trash/groups/${group}/restore)"[^>]*>([^]*?)</form>`).exec(html);
  if (!form) throw new Error(`no restore form for ${group}`);
  const fields = Object.fromEntries([...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  return [form[1]!, fields];
}

beforeAll(async () => {
  p = await t.newProject('team');
  dev = await signedInMember(t, p.accountId, 'developer');
});

describe('restoring keys deleted together', () => {
  it('"Restore these 3 keys" restores those 3 keys, not a later delete of the same group made after the page was loaded', async () => {
    const shown = [await newKey('menu.a', 'menu'), await newKey('menu.b', 'menu'), await newKey('menu.c', 'menu')];
    const later = [await newKey('menu.d', 'menu'), await newKey('menu.e', 'menu')];
    await newKey('menu.keep', 'menu');
    expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: shown })).status).toBe(200);

    // The Trash page offers to restore the 3 keys of menu deleted together.
    const trash = await dev.get(`/portal/projects/${p.projectId}/trash`);
    expect(trash.text).toContain('Restore these 3 keys');
    const [action, fields] = restoreForm(trash.text, 'menu');

    // A colleague then cleans up two other keys of the group.
    await new Promise((r) => setTimeout(r, 5));
    expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: later })).status).toBe(200);

    // The developer clicks the button of the line the page showed.
    const res = await dev.post(action, fields);

    // The colleague's delete is not undone behind their back: refused (nothing changes), and the
    // trash as it is now says why.
    expect(await live(later)).toEqual([]);
    expect(await live(shown)).toEqual([]);
    expect(res.status).toBe(409);
    expect(res.text).toContain('no longer its latest delete');
    expect(res.text).toContain('Restore these 2 keys');
  });

  it('restores the keys its line shows, and refuses a form that does not say which delete', async () => {
    const shown = [await newKey('nav.a', 'nav'), await newKey('nav.b', 'nav')];
    await newKey('nav.keep', 'nav');
    expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: shown })).status).toBe(200);
    const [action, fields] = restoreForm((await dev.get(`/portal/projects/${p.projectId}/trash`)).text, 'nav');

    const unnamed = await dev.post(action, {});
    expect(unnamed.status).toBe(422);
    expect(await live(shown)).toEqual([]);

    const restored = await dev.follow(await dev.post(action, fields));
    expect(restored.text).toContain('Restored 2 keys of nav.');
    expect(await live(shown)).toEqual([...shown].sort());
    // Sent again (a reload of an old page): that delete is undone already, nothing else is.
    expect((await dev.post(action, fields)).status).toBe(409);
  });
});

describe('a trash of more than one page', () => {
  it('does not hide older deleted keys without a word: they are listed, or a link leads to them', async () => {
    const q = await t.newProject('team');
    expect((await t.call(q.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const owner = await signedInMember(t, q.accountId, 'owner');
    // One key deleted long ago (alone), then a cleanup deletes 200 keys of another group together.
    const old = await t.call(q.apiKey, 'POST', '/v1/keys', { key: 'legal.old_terms', group_name: 'legal' });
    const oldId = ((await old.json()) as { id: string }).id;
    await t.call(q.apiKey, 'POST', '/v1/keys', { key: 'legal.keep', group_name: 'legal' });
    expect((await t.call(q.apiKey, 'DELETE', `/v1/keys/${oldId}`)).status).toBeLessThan(300);
    const file = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`cleanup.k${String(i).padStart(3, '0')}`, `Wert ${i}`]));
    const imported = await t.app.request('/v1/import/de?format=json&group=cleanup', {
      method: 'POST',
      headers: { 'X-API-Key': q.apiKey, 'Content-Type': 'application/octet-stream' },
      body: JSON.stringify(file),
    });
    expect(imported.status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await t.call(q.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'cleanup' } })).status).toBe(200);

    const trash = await owner.get(`/portal/projects/${q.projectId}/trash`);
    expect(trash.status).toBe(200);
    // The old key is restorable (the restore route takes it), so the page must let the user reach it.
    const listed = trash.text.includes('legal.old_terms');
    const moreLink = new RegExp(`href="(/portal/projects/${q.projectId}/trash\\?[^"]+)"`).exec(trash.text);
    expect(listed || moreLink !== null).toBe(true);

    // The first page: the 200 newest; the Older link: the rest, none twice, and no group lines.
    const names = (html: string) => [...html.matchAll(/<strong class="mono">([^<]+)<\/strong>/g)].map((m) => m[1]!);
    expect(names(trash.text)).toHaveLength(200);
    expect(names(trash.text)).not.toContain('legal.old_terms');
    const older = await owner.get(moreLink![1]!.replace(/&amp;/g, '&'));
    expect(older.status).toBe(200);
    expect(names(older.text)).toEqual(['legal.old_terms']);
    expect(older.text).not.toContain('Keys deleted together');
    expect(older.text).not.toMatch(/rel="next"/);

    // A Restore on the older page comes back to that page, not to the newest.
    const olderUrl = moreLink![1]!.replace(/&amp;/g, '&');
    const form = new RegExp(`<form method="post" action="(/portal/projects/${q.projectId}/trash/keys/${oldId}/restore)"[^]*?</form>`).exec(older.text)![0];
    const hidden = Object.fromEntries([...form.matchAll(/<input type="hidden" name="(before|key)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
    const restored = await owner.post(`/portal/projects/${q.projectId}/trash/keys/${oldId}/restore`, hidden);
    expect(restored.status).toBe(303);
    expect(restored.location!.startsWith(`${olderUrl}&outcome=`), restored.location!).toBe(true);
    const back = await owner.follow(restored);
    expect(back.text).toContain('Restored legal.old_terms.');
    expect(back.text).toContain('Older deleted keys');
  });

  it('pages keys deleted in the same instant by name, none skipped or shown twice', async () => {
    const q = await t.newProject('team');
    const owner = await signedInMember(t, q.accountId, 'owner');
    const file = Object.fromEntries(Array.from({ length: 205 }, (_, i) => [`same.k${String(i).padStart(3, '0')}`, `v${i}`]));
    expect((await t.call(q.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const imported = await t.app.request('/v1/import/de?format=json&group=same', {
      method: 'POST',
      headers: { 'X-API-Key': q.apiKey, 'Content-Type': 'application/octet-stream' },
      body: JSON.stringify(file),
    });
    expect(imported.status).toBe(200);
    expect((await t.call(q.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'same' } })).status).toBe(200);
    const names = (html: string) => [...html.matchAll(/<strong class="mono">([^<]+)<\/strong>/g)].map((m) => m[1]!);
    const first = await owner.get(`/portal/projects/${q.projectId}/trash`);
    const link = /href="([^"]*\/trash\?[^"]+)" rel="next"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await owner.get(link);
    expect([...names(first.text), ...names(second.text)]).toEqual(Object.keys(file));
  });
});
