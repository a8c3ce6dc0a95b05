// Idempotency-Key on the writes that create: a retry with the same key gets the first answer again
// and does the work once; the stored answer commits with the write (docs/decisions.md).
import { describe, expect, it } from 'vitest';
import { useTestApp, ADMIN_TOKEN } from '../support/test-app.ts';

const t = useTestApp();
const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };

async function count(sql: string, ...params: unknown[]): Promise<number> {
  const rows = await t.runtime.deps.sql.unsafe<{ n: number }[]>(sql, params as never[]);
  return rows[0]!.n;
}

describe('Idempotency-Key', () => {
  it('a retry with the same key gets the first answer, marked replayed; the key is created once', async () => {
    const p = await t.newProject('team');
    const send = () => t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' }, { 'Idempotency-Key': 'create-home-title-1' });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await retry.json()).toEqual(await first.json());
    expect(await count(`select count(*)::int as n from translation_keys where project_id = $1`, p.projectId)).toBe(1);
    expect(await count(`select count(*)::int as n from domain_events where project_id = $1 and type = 'key.created'`, p.projectId)).toBe(1);
    // Without the key, the retry is what it always was: the name is taken.
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' })).status).toBe(409);
  });

  it('the same key with another body, path or method is a 422 naming the header; nothing is written', async () => {
    const p = await t.newProject('team');
    const headers = { 'Idempotency-Key': 'k-1' };
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a.one' }, headers)).status).toBe(201);
    for (const [path, body] of [['/v1/keys', { key: 'a.two' }], ['/v1/languages', { code: 'de' }]] as const) {
      const res = await t.call(p.apiKey, 'POST', path, body, headers);
      expect(res.status, path).toBe(422);
      expect((await res.json()).detail).toEqual([
        { loc: ['header', 'Idempotency-Key'], msg: 'This Idempotency-Key was already used with a different request (method, path or body)', type: 'idempotency_key_reused' },
      ]);
    }
    expect(await count(`select count(*)::int as n from translation_keys where project_id = $1`, p.projectId)).toBe(1);
    expect(await count(`select count(*)::int as n from project_languages where project_id = $1`, p.projectId)).toBe(0);
  });

  it('a refusal is not kept: the retry runs again once the cause is gone', async () => {
    const p = await t.newProject('team');
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'b.one' })).json()).id;
    const headers = { 'Idempotency-Key': 'k-refused' };
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'b.one' }, headers)).status).toBe(409);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${key}`)).status).toBe(204);
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'b.one' }, headers);
    expect(res.status).toBe(201);
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('keys belong to one project: another project using the same key does its own write', async () => {
    const [a, b] = [await t.newProject('team'), await t.newProject('team')];
    const headers = { 'Idempotency-Key': 'shared-token' };
    const ra = await t.call(a.apiKey, 'POST', '/v1/languages', { code: 'de' }, headers);
    const rb = await t.call(b.apiKey, 'POST', '/v1/languages', { code: 'de' }, headers);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.headers.get('Idempotent-Replayed')).toBeNull();
    expect((await rb.json()).project_id).toBe(b.projectId);
  });

  it('the admin creates: one account, one project, one API key (the same secret) however often retried', async () => {
    const key = (k: string) => ({ ...ADMIN, 'Idempotency-Key': k });
    const accounts = await Promise.all([1, 2].map(() => t.call(undefined, 'POST', '/admin/v1/accounts', { name: 'Once Ltd', plan: 'free' }, key('acct-1'))));
    const [a1, a2] = await Promise.all(accounts.map((r) => r.json()));
    expect(accounts.map((r) => r.status)).toEqual([201, 201]);
    expect(a2.id).toBe(a1.id);
    expect(await count(`select count(*)::int as n from accounts where name = 'Once Ltd'`)).toBe(1);

    // Free plan: one project. A second attempt without the key would be a 402; with it, the first answer.
    const project = () => t.call(undefined, 'POST', `/admin/v1/accounts/${a1.id}/projects`, { name: 'App' }, key('proj-1'));
    const p1 = await project();
    const p2 = await project();
    expect([p1.status, p2.status]).toEqual([201, 201]);
    const [pb1, pb2] = [await p1.json(), await p2.json()];
    expect(pb2).toEqual(pb1);

    const apiKey = () => t.call(undefined, 'POST', `/admin/v1/projects/${pb1.id}/api-keys`, undefined, key('api-key-1'));
    const k1 = await (await apiKey()).json();
    const k2 = await (await apiKey()).json();
    expect(k2).toEqual(k1);
    expect(await count(`select count(*)::int as n from api_keys where project_id = $1`, pb1.id)).toBe(2); // the project's first key and this one
  });

  it('concurrent requests with one key: one write, every answer the same', async () => {
    const p = await t.newProject('team');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.call(p.apiKey, 'POST', '/v1/keys', { key: 'race.key' }, { 'Idempotency-Key': 'race' })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (r) => (await r.json()).id)));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(7);
    expect(await count(`select count(*)::int as n from domain_events where project_id = $1 and type = 'key.created'`, p.projectId)).toBe(1);
  });

  it('after 24 hours a key may be used again', async () => {
    const p = await t.newProject('team');
    const headers = { 'Idempotency-Key': 'old' };
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'c.one' }, headers)).status).toBe(201);
    await t.runtime.deps.sql`update idempotency_keys set created_at = now() - interval '25 hours' where scope = ${p.projectId}`;
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'c.two' }, headers);
    expect(res.status).toBe(201);
    expect((await res.json()).key).toBe('c.two');
  });

  it('a malformed key is a 422 before anything is written', async () => {
    const p = await t.newProject('team');
    for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\tinside']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd.one' }, { 'Idempotency-Key': bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    }
    expect(await count(`select count(*)::int as n from translation_keys where project_id = $1`, p.projectId)).toBe(0);
  });
});
