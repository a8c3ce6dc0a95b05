// Resolving comments in the portal (core/comments/resolve-comment.ts): on the value's page each
// comment has Resolve (or Reopen) for whoever may comment on the language, a resolved one says who
// resolved it and when and stays in the thread; the form says which state it asks for, so sent twice
// it records one change; the editor's link counts the open ones and its "Open comments in" filter
// lists the keys with open comments; Activity says who resolved what; nothing of another project.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let reviewer: PortalClient;
/** A translator whose membership has only de. */
let deOnly: PortalClient;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

let seq = 0;
const newKey = async (project = p) => ((await json(await t.call(project.apiKey, 'POST', '/v1/keys', { key: `resolve.k${seq++}` }))) as { id: string }).id;
const apiComment = async (keyId: string, text: string, language = 'de', project = p) =>
  ((await json(await t.call(project.apiKey, 'POST', `/v1/keys/${keyId}/translations/${language}/comments`, { text }))) as { id: string }).id;
const valuePage = (keyId: string, language = 'de') => `/portal/projects/${p.projectId}/keys/${keyId}/values/${language}/history`;
const resolveForm = (keyId: string, commentId: string, language = 'de') => `/portal/projects/${p.projectId}/keys/${keyId}/values/${language}/comments/${commentId}/resolve`;
const section = (html: string) => /<section id="comments"[^]*?<\/section>/.exec(html)?.[0] ?? '';
const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replace(/\s+/g, ' ');
const stateOf = async (commentId: string) =>
  (await t.runtime.deps.sql<{ resolved_at: Date | null; resolved_by_type: string | null }[]>`select resolved_at, resolved_by_type from value_comments where id = ${commentId}`)[0]!;
const eventsOf = async (commentId: string) =>
  (await t.runtime.deps.sql<{ type: string }[]>`select type from domain_events where entity_id = ${commentId} order by id`).map((e) => e.type);

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  reviewer = await signedInMember(t, p.accountId, 'reviewer', { emailPrefix: 'resolve-rev' });
  deOnly = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'resolve-de', languages: ['de'] });
});

