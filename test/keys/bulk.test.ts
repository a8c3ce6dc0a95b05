// POST /v1/keys/bulk-delete and /v1/keys/bulk-status: selections and filters, all or nothing,
// events as the single writes record them, isolation, expected versions, auto-rebuild.
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { silentLogger } from '../../core/log.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { databaseUrl, onQuery } from '../support/commit-in-another-backend.ts';
import { project } from '../translations/helpers.ts';

const t = useTestApp();

async function seeded(app: TestApp = t, keys = ['a.one', 'a.two', 'b.three']) {
  const p = await app.newProject('team');
  for (const code of ['de', 'fr']) expect((await app.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const ids: Record<string, string> = {};
  for (const key of keys) {
    const res = await app.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: key.split('.')[0] });
    ids[key] = (await res.json()).id;
    for (const lang of ['de', 'fr']) {
      expect((await app.call(p.apiKey, 'PUT', `/v1/keys/${ids[key]}/translations/${lang}`, { value: `${key} ${lang}`, status: 'draft' })).status).toBe(200);
    }
  }
  return { p, ids };
}

const statusesOf = async (p: TestProject, lang: string) =>
  (await (await t.call(p.apiKey, 'GET', `/v1/translations/${lang}?status=all`)).json()).translations as Record<string, { status: string }>;
const eventsOf = async (projectId: string, type: string) =>
  t.runtime.deps.sql<{ entity_id: string; before: unknown; after: unknown; actor_type: string }[]>`
    select entity_id, before, after, actor_type from domain_events where project_id = ${projectId} and type = ${type} order by id`;

