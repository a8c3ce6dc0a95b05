// Comments on a value in the portal (core/comments): the thread on the value's page (its History),
// added and deleted by forms that answer 303 back to it; who may add (whoever may write the
// language) and delete (the author; owners and developers any comment: 'comments.moderate'); a
// refused comment keeps its text; nothing of another project is reachable; the editor shows each
// value's count from one grouped query for the page.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { measure } from './support/page-costs.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;
let dev: PortalClient;
let translator: PortalClient;
/** A translator whose membership has only de. */
let deOnly: PortalClient;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

let seq = 0;
const newKey = async (project = p) => ((await json(await t.call(project.apiKey, 'POST', '/v1/keys', { key: `comments.k${seq++}` }))) as { id: string }).id;
const valuePage = (keyId: string, language = 'de', project = p) => `/portal/projects/${project.projectId}/keys/${keyId}/values/${language}/history`;
const commentsOf = async (keyId: string) =>
  t.runtime.deps.sql<{ id: string; text: string; author_type: string; language: string }[]>`
    select id, text, author_type, language from value_comments where key_id = ${keyId} order by created_at, id`;
/** A comment through the API (an API key is its author). */
const apiComment = async (keyId: string, text: string, language = 'de', project = p) =>
  ((await json(await t.call(project.apiKey, 'POST', `/v1/keys/${keyId}/translations/${language}/comments`, { text }))) as { id: string }).id;
/** The page's text as read (tags dropped, entities decoded). */
const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replace(/\s+/g, ' ');
/** The Comments section of a value's page, as HTML ('' when the page has none). */
const section = (html: string) => /<section id="comments"[^]*?<\/section>/.exec(html)?.[0] ?? '';
/** The delete forms' comment ids on a page. */
const deletable = (html: string) => [...section(html).matchAll(/\/comments\/([0-9a-f-]{36})\/delete"/g)].map((m) => m[1]);

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  owner = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'comments-owner' });
  dev = await signedInMember(t, p.accountId, 'developer', { emailPrefix: 'comments-dev' });
  translator = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'comments-tr' });
  deOnly = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'comments-de', languages: ['de'] });
});

