// Resolving comments (core/comments/resolve-comment.ts, migration 034), through the API: a comment
// marked resolved stays in the thread with who resolved it and when, reopening clears both, asking
// for the state it is in changes and records nothing, the listing's open_comments filter finds the
// keys with open comments in a language (also as a bulk action's filter), and a comment of another
// slot or project is not found. On PostgreSQL: two resolvers at once are one change and one event.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

const thread = (keyId: string, language: string) => `/v1/keys/${keyId}/translations/${language}/comments`;
async function comment(p: Project, keyId: string, language: string, text: string): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', thread(keyId, language), { text });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await body(res)).id;
}
const resolve = (p: Project, keyId: string, language: string, commentId: string, payload: unknown) => t.call(p.apiKey, 'PATCH', `${thread(keyId, language)}/${commentId}`, payload);
const events = async (p: Project, type: string) =>
  t.runtime.deps.sql<{ entity_id: string; after: Record<string, unknown> }[]>`select entity_id, after from domain_events where project_id = ${p.projectId} and type = ${type} order by id`;
const openKeys = async (p: Project, language: string) => {
  const res = await p.get(`/v1/keys?open_comments=${language}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await body(res)).keys as { key: string }[]).map((k) => k.key);
};

async function translated(): Promise<{ p: Project; keyId: string; apiKeyId: string }> {
  const p = await project(t, ['en', 'de', 'fr']);
  const keyId = await p.key('home.title', 'home');
  await p.put(keyId, 'en', 'Welcome', 'approved');
  await p.put(keyId, 'de', 'Willkommen', 'review');
  const [info] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from api_keys where project_id = ${p.projectId}`;
  await t.runtime.deps.sql`update api_keys set name = 'Reviewer bot' where id = ${info!.id}`;
  return { p, keyId, apiKeyId: info!.id };
}

describe('resolving comments', () => {
  it('a resolved comment stays in the thread with who resolved it and when; reopening clears both; the thread counts its open ones', async () => {
    const { p, keyId, apiKeyId } = await translated();
    const question = await comment(p, keyId, 'de', 'Du or Sie?');
    await comment(p, keyId, 'de', 'Sie, please');

    const res = await resolve(p, keyId, 'de', question, { resolved: true });
    expect(res.status, await res.clone().text()).toBe(200);
    const resolved = await body(res);
    expect(resolved).toMatchObject({ id: question, text: 'Du or Sie?', resolved_by: { type: 'api_key', id: apiKeyId, name: 'Reviewer bot' } });
    expect(resolved.resolved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const listed = await body(await p.get(thread(keyId, 'de')));
    expect(listed).toMatchObject({ count: 2, open: 1 });
    expect(listed.comments.map((c: { text: string; resolved_at: string | null }) => [c.text, c.resolved_at !== null])).toEqual([
      ['Du or Sie?', true],
      ['Sie, please', false],
    ]);
    // Recorded with the value and the comment's author, not its text.
    expect(await events(p, 'comment.resolved')).toEqual([{ entity_id: question, after: { key_id: keyId, language: 'de', author_type: 'api_key', author_id: apiKeyId } }]);

    const reopened = await body(await resolve(p, keyId, 'de', question, { resolved: false }));
    expect(reopened).toMatchObject({ id: question, resolved_at: null, resolved_by: null });
    expect((await body(await p.get(thread(keyId, 'de')))).open).toBe(2);
    expect((await events(p, 'comment.reopened')).map((e) => e.entity_id)).toEqual([question]);
  });

  it('asking for the state a comment is in changes nothing and records nothing: the first resolver stays named', async () => {
    const { p, keyId } = await translated();
    const id = await comment(p, keyId, 'de', 'Too long');
    const first = await body(await resolve(p, keyId, 'de', id, { resolved: true }));
    // Another key of the project resolves it again.
    const other = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { name: 'Second' });
    expect(other.status, await other.clone().text()).toBe(201);
    const again = await t.call((await body(other)).key, 'PATCH', `${thread(keyId, 'de')}/${id}`, { resolved: true });
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual(first);
    expect(await events(p, 'comment.resolved')).toHaveLength(1);
    // An open comment reopened: nothing either.
    const open = await comment(p, keyId, 'de', 'Still open');
    expect((await resolve(p, keyId, 'de', open, { resolved: false })).status).toBe(200);
    expect(await events(p, 'comment.reopened')).toHaveLength(0);
  });

  it('a resolution changes nothing served: the live ETag stays, no rebuild is asked', async () => {
    const { p, keyId } = await translated();
    const id = await comment(p, keyId, 'de', 'Looks good');
    const before = (await p.get('/v1/translations/de?status=all')).headers.get('etag');
    const count = async () => (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = 'cache.rebuild_requested'`)[0]!.n;
    const rebuilds = await count();
    expect((await resolve(p, keyId, 'de', id, { resolved: true })).status).toBe(200);
    expect((await p.get('/v1/translations/de?status=all')).headers.get('etag')).toBe(before);
    expect(await count()).toBe(rebuilds);
  });

  it('open_comments lists the keys with an open comment in that language, as a listing and a bulk filter', async () => {
    const { p, keyId } = await translated();
    const other = await p.key('home.banner', 'home');
    const quiet = await p.key('home.quiet', 'home');
    const onTitle = await comment(p, keyId, 'de', 'Du or Sie?');
    await comment(p, other, 'fr', 'Shorter?');
    const resolvedOnQuiet = await comment(p, quiet, 'de', 'Fine');
    expect((await resolve(p, quiet, 'de', resolvedOnQuiet, { resolved: true })).status).toBe(200);

    expect(await openKeys(p, 'de')).toEqual(['home.title']);
    expect(await openKeys(p, 'fr')).toEqual(['home.banner']);
    expect(await openKeys(p, 'en')).toEqual([]);
    // Combined with the other filters (AND), and paginated as any listing.
    const page = await body(await p.get('/v1/keys?open_comments=de&group=home&limit=1'));
    expect(page.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
    expect(page.next_cursor).toBeNull();

    // A bulk action over the filter acts on those keys alone.
    const bulk = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { filter: { open_comments: 'de' }, add: ['needs-answer'] });
    expect(bulk.status, await bulk.clone().text()).toBe(200);
    expect(((await body(await p.get('/v1/keys?tag=needs-answer'))).keys as { key: string }[]).map((k) => k.key)).toEqual(['home.title']);

    expect((await resolve(p, keyId, 'de', onTitle, { resolved: true })).status).toBe(200);
    expect(await openKeys(p, 'de')).toEqual([]);
    // A deleted key's open comments do not list it; restored, it is listed again.
    const again = await comment(p, other, 'de', 'One more');
    expect(await openKeys(p, 'de')).toEqual(['home.banner']);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${other}`)).status).toBe(204);
    expect(await openKeys(p, 'de')).toEqual([]);
    expect(again).toBeTruthy();
  });

  it('refuses what is no resolution (422) and finds no comment of another slot or project (404)', async () => {
    const { p, keyId } = await translated();
    const id = await comment(p, keyId, 'de', 'Du or Sie?');
    for (const payload of [{}, { resolved: 'yes' }, { resolved: null }, { resolved: 1 }, { resolved: true, text: 'x' }, []]) {
      const res = await resolve(p, keyId, 'de', id, payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect((await body(res)).detail.length, JSON.stringify(payload)).toBeGreaterThan(0);
    }
    expect((await t.call(p.apiKey, 'PATCH', `${thread(keyId, 'de')}/${id}`, 'resolved', { 'Content-Type': 'text/plain' })).status).toBeGreaterThanOrEqual(400);
    // Another language's thread, another key, no such comment, a malformed id.
    expect((await resolve(p, keyId, 'fr', id, { resolved: true })).status).toBe(404);
    expect((await resolve(p, await p.key('home.other'), 'de', id, { resolved: true })).status).toBe(404);
    expect((await resolve(p, keyId, 'de', randomUUID(), { resolved: true })).status).toBe(404);
    expect((await resolve(p, keyId, 'de', 'not-a-uuid', { resolved: true })).status).toBe(422);
    expect((await resolve(p, keyId, 'it', id, { resolved: true })).status).toBe(404);
    // Another project's key cannot resolve it, nor learn it exists.
    const stranger = await project(t, ['en', 'de']);
    expect((await t.call(stranger.apiKey, 'PATCH', `${thread(keyId, 'de')}/${id}`, { resolved: true })).status).toBe(404);
    expect((await body(await p.get(thread(keyId, 'de')))).open).toBe(1);
    expect(await events(p, 'comment.resolved')).toHaveLength(0);
    // An unknown filter value in the listing is a 422, not every key.
    expect((await p.get('/v1/keys?open_comments=not%20a%20code')).status).toBe(422);
  });
});

describe.skipIf(!usingRealPostgres())('resolving comments: races on PostgreSQL', () => {
  it('eight resolutions of one comment at once: one change, one event, the first resolver named', async () => {
    const { p, keyId } = await translated();
    const id = await comment(p, keyId, 'de', 'Du or Sie?');
    const answers = await Promise.all(Array.from({ length: 8 }, () => resolve(p, keyId, 'de', id, { resolved: true })));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const bodies = await Promise.all(answers.map((r) => body(r)));
    expect(new Set(bodies.map((b) => b.resolved_at)).size).toBe(1);
    expect(await events(p, 'comment.resolved')).toHaveLength(1);
  });
});