describe('POST /v1/keys/bulk-status', () => {
  it('changes the status of the selected keys in the given languages, one event per value changed', async () => {
    const { p, ids } = await seeded();
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one'], ids['a.two']], languages: ['de'], status: 'approved' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ project_id: p.projectId, status: 'approved', changed: 2 });
    expect(body.values).toHaveLength(2);
    const de = await statusesOf(p, 'de');
    expect([de['a.one']!.status, de['a.two']!.status, de['b.three']!.status]).toEqual(['approved', 'approved', 'draft']);
    expect((await statusesOf(p, 'fr'))['a.one']!.status).toBe('draft');
    const events = (await eventsOf(p.projectId, 'translation.written')).slice(-2);
    expect(events.map((e) => e.entity_id).sort()).toEqual([`${ids['a.one']}/de`, `${ids['a.two']}/de`].sort());
    expect(events[0]).toMatchObject({ before: { status: 'draft' }, after: { status: 'approved' }, actor_type: 'api_key' });
    // The new versions are the values' ETags.
    const one = await t.call(p.apiKey, 'GET', `/v1/keys/${ids['a.one']}/translations/de`);
    const v = body.values.find((x: { key_id: string }) => x.key_id === ids['a.one']).version;
    expect(one.headers.get('etag')).toBe(`"${v}"`);

    // Again: nothing left to change.
    const again = await (await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one']], languages: ['de'], status: 'approved' })).json();
    expect(again).toMatchObject({ changed: 0, values: [] });
  });

  it('over a filter: the keys the listing shows with the same filter', async () => {
    const { p } = await seeded();
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { filter: { group: 'a', search: 'TWO' }, languages: ['de', 'fr'], status: 'review' });
    expect(await res.json()).toMatchObject({ changed: 2 });
    expect((await statusesOf(p, 'de'))['a.two']!.status).toBe('review');
    expect((await statusesOf(p, 'fr'))['a.two']!.status).toBe('review');
    expect((await statusesOf(p, 'de'))['a.one']!.status).toBe('draft');
    // status filter: the review ones back to draft.
    const back = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { filter: { status: 'review', language: 'fr' }, languages: ['fr'], status: 'draft' });
    expect(await back.json()).toMatchObject({ changed: 1 });
  });

  it('all or nothing: one unknown, deleted or foreign key id, or an unregistered language, changes nothing', async () => {
    const { p, ids } = await seeded();
    const other = await seeded(t, ['x.foreign']);
    const deleted = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'gone' })).json();
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${deleted.id}`);
    const before = await eventsOf(p.projectId, 'translation.written');
    for (const bad of [crypto.randomUUID(), deleted.id, other.ids['x.foreign']]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one'], bad, ids['a.two']], languages: ['de'], status: 'approved' });
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toContain(bad);
    }
    const unregistered = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one']], languages: ['de', 'ja'], status: 'approved' });
    expect(unregistered.status).toBe(404);
    expect((await statusesOf(p, 'de'))['a.one']!.status).toBe('draft');
    expect(await eventsOf(p.projectId, 'translation.written')).toEqual(before);
    expect((await statusesOf(other.p, 'de'))['x.foreign']!.status).toBe('draft');
  });

  it('expected versions: any value changed since refuses the whole action with 412 listing it', async () => {
    const { p, ids } = await seeded();
    const read = async (key: string) => Number((await t.call(p.apiKey, 'GET', `/v1/keys/${ids[key]}/translations/de`)).headers.get('etag')!.replaceAll('"', ''));
    const expected = [
      { key_id: ids['a.one'], language: 'de', version: await read('a.one') },
      { key_id: ids['a.two'], language: 'de', version: await read('a.two') },
    ];
    // A second editor changes a.two meanwhile.
    await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['a.two']}/translations/de`, { value: 'changed meanwhile', status: 'draft' });
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one'], ids['a.two']], languages: ['de'], status: 'approved', expected_versions: expected });
    expect(res.status).toBe(412);
    const { detail } = await res.json();
    expect(detail).toMatchObject({ code: 'PRECONDITION_FAILED', conflicts: [{ key_id: ids['a.two'], language: 'de', expected: expected[1]!.version, current: await read('a.two') }] });
    expect((await statusesOf(p, 'de'))['a.one']!.status).toBe('draft'); // nothing changed

    expected[1]!.version = await read('a.two');
    const ok = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [ids['a.one'], ids['a.two']], languages: ['de'], status: 'approved', expected_versions: expected });
    expect(await ok.json()).toMatchObject({ changed: 2 });
    // An expected value outside the selection is a mistake, not a conflict.
    const outside = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', {
      key_ids: [ids['a.one']], languages: ['de'], status: 'review', expected_versions: [{ key_id: ids['b.three'], language: 'de', version: 1 }],
    });
    expect(outside.status).toBe(422);
  });

  it('validates its body: selection, languages, status, limits', async () => {
    const { p, ids } = await seeded();
    const one = ids['a.one'];
    for (const body of [
      { languages: ['de'], status: 'approved' },
      { key_ids: [one], filter: {}, languages: ['de'], status: 'approved' },
      { key_ids: [], languages: ['de'], status: 'approved' },
      { key_ids: ['nope'], languages: ['de'], status: 'approved' },
      { key_ids: Array.from({ length: 1001 }, () => crypto.randomUUID()), languages: ['de'], status: 'approved' },
      { key_ids: [one], languages: [], status: 'approved' },
      { key_ids: [one], languages: ['de'], status: 'done' },
      { key_ids: [one], languages: ['de'] },
      { key_ids: [one], languages: ['de'], status: 'approved', colour: 'red' },
      { filter: { serach: 'x' }, languages: ['de'], status: 'approved' },
      { filter: { status: 'nope' }, languages: ['de'], status: 'approved' },
      // A field given must filter: in a query string '' means "all", in a bulk body it meant every key.
      { filter: { group: '' }, languages: ['de'], status: 'approved' },
      { filter: { search: '  ' }, languages: ['de'], status: 'approved' },
    ]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(Array.isArray((await res.json()).detail)).toBe(true);
    }
  });

  it('a filter matching more than 1,000 keys is refused with 422, nothing changed', async () => {
    const p = await t.newProject('team');
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    const sql = t.runtime.deps.sql;
    const rows = Array.from({ length: 1001 }, (_, i) => ({ project_id: p.projectId, key: `many.${i}`, group_name: 'many' }));
    await sql`insert into translation_keys ${sql(rows)}`;
    const del = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'many' } });
    expect(del.status).toBe(422);
    expect((await del.json()).detail[0].loc).toEqual(['body', 'filter']);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys?group=many&limit=1')).json()).count).toBe(1);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'many', search: 'many.1' } })).status).toBe(200);
  });
});