describe('the thread on the value page', () => {
  it("the add form sent twice (a double click) adds one comment; a new page's form adds another", async () => {
    const keyId = await newKey();
    const fields = (html: string) => {
      const form = /<form method="post" action="([^"]*\/comments)" class="stack">([^]*?)<\/form>/.exec(section(html))!;
      return { action: form[1]!, submission: /name="submission" value="([0-9a-f-]{36})"/.exec(form[2]!)![1]! };
    };
    const first = fields((await translator.get(valuePage(keyId))).text);
    const twice = await Promise.all([1, 2].map(() => translator.post(first.action, { text: 'Once, please', submission: first.submission })));
    expect(twice.map((r) => r.status)).toEqual([303, 303]);
    expect((await commentsOf(keyId)).map((c) => c.text)).toEqual(['Once, please']);
    const again = fields((await translator.get(valuePage(keyId))).text);
    expect(again.submission).not.toBe(first.submission);
    expect((await translator.post(again.action, { text: 'Once, please', submission: again.submission })).status).toBe(303);
    expect((await commentsOf(keyId)).map((c) => c.text)).toEqual(['Once, please', 'Once, please']);
  });

  it('adds a comment by a redirect back to it, and shows it with its author, time and own text', async () => {
    const keyId = await newKey();
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Hallo' }));
    const page = await translator.get(valuePage(keyId));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>');
    expect(/<title>([^<]*)<\/title>/.exec(page.text)![1]).toContain(': comments and history');
    expect(section(page.text)).toContain('No comments yet.');
    const form = /<form method="post" action="([^"]*\/comments)" class="stack">([^]*?)<\/form>/.exec(section(page.text));
    expect(form?.[1]).toBe(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`);
    expect(form![2]).toContain('name="_csrf"');
    expect(form![2]).toMatch(/<label>Add a comment<textarea name="text" rows="3" maxlength="4000" required="" dir="auto"/);

    const text = 'Is "Hallo" too informal here?\n<b>Sie</b> maybe';
    const res = await translator.post(form![1]!, { text });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${valuePage(keyId).replace(/[/]/g, '\\/')}\\?outcome=[0-9a-f-]{36}#comments$`));
    const shown = await translator.follow(res);
    expect(shown.text).toContain('Comment added.');
    const thread = section(shown.text);
    // Its own text, plain (escaped), its line break kept, in its writer's direction; not the value's language.
    expect(thread).toContain('<p dir="auto">Is &quot;Hallo&quot; too informal here?<br/>&lt;b&gt;Sie&lt;/b&gt; maybe</p>');
    expect(thread).toMatch(/comments-tr-[^@]+@example\.com, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // The history below is as it was.
    expect(shown.text).toContain('<h3>History</h3>');
    expect(shown.text).toContain('<ol class="list">');
    // Reading the page again (a reload of the redirect's answer) posts nothing.
    await translator.get(res.location!);
    expect((await commentsOf(keyId)).map((c) => [c.text, c.author_type])).toEqual([[text, 'user']]);
    const [event] = await t.runtime.deps.sql<{ type: string; after: unknown }[]>`
      select type, after from domain_events where project_id = ${p.projectId} and entity_type = 'comment' order by id desc limit 1`;
    expect(event).toEqual({ type: 'comment.added', after: { key_id: keyId, language: 'de' } });
  });

  it('names an API key author by its name, or by the start of its id; a removed user as such', async () => {
    const keyId = await newKey();
    await apiComment(keyId, 'From CI: placeholder missing');
    let thread = visible(section((await dev.get(valuePage(keyId))).text));
    expect(thread).toContain(`API key ${p.apiKeyId.slice(0, 8)}`);
    await t.runtime.deps.sql`update api_keys set name = 'CI pipeline' where id = ${p.apiKeyId}`;
    thread = visible(section((await dev.get(valuePage(keyId))).text));
    expect(thread).toContain('API key “CI pipeline”');
    await t.runtime.deps.sql`update api_keys set name = null where id = ${p.apiKeyId}`;

    const gone = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'comments-gone' });
    await gone.get(valuePage(keyId));
    expect((await gone.post(`${valuePage(keyId).replace(/\/history$/, '')}/comments`, { text: 'Leaving soon' })).status).toBe(303);
    await t.runtime.deps.sql`delete from users where email like 'comments-gone-%'`;
    thread = visible(section((await dev.get(valuePage(keyId))).text));
    expect(thread).toContain('Leaving soon a removed user,');
  });

  it('the thread belongs to the key and language: it comes before the first value and stays when the value is rewritten', async () => {
    const keyId = await newKey();
    await apiComment(keyId, 'What does this button do?');
    expect(section((await translator.get(valuePage(keyId))).text)).toContain('What does this button do?');
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Los' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Weiter' }));
    expect(section((await translator.get(valuePage(keyId))).text)).toContain('What does this button do?');
    // Another language of the key has its own thread.
    expect(section((await translator.get(valuePage(keyId, 'fr'))).text)).toContain('No comments yet.');
  });

  it('Activity says a comment was added and deleted, never what it said', async () => {
    const keyId = await newKey();
    const secret = 'the-staging-password-is-hunter2';
    const add = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: secret });
    expect(add.status).toBe(303);
    const [id] = deletable((await dev.follow(add)).text);
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${id}/delete`)).status).toBe(303);
    const activity = await dev.get(`/portal/projects/${p.projectId}/activity`);
    expect(visible(activity.text)).toMatch(/commented on comments\.k\d+ \(de\)/);
    expect(visible(activity.text)).toMatch(/deleted their comment on comments\.k\d+ \(de\)/);
    expect(activity.text).not.toContain(secret);
  });

  it('a deleted key or a removed language: History still opens, without comments', async () => {
    const keyId = await newKey();
    await apiComment(keyId, 'About to go');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const page = await dev.get(valuePage(keyId));
    expect(page.status).toBe(200);
    expect(section(page.text)).toBe('');
    expect(page.text).not.toContain('About to go');
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'Too late' })).status).toBe(404);
    // A language the project does not have.
    const live = await newKey();
    const other = await dev.get(valuePage(live, 'it'));
    expect(other.status).toBe(200);
    expect(section(other.text)).toBe('');
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${live}/values/it/comments`, { text: 'Not a language here' })).status).toBe(404);
  });
});

