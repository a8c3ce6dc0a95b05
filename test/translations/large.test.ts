// A project with 10,000 keys: every entry served with the right count, and each request of this
// feature costs exactly one SQL statement (no query per key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from './helpers.ts';

const t = useTestApp();
const KEYS = 10_000;
const GROUPS = 10;
const keyName = (i: number) => `g${i % GROUPS}.key.${String(i).padStart(5, '0')}`;
const valueOf = (i: number) => `Wert ${i} — ✓ {n}`;

let p: Project;
beforeAll(async () => {
  p = await project(t, ['de']);
  const sql = t.runtime.deps.sql;
  // Multi-row inserts straight into the tables: seeding through the API would take minutes.
  await sql`
    insert into translation_keys (project_id, key, group_name)
    select ${p.projectId}, 'g' || (i % ${GROUPS}) || '.key.' || lpad(i::text, 5, '0'), 'g' || (i % ${GROUPS})
    from generate_series(0, ${KEYS - 1}) as i`;
  await sql`
    insert into translations (key_id, project_id, language, value, status)
    select k.id, k.project_id, 'de', 'Wert ' || (substring(k.key from '\\d+$'))::int || ' — ✓ {n}', 'approved'
    from translation_keys k where k.project_id = ${p.projectId}`;
  await sql`analyze translations`;
  await sql`analyze translation_keys`;
});

describe('10,000 keys in one language', () => {
  it('the language read returns every value with count 10,000', async () => {
    const res = await p.get('/v1/translations/de');
    expect(res.status).toBe(200);
    const data = await body(res);
    expect(data.count).toBe(KEYS);
    expect(Object.keys(data.translations)).toHaveLength(KEYS);
    for (let i = 0; i < KEYS; i++) {
      if (data.translations[keyName(i)] !== valueOf(i)) expect(data.translations[keyName(i)], keyName(i)).toBe(valueOf(i));
    }
    const all = await body(await p.get('/v1/translations/de?status=all'));
    expect(all.count).toBe(KEYS);
    expect(all.translations[keyName(4242)]).toEqual({ value: valueOf(4242), status: 'approved', group: 'g2' });
    expect((await body(await p.get('/v1/translations/de?status=draft'))).count).toBe(0);
  });

  it('the group read, key read and manifest agree', async () => {
    const group = await body(await p.get('/v1/translations/de/g3'));
    expect(group.count).toBe(KEYS / GROUPS);
    expect(Object.keys(group.translations).every((k) => k.startsWith('g3.'))).toBe(true);
    expect((await body(await p.get(`/v1/translations/de/g7/${keyName(9997)}`))).value).toBe(valueOf(9997));
    expect((await body(await p.get('/v1/manifest'))).languages).toEqual([{ code: 'de', name: 'German', iso: 'de', approved_count: KEYS }]);
  });

  describe('one SQL statement per request', () => {
    let statements: string[] = [];
    let api: ReturnType<typeof createApi>;
    beforeAll(() => {
      // The runtime's own client records what it sends: postgres.js reads `debug` from its options
      // at each query. (A second client cannot join: the embedded socket takes one connection.)
      // API keys are verified once and then served from the verifier's cache, so they do not count.
      (t.runtime.deps.sql.options as { debug?: unknown }).debug = (_connection: number, query: string) => statements.push(query);
      api = createApi(t.runtime.deps, allRouteGroups);
    });
    afterAll(() => {
      (t.runtime.deps.sql.options as { debug?: unknown }).debug = false;
    });

    it.each([
      ['PUT', '/v1/keys/{id}/translations/de', { value: 'neu', status: 'approved' }],
      ['GET', '/v1/translations/de', undefined],
      ['GET', '/v1/translations/de?status=all', undefined],
      ['GET', '/v1/translations/de?status=review', undefined],
      ['GET', '/v1/translations/de/g1', undefined],
      ['GET', '/v1/translations/de/g1?status=all', undefined],
      ['GET', '/v1/translations/de/g1/g1.key.00001', undefined],
      ['GET', '/v1/manifest', undefined],
      ['DELETE', '/v1/keys/{id}/translations/de', undefined],
    ] as const)('%s %s', async (method, template, payload) => {
      const [key] = await t.runtime.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = 'g1.key.00001'`;
      const id = key!.id;
      const path = template.replace('{id}', id);
      const request = () =>
        api.request(path, {
          method,
          headers: { 'X-API-Key': p.apiKey, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
          ...(payload ? { body: JSON.stringify(payload) } : {}),
        });
      await request(); // warm the API-key cache
      if (method === 'DELETE') await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'wieder', status: 'approved' });
      statements = [];
      const res = await request();
      expect(res.status).toBeLessThan(300);
      // The rebuild worker polls its queue (cache_state) and the statistics refresher reads the
      // change counters (pg_stat_user_tables) and may analyze after a write, both in the background
      // on this same client, as does the webhook worker (woken after each write): their statements
      // are not the request's.
      const own = statements.filter((q) => !/\bcache_state\b|\bwebhook_(outbox|deliveries)\b|\bpg_stat_user_tables\b|^\s*analyze\b/i.test(q));
      expect(own, own.join('\n---\n')).toHaveLength(1);
      if (method !== 'GET') await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: valueOf(1), status: 'approved' });
    });
  });

  it('a deleted group leaves 9,000 values and counts', async () => {
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/g0')).status).toBe(204);
    const data = await body(await p.get('/v1/translations/de'));
    expect(data.count).toBe(KEYS - KEYS / GROUPS);
    expect(Object.keys(data.translations).some((k) => k.startsWith('g0.'))).toBe(false);
    expect((await body(await p.get('/v1/manifest'))).languages[0].approved_count).toBe(KEYS - KEYS / GROUPS);
  });
});