describe('POST /v1/keys/bulk-delete', () => {
  it('soft-deletes the selection with one key.deleted event each; restorable like a single delete', async () => {
    const { p, ids } = await seeded();
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: [ids['a.one'], ids['a.two'], ids['a.one']] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, deleted: 2 });
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys.map((k: { key: string }) => k.key)).toEqual(['b.three']);
    const events = await eventsOf(p.projectId, 'key.deleted');
    expect(events.map((e) => e.entity_id).sort()).toEqual([ids['a.one'], ids['a.two']].sort());
    expect(events.find((e) => e.entity_id === ids['a.one'])!.before).toEqual({ key: 'a.one', group_name: 'a' });

    const restored = await t.admin('POST', `/projects/${p.projectId}/keys/${ids['a.one']}/restore`);
    expect(restored.status).toBe(200);
    expect((await statusesOf(p, 'de'))['a.one']).toBeDefined(); // its values came back with it
  });

  it('over a filter; all or nothing with a bad id; never another project', async () => {
    const { p, ids } = await seeded();
    const other = await seeded(t, ['a.one', 'a.mine']);
    const bad = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: [ids['a.one'], other.ids['a.mine']] });
    expect(bad.status).toBe(404);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(3);
    expect((await (await t.call(other.p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(2);

    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'a' } });
    expect(await res.json()).toEqual({ project_id: p.projectId, deleted: 2 });
    expect((await (await t.call(other.p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(2); // same names elsewhere untouched
    expect(await (await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'a' } })).json()).toEqual({ project_id: p.projectId, deleted: 0 });
  });

  it('an empty group or blank search in the filter is refused (422), not read as every key of the project', async () => {
    const { p } = await seeded();
    for (const filter of [{ group: '' }, { search: '' }, { search: '   ' }, { group: '', status: 'draft' }]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter });
      expect(res.status, JSON.stringify(filter)).toBe(422);
      expect((await res.json()).detail[0].loc, JSON.stringify(filter)).toEqual(['body', 'filter', Object.keys(filter)[0]]);
    }
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(3);
  });
});

describe('bulk writes and auto-rebuild', () => {
  it('a bulk approval queues the rebuild a single write would, and the cache then serves the values', async () => {
    const app = await startTestApp({ env: { AUTO_REBUILD_DEBOUNCE_MS: '100' }, log: silentLogger });
    try {
      const { p, ids } = await seeded(app);
      expect((await app.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: true })).status).toBe(200);
      const res = await app.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: Object.values(ids), languages: ['de'], status: 'approved' });
      expect(await res.json()).toMatchObject({ changed: 3 });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).ready) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await app.runtime.rebuilds!.idle();
      expect(await (await app.call(p.apiKey, 'GET', '/v1/cached/translations/de/a/a.one')).json()).toEqual({ value: 'a.one de' });
    } finally {
      await app.close();
    }
  });
});

describe.runIf(usingRealPostgres())('bulk-status over a filter, racing a write', () => {
  it('does not approve a text written as draft after the filter matched it in review: the filter is asked again once the values are locked', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('home.title', 'home');
    await p.put(id, 'de', 'Reviewed text', 'review');
    const url = await databaseUrl(t.runtime.deps.sql);
    // A translator's PUT of a new, unreviewed text commits as the bulk action reads the values.
    const stop = onQuery(
      t.runtime.deps.sql,
      /select key_id, language, value, status, version::text as version from translations/,
      url,
      `update translations set value = 'Unreviewed new text', status = 'draft' where key_id = '${id}' and language = 'de'`,
    );
    let res: Response;
    try {
      res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { filter: { status: 'review', language: 'de' }, languages: ['de'], status: 'approved' });
    } finally {
      stop();
    }
    const now = await (await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`)).json();
    expect(now.value).toBe('Unreviewed new text'); // the concurrent write did land
    // The filter asked for values in review: the draft text must not come out approved.
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ changed: 0 });
    expect(now.status).toBe('draft');
  });
});