describe('who may delete', () => {
  it("a member deletes their own comment; not another's (403, and no Delete shown for it)", async () => {
    const keyId = await newKey();
    const theirs = await apiComment(keyId, 'A reviewer note');
    const add = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'My question' });
    const page = await translator.follow(add);
    const mine = (await commentsOf(keyId)).find((c) => c.text === 'My question')!.id;
    expect(deletable(page.text)).toEqual([mine]);
    expect(section(page.text)).toMatch(/data-confirm="Delete this comment\? It cannot be restored\."/);

    const refused = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${theirs}/delete`);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('may delete only your own comments');
    // Another member's (the developer's) comment is just as much another's.
    const devAdd = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'Dev remark' });
    expect(devAdd.status).toBe(303);
    const devs = (await commentsOf(keyId)).find((c) => c.text === 'Dev remark')!.id;
    expect((await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${devs}/delete`)).status).toBe(403);

    const deleted = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${mine}/delete`);
    expect(deleted.status).toBe(303);
    expect(deleted.location).toMatch(/\/history\?outcome=[0-9a-f-]{36}#comments$/);
    expect((await translator.follow(deleted)).text).toContain('Comment deleted.');
    expect((await commentsOf(keyId)).map((c) => c.text)).toEqual(['A reviewer note', 'Dev remark']);
    // Sent again (Back and resend): it is gone, 404.
    expect((await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${mine}/delete`)).status).toBe(404);
  });

  it("an owner deletes another's comment, and sees Delete on every one", async () => {
    const keyId = await newKey();
    const fromApi = await apiComment(keyId, 'Written by CI');
    await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'By the translator' });
    const byTranslator = (await commentsOf(keyId)).find((c) => c.text === 'By the translator')!.id;
    const page = await owner.get(valuePage(keyId));
    expect(deletable(page.text)).toEqual([fromApi, byTranslator]);
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${byTranslator}/delete`)).status).toBe(303);
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${fromApi}/delete`)).status).toBe(303);
    expect(await commentsOf(keyId)).toEqual([]);
    const [event] = await t.runtime.deps.sql<{ before: { author_type: string } }[]>`
      select before from domain_events where type = 'comment.deleted' and entity_id = ${byTranslator}`;
    expect(event!.before.author_type).toBe('user');
  });
});

