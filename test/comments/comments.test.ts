// Comments on values (core/comments, migration 029), through the API as a developer's tools and the
// CLI use it: the thread of a key in one language, who wrote each comment, what a comment changes
// (nothing served), and where a thread ends (its key deleted, its language removed, its project's).
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';
import { COMMENTS_PER_VALUE_MAX } from '../../core/comments/schemas.ts';

const t = useTestApp();

const thread = (keyId: string, language: string) => `/v1/keys/${keyId}/translations/${language}/comments`;
const add = (p: Project, keyId: string, language: string, text: unknown, headers: Record<string, string> = {}) =>
  t.call(p.apiKey, 'POST', thread(keyId, language), { text }, headers);
const list = async (p: Project, keyId: string, language: string) => {
  const res = await p.get(thread(keyId, language));
  expect(res.status, await res.clone().text()).toBe(200);
  return body(res);
};
const texts = async (p: Project, keyId: string, language: string) => (await list(p, keyId, language)).comments.map((c: { text: string }) => c.text);

async function translated(): Promise<{ p: Project; keyId: string }> {
  const p = await project(t, ['en', 'de', 'fr']);
  const keyId = await p.key('home.title', 'home');
  await p.put(keyId, 'en', 'Welcome', 'approved');
  await p.put(keyId, 'de', 'Willkommen', 'review');
  return { p, keyId };
}