describe('resolving on the value page', () => {
  it('Resolve marks the comment with who resolved it, keeps it in the thread, and Reopen clears the mark', async () => {
    const keyId = await newKey();
    const question = await apiComment(keyId, 'Du or Sie?');
    await apiComment(keyId, 'Sie, please');
    const before = section((await deOnly.get(valuePage(keyId))).text);
    expect(visible(before)).toContain('2 comments, 2 open');
    expect(before).toContain(`action="${resolveForm(keyId, question)}"`);
    expect(before).toContain('<input type="hidden" name="resolved" value="yes"');

    const res = await deOnly.post(resolveForm(keyId, question), { resolved: 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('#comments');
    expect((await stateOf(question)).resolved_by_type).toBe('user');
    const after = await deOnly.get(res.headers.get('location')!);
    expect(visible(after.text)).toContain('Comment resolved.');
    const thread = visible(section(after.text));
    expect(thread).toContain('2 comments, 1 open');
    expect(thread).toMatch(/Du or Sie\? .* Resolved by resolve-de[^ ]*@[^ ]*, /);
    expect(section(after.text)).toContain('>Reopen<');

    expect((await reviewer.post(resolveForm(keyId, question), { resolved: 'no' })).status).toBe(303);
    expect((await stateOf(question)).resolved_at).toBeNull();
    expect(await eventsOf(question)).toEqual(['comment.added', 'comment.resolved', 'comment.reopened']);
  });

  it('the form says which state it asks for: sent twice (or from an old page) it changes and records once', async () => {
    const keyId = await newKey();
    const id = await apiComment(keyId, 'Too long');
    const twice = await Promise.all([1, 2].map(() => deOnly.post(resolveForm(keyId, id), { resolved: 'yes' })));
    expect(twice.map((r) => r.status)).toEqual([303, 303]);
    expect(await eventsOf(id)).toEqual(['comment.added', 'comment.resolved']);
  });

  it('a member not allowed the language neither sees Resolve nor may resolve; bad input and another project are refused', async () => {
    const keyId = await newKey();
    const fr = await apiComment(keyId, 'Tu ou vous ?', 'fr');
    expect(section((await deOnly.get(valuePage(keyId, 'fr'))).text)).not.toContain('/resolve"');
    expect((await deOnly.post(resolveForm(keyId, fr, 'fr'), { resolved: 'yes' })).status).toBe(403);
    expect((await stateOf(fr)).resolved_at).toBeNull();
    const de = await apiComment(keyId, 'Formal?');
    expect((await deOnly.post(resolveForm(keyId, de), { resolved: 'maybe' })).status).toBe(422);
    expect((await deOnly.post(resolveForm(keyId, de), {})).status).toBe(422);
    // The comment of another slot (its id under de for a comment on fr) is not found.
    expect((await reviewer.post(resolveForm(keyId, fr), { resolved: 'yes' })).status).toBe(404);
    expect((await reviewer.post(resolveForm(keyId, 'not-a-uuid'), { resolved: 'yes' })).status).toBe(404);
    // Another project's comment, through this project's path or its own.
    const other = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(other.apiKey, 'POST', '/v1/languages', { code }));
    const theirKey = await newKey(other);
    const theirs = await apiComment(theirKey, 'Not yours', 'de', other);
    expect((await reviewer.post(resolveForm(theirKey, theirs), { resolved: 'yes' })).status).toBe(404);
    expect((await reviewer.post(`/portal/projects/${other.projectId}/keys/${theirKey}/values/de/comments/${theirs}/resolve`, { resolved: 'yes' })).status).toBe(404);
    expect((await stateOf(theirs)).resolved_at).toBeNull();
    expect((await stateOf(fr)).resolved_at).toBeNull();
  });
});

describe('open comments in the editor', () => {
  it("each value's link counts its open comments, and 'Open comments in' lists the keys with open ones", async () => {
    const prefix = `open${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const n of ['a', 'b', 'c']) ids.push(((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `${prefix}.${n}` }))) as { id: string }).id);
    const [a, b, c] = ids as [string, string, string];
    const onA = await apiComment(a, 'Open one');
    await apiComment(a, 'Open two');
    const onB = await apiComment(b, 'Done');
    expect((await reviewer.post(resolveForm(a, onA), { resolved: 'yes' })).status).toBe(303);
    expect((await reviewer.post(resolveForm(b, onB), { resolved: 'yes' })).status).toBe(303);
    await apiComment(c, 'Question on fr', 'fr');

    const editor = visible((await reviewer.get(`/portal/projects/${p.projectId}?q=${prefix}&lang=de&lang=fr`)).text);
    expect(editor).toContain('2 comments, 1 open');
    expect(editor).toContain('1 comment, resolved');
    expect(editor).toContain('1 comment '); // c's fr comment, open: no word added

    const filtered = await reviewer.get(`/portal/projects/${p.projectId}?q=${prefix}&lang=de&open_comments=de`);
    expect(filtered.status).toBe(200);
    const keys = [...filtered.text.matchAll(/<span class="mono keyname">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(keys).toEqual([`${prefix}.a`]);
    expect(filtered.text).toMatch(/<select name="open_comments">(?:(?!<\/select>)[^])*<option value="de" selected/);
    const fr = [...(await reviewer.get(`/portal/projects/${p.projectId}?q=${prefix}&lang=de&open_comments=fr`)).text.matchAll(/<span class="mono keyname">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(fr).toEqual([`${prefix}.c`]);
    // A code that is not the project's filters nothing rather than failing.
    expect((await reviewer.get(`/portal/projects/${p.projectId}?q=${prefix}&open_comments=xx`)).status).toBe(200);
  });

  it("the Languages tab counts each language's open comments on live keys, linked to the editor's filter", async () => {
    const fresh = await t.newProject('team');
    for (const code of ['en', 'de', 'fr']) await json(await t.call(fresh.apiKey, 'POST', '/v1/languages', { code }));
    const member = await signedInMember(t, fresh.accountId, 'reviewer', { emailPrefix: 'resolve-lang' });
    const [one, two, gone] = [await newKey(fresh), await newKey(fresh), await newKey(fresh)];
    await apiComment(one, 'Open', 'de', fresh);
    await apiComment(two, 'Open too', 'de', fresh);
    const done = await apiComment(two, 'Done', 'de', fresh);
    expect((await t.call(fresh.apiKey, 'PATCH', `/v1/keys/${two}/translations/de/comments/${done}`, { resolved: true })).status).toBe(200);
    await apiComment(gone, 'On a key sent to the trash', 'de', fresh);
    expect((await t.call(fresh.apiKey, 'DELETE', `/v1/keys/${gone}`)).status).toBe(204);
    await apiComment(one, 'Une question', 'fr', fresh);
    // Another project's open comments are not counted here.
    await apiComment(await newKey(), 'Elsewhere');

    const page = await member.get(`/portal/projects/${fresh.projectId}/languages`);
    expect(page.status).toBe(200);
    const link = (code: string) => new RegExp(`<a href="/portal/projects/${fresh.projectId}\\?lang=${code}&amp;open_comments=${code}" class="hint">([^<]*)</a>`).exec(page.text)?.[1];
    expect(link('de')).toBe('2 open comments');
    expect(link('fr')).toBe('1 open comment');
    expect(link('en')).toBeUndefined();
  });

  it('Activity says who resolved and reopened which comment', async () => {
    const keyId = await newKey();
    const id = await apiComment(keyId, 'Check the length');
    expect((await reviewer.post(resolveForm(keyId, id), { resolved: 'yes' })).status).toBe(303);
    const activity = visible((await reviewer.get(`/portal/projects/${p.projectId}/activity`)).text);
    expect(activity).toMatch(/resolved a comment on resolve\.k\d+ \(de\)/);
  });
});