describe('who may add', () => {
  it('a translator limited to de comments on de, not on fr (403, and no form on its page)', async () => {
    const keyId = await newKey();
    const fr = await deOnly.get(valuePage(keyId, 'fr'));
    expect(section(fr.text)).not.toContain('name="text"');
    expect(visible(section(fr.text))).toContain('Your membership does not include fr');
    const refused = await deOnly.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/fr/comments`, { text: 'Bonjour?' });
    expect(refused.status).toBe(403);
    expect(await commentsOf(keyId)).toEqual([]);
    expect((await deOnly.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { text: 'Hallo?' })).status).toBe(303);
    expect((await commentsOf(keyId)).map((c) => c.language)).toEqual(['de']);
  });
});

describe('refusals', () => {
  it('blank text: the page again (422) with the refusal at the field, the typed text kept, nothing written', async () => {
    const keyId = await newKey();
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`;
    await translator.get(valuePage(keyId));
    const res = await translator.post(action, { text: '   \n  ' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('Comment not added: text must not be blank');
    const field = /<textarea name="text"[^>]*>([^]*?)<\/textarea>/.exec(res.text)!;
    expect(field[0]).toContain('aria-invalid="true"');
    expect(field[0]).toContain('aria-describedby="problem-comment-text"');
    expect(res.text).toContain('<p class="field-error" id="problem-comment-text">text must not be blank</p>');
    expect(field[1]).toBe('   \n  ');
    // Without the field at all, the same.
    expect((await translator.post(action, {})).status).toBe(422);
    // Too long: refused, the text kept.
    const long = 'x'.repeat(2_001);
    const tooLong = await translator.post(action, { text: long });
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).toContain(`>${long}</textarea>`);
    expect(tooLong.text).toContain('at most 2,000 characters');
    expect(await commentsOf(keyId)).toEqual([]);
    const [n] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where type = 'comment.added' and after->>'key_id' = ${keyId}`;
    expect(n!.n).toBe(0);
  });

  it('a form without the CSRF token is refused (403) and writes or deletes nothing', async () => {
    const keyId = await newKey();
    const id = await apiComment(keyId, 'Keep me');
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments`, { _csrf: '', text: 'Forged' })).status).toBe(403);
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/comments/${id}/delete`, { _csrf: 'not-the-token' })).status).toBe(403);
    expect((await commentsOf(keyId)).map((c) => c.text)).toEqual(['Keep me']);
  });

  it("nothing of another project is reachable: its key, its comment, its members' pages", async () => {
    const elsewhere = await t.newProject('team');
    await json(await t.call(elsewhere.apiKey, 'POST', '/v1/languages', { code: 'de' }));
    const foreignKey = await newKey(elsewhere);
    const foreign = await apiComment(foreignKey, 'Their secret note', 'de', elsewhere);
    // Their key under our project's address.
    const page = await owner.get(valuePage(foreignKey));
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Their secret note');
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${foreignKey}/values/de/comments`, { text: 'Hi' })).status).toBe(404);
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${foreignKey}/values/de/comments/${foreign}/delete`)).status).toBe(404);
    // Their comment id under our own key.
    const ours = await newKey();
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${ours}/values/de/comments/${foreign}/delete`)).status).toBe(404);
    expect((await translator.post(`/portal/projects/${p.projectId}/keys/${ours}/values/de/comments/${foreign}/delete`)).status).toBe(404);
    // Their project itself.
    expect((await owner.get(valuePage(foreignKey, 'de', elsewhere))).status).toBe(404);
    expect((await owner.post(`/portal/projects/${elsewhere.projectId}/keys/${foreignKey}/values/de/comments`, { text: 'Hi' })).status).toBe(404);
    expect((await owner.post(`/portal/projects/${elsewhere.projectId}/keys/${foreignKey}/values/de/comments/${foreign}/delete`)).status).toBe(404);
    const [left] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from value_comments where key_id = ${foreignKey}`;
    expect(left!.n).toBe(1);
    // A comment id that is none.
    expect((await owner.post(`/portal/projects/${p.projectId}/keys/${ours}/values/de/comments/not-an-id/delete`)).status).toBe(404);
  });
});

describe('the editor', () => {
  it("shows each value's number of comments, linked to its thread, also for a value not written yet", async () => {
    const project = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(project.apiKey, 'POST', '/v1/languages', { code }));
    const member = await signedInMember(t, project.accountId, 'developer');
    const keys = [] as string[];
    for (const key of ['a.one', 'a.two', 'a.three']) keys.push(((await json(await t.call(project.apiKey, 'POST', '/v1/keys', { key }))) as { id: string }).id);
    await json(await t.call(project.apiKey, 'PUT', `/v1/keys/${keys[0]}/translations/de`, { value: 'Eins' }));
    const editor = `/portal/projects/${project.projectId}?lang=en&lang=de`;
    const before = await measure(t, member, editor);
    expect(before.html).not.toMatch(/\d+ comments?</);

    await apiComment(keys[0]!, 'First', 'de', project);
    await apiComment(keys[0]!, 'Second', 'de', project);
    await apiComment(keys[1]!, 'Before any translation', 'de', project);
    await apiComment(keys[2]!, 'On the source', 'en', project);
    const after = await measure(t, member, editor);
    const link = (keyId: string, language: string) =>
      new RegExp(`<a href="/portal/projects/${project.projectId}/keys/${keyId}/values/${language}/history#comments" class="hint" aria-label="([^"]+)">([^<]+)</a>`).exec(after.html);
    expect(link(keys[0]!, 'de')?.slice(1)).toEqual(['2 comments on a.one in de', '2 comments']);
    expect(link(keys[1]!, 'de')?.slice(1)).toEqual(['1 comment on a.two in de', '1 comment']);
    expect(link(keys[2]!, 'en')?.slice(1)).toEqual(['1 comment on a.three in en', '1 comment']);
    // No value and no comment yet: a plain link to the page, where the first question goes.
    expect(link(keys[0]!, 'en')?.slice(1)).toEqual(['Comment on a.one in en', 'Comment']);
    // A value with none: its History link leads there; no count.
    expect(after.html).not.toContain(`aria-label="Comment on a.one in de"`);
    expect(after.html).not.toContain('0 comments');
    // The counts are one query for the page, whatever the number of values with comments.
    expect(after.statements, `before:\n${before.sqls.join('\n')}\nafter:\n${after.sqls.join('\n')}`).toBe(before.statements);
    expect(after.sqls.filter((q) => q.includes('value_comments'))).toHaveLength(1);
  });
});