describe('comments on a value', () => {
  it('a thread per key and language, oldest first, each naming its author; a value not written yet has one too', async () => {
    const { p, keyId } = await translated();
    const [info] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from api_keys where project_id = ${p.projectId}`;
    await t.runtime.deps.sql`update api_keys set name = 'CI' where id = ${info!.id}`;
    const first = await add(p, keyId, 'de', '  Du or Sie here?\n');
    expect(first.status, await first.clone().text()).toBe(201);
    const created = await body(first);
    expect(created).toEqual({
      id: expect.any(String),
      key_id: keyId,
      language: 'de',
      text: 'Du or Sie here?',
      author: { type: 'api_key', id: info!.id, name: 'CI' },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      resolved_at: null,
      resolved_by: null,
    });
    expect((await add(p, keyId, 'de', 'Sie: the app is formal everywhere')).status).toBe(201);
    // fr has no value yet: a question may come before the first translation.
    expect((await add(p, keyId, 'fr', 'Is "Welcome" a greeting or a page title?')).status).toBe(201);

    const de = await list(p, keyId, 'de');
    expect(de).toMatchObject({ project_id: p.projectId, key_id: keyId, language: 'de', count: 2, open: 2 });
    expect(de.comments.map((c: { text: string }) => c.text)).toEqual(['Du or Sie here?', 'Sie: the app is formal everywhere']);
    expect(await texts(p, keyId, 'fr')).toEqual(['Is "Welcome" a greeting or a page title?']);
    expect(await texts(p, keyId, 'en')).toEqual([]);
    // The author's name is read as it is now.
    await t.runtime.deps.sql`update api_keys set name = 'CI (GitHub)' where id = ${info!.id}`;
    expect((await list(p, keyId, 'de')).comments[0].author.name).toBe('CI (GitHub)');
  });

  it('a comment changes nothing served: the live ETag stays, no rebuild is asked', async () => {
    const { p, keyId } = await translated();
    const before = (await p.get('/v1/translations/de?status=all')).headers.get('etag');
    const [events] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = 'cache.rebuild_requested'`;
    expect((await add(p, keyId, 'de', 'Looks good')).status).toBe(201);
    expect((await p.get('/v1/translations/de?status=all')).headers.get('etag')).toBe(before);
    const [after] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = 'cache.rebuild_requested'`;
    expect(after!.n).toBe(events!.n);
    // What was said is not in the event (a deleted comment is gone from Activity too).
    const [recorded] = await t.runtime.deps.sql<{ after: unknown }[]>`select after from domain_events where project_id = ${p.projectId} and type = 'comment.added'`;
    expect(recorded!.after).toEqual({ key_id: keyId, language: 'de' });
  });

  it('the thread belongs to the slot, not the text: it stays when the value is rewritten or deleted', async () => {
    const { p, keyId } = await translated();
    await add(p, keyId, 'de', 'Too long for the button');
    await p.put(keyId, 'de', 'Hallo', 'draft');
    expect(await texts(p, keyId, 'de')).toEqual(['Too long for the button']);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}/translations/de`)).status).toBe(204);
    expect(await texts(p, keyId, 'de')).toEqual(['Too long for the button']);
  });

  it('text: trimmed, 1 to 2,000 characters (code points), a string, no NUL; refusals write nothing', async () => {
    const { p, keyId } = await translated();
    for (const [text, msg] of [
      ['   \n ', 'text must not be blank'],
      ['x'.repeat(2_001), 'text must be at most 2,000 characters'],
      [42, 'text must be a string'],
      ['a\u0000b', 'text must not contain NUL characters'],
    ] as const) {
      const res = await add(p, keyId, 'de', text);
      expect(res.status, String(text).slice(0, 20)).toBe(422);
      expect((await body(res)).detail).toEqual([expect.objectContaining({ loc: ['body', 'text'], msg })]);
    }
    expect((await t.call(p.apiKey, 'POST', thread(keyId, 'de'), {})).status).toBe(422);
    expect((await t.call(p.apiKey, 'POST', thread(keyId, 'de'), { text: 'x', resolved: true })).status).toBe(422);
    // 2,000 emoji are 2,000 characters (4,000 UTF-16 units).
    expect((await add(p, keyId, 'de', '👍'.repeat(2_000))).status).toBe(201);
    expect(await texts(p, keyId, 'de')).toEqual(['👍'.repeat(2_000)]);
  });

  it('404 for a key that is not a live key of the project or a language it does not have; 404 for a comment of another thread', async () => {
    const { p, keyId } = await translated();
    const other = await project(t, ['de']);
    const otherKey = await other.key('home.title', 'home');
    const theirs = await body(await add(other, otherKey, 'de', 'Private to the other project'));
    // Another project's key and comment, named with this project's API key.
    expect((await p.get(thread(otherKey, 'de'))).status).toBe(404);
    expect((await add(p, otherKey, 'de', 'x')).status).toBe(404);
    expect((await t.call(p.apiKey, 'DELETE', `${thread(otherKey, 'de')}/${theirs.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'DELETE', `${thread(keyId, 'de')}/${theirs.id}`)).status).toBe(404);
    expect(await texts(other, otherKey, 'de')).toEqual(['Private to the other project']);
    // A language the project does not have, an unknown key, a comment of another language.
    const unregistered = await add(p, keyId, 'it', 'x');
    expect(unregistered.status).toBe(404);
    expect((await body(unregistered)).detail).toBe("Language 'it' is not registered for this project");
    expect((await add(p, randomUUID(), 'de', 'x')).status).toBe(404);
    const mine = await body(await add(p, keyId, 'de', 'mine'));
    expect((await t.call(p.apiKey, 'DELETE', `${thread(keyId, 'fr')}/${mine.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'DELETE', `${thread(keyId, 'de')}/not-a-uuid`)).status).toBe(422);
    expect((await t.call(p.apiKey, 'DELETE', `${thread(keyId, 'de')}/${mine.id}`)).status).toBe(204);
    expect(await texts(p, keyId, 'de')).toEqual([]);
  });

  it('a deleted key hides its threads and its restore brings them back; a removed language takes its comments', async () => {
    const { p, keyId } = await translated();
    await add(p, keyId, 'de', 'about de');
    await add(p, keyId, 'fr', 'about fr');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    expect((await p.get(thread(keyId, 'de'))).status).toBe(404);
    expect((await add(p, keyId, 'de', 'x')).status).toBe(404);
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${keyId}/restore`)).status).toBe(200);
    expect(await texts(p, keyId, 'de')).toEqual(['about de']);

    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    expect((await p.get(thread(keyId, 'fr'))).status).toBe(404);
    await p.language('fr');
    expect(await texts(p, keyId, 'fr')).toEqual([]);
    expect(await texts(p, keyId, 'de')).toEqual(['about de']);
  });

  it(`a thread keeps at most ${COMMENTS_PER_VALUE_MAX.toLocaleString('en-US')} comments, counted one after the other when added at once`, async () => {
    const { p, keyId } = await translated();
    await t.runtime.deps.sql`
      insert into value_comments (project_id, key_id, language, text, author_type, author_id)
      select ${p.projectId}, ${keyId}, 'de', 'n' || i, 'api_key', ${randomUUID()} from generate_series(1, ${COMMENTS_PER_VALUE_MAX - 3}) i`;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => add(p, keyId, 'de', `late ${i}`)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    const refused = await body(answers.find((r) => r.status === 422)!);
    expect(refused.detail[0].msg).toBe(`at most ${COMMENTS_PER_VALUE_MAX} comments per value`);
    expect((await list(p, keyId, 'de')).count).toBe(COMMENTS_PER_VALUE_MAX);
  });

  it('a delivery key cannot read or write comments (403)', async () => {
    const { p, keyId } = await translated();
    const created = await body(await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery' }));
    expect((await t.call(created.key, 'GET', thread(keyId, 'de'))).status).toBe(403);
    expect((await t.call(created.key, 'POST', thread(keyId, 'de'), { text: 'x' })).status).toBe(403);
  });

  it('Idempotency-Key makes a retried add the same comment', async () => {
    const { p, keyId } = await translated();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await body(await add(p, keyId, 'de', 'once', headers));
    const again = await add(p, keyId, 'de', 'once', headers);
    expect(again.status).toBe(201);
    expect(await body(again)).toEqual(first);
    expect(await texts(p, keyId, 'de')).toEqual(['once']);
  });
});
