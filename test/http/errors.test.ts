// Section 7: one envelope, 4xx for every kind of bad input, nothing half written, never a 5xx.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

describe('bad input', () => {
  it('malformed JSON is a 422 json_invalid; a wrong or missing content type is a 415', async () => {
    const p = await t.newProject();
    const bad = await t.call(p.apiKey, 'POST', '/v1/keys', '{"key": ', { 'Content-Type': 'application/json' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }] });
    const text = await t.call(p.apiKey, 'POST', '/v1/keys', undefined, { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ detail: 'Content-Type must be application/json' });
    const none = await t.app.request('/v1/keys', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: '{"key":"x"}' });
    expect([415]).toContain(none.status);
    const empty = await t.call(p.apiKey, 'POST', '/v1/keys', '', { 'Content-Type': 'application/json' });
    expect(empty.status).toBe(422);
  });

  it('a body that is not UTF-8 is a 422, a declared charset other than UTF-8 a 415; nothing is created either way', async () => {
    const p = await t.newProject();
    const send = (body: Uint8Array, contentType = 'application/json') =>
      t.app.request('/v1/keys', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': contentType }, body });
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    // FF FE (no UTF-8 at all), an overlong slash (C0 AF), a surrogate encoded as UTF-8 (ED A0 80), a truncated sequence.
    for (const bad of [[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const res = await send(bytes('{"key":"k', bad, '"}'));
      expect(res.status, String(bad)).toBe(422);
      expect(await res.json()).toEqual({ detail: [{ loc: ['body'], msg: 'Request body is not valid UTF-8', type: 'unicode_invalid' }] });
    }
    const latin1 = await send(bytes('{"key":"ct.l', [0xe9], '"}'), 'application/json; charset=iso-8859-1');
    expect(latin1.status).toBe(415);
    expect((await latin1.json()).detail).toContain('charset=iso-8859-1');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys).toEqual([]);
    // UTF-8, declared or not, in any spelling of the name: written as sent.
    for (const [i, contentType] of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8'].entries()) {
      const res = await send(bytes(`{"key":"grüße.${i} 👋"}`), contentType);
      expect(res.status, contentType).toBe(201);
      expect((await res.json()).key).toBe(`grüße.${i} 👋`);
    }
    // A write that takes no body, sent none under a Latin-1 content type, is fine.
    const key = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys[0];
    const del = await t.app.request(`/v1/keys/${key.id}`, { method: 'DELETE', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json; charset=latin1' } });
    expect(del.status).toBe(204);
  });

  it('arrays, nulls, scalars where an object belongs are 422 object_type', async () => {
    const p = await t.newProject();
    for (const body of ['[]', '[{"key":"x"}]', 'null', '"key"', '42', 'true']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', body);
      expect(res.status, body).toBe(422);
      expect((await res.json()).detail).toEqual([{ loc: ['body'], msg: 'Request body must be a JSON object', type: 'object_type' }]);
    }
    for (const body of [{ key: null }, { key: ['a'] }, { key: { a: 1 } }, { key: 1 }, { key: 'x', description: 5 }]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const detail = (await res.json()).detail;
      expect(Array.isArray(detail)).toBe(true);
      for (const issue of detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    }
  });

  it('bodies over 1 MiB are a 413 in the envelope', async () => {
    const p = await t.newProject();
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'big', description: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Request body exceeds 1 MiB' });
  });

  it('unknown routes and methods are a 404 in the envelope', async () => {
    const p = await t.newProject();
    for (const [method, path] of [['GET', '/nope'], ['GET', '/v2/keys'], ['GET', '/v1/keys/a/b/c'], ['PUT', '/v1/groups']]) {
      const res = await t.call(p.apiKey, method!, path!);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('malformed ids in paths are 422 with a path loc, never 500', async () => {
    const p = await t.newProject();
    for (const id of ['nope', '123', "1' or '1'='1", '00000000-0000-0000-0000-00000000000g']) {
      const res = await t.call(p.apiKey, 'DELETE', `/v1/keys/${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['path', 'key_id']);
    }
  });

  it('a fuzz of hostile bodies never produces a 5xx', async () => {
    const p = await t.newProject('team');
    const hostile: unknown[] = [
      { key: "'; drop table translation_keys; --" },
      { key: '\ud83d' },
      { key: 'x'.repeat(100_000) },
      { key: 'ok', group_name: '\u0000' },
      { key: 'ok2', group_name: 'a'.repeat(10_000) },
      { key: 'ok3', description: '\udfff' },
      { key: { toString: 'x' } },
      { __proto__: { key: 'x' } },
      { constructor: { prototype: { key: 'x' } } },
    ];
    for (const body of hostile) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
    }
    for (const body of [{ code: 'de\u0000' }, { code: '\ud800' }, { code: 'x'.repeat(5000) }]) {
      expect((await t.call(p.apiKey, 'POST', '/v1/languages', body)).status).toBe(422);
    }
    for (const body of [{ name: '\u0000' }, { name: 'a'.repeat(300) }]) {
      expect((await t.call(p.apiKey, 'POST', '/v1/groups', body)).status).toBe(422);
    }
    for (const path of ['/v1/groups/%00', '/v1/groups/%E0%A4%A', '/v1/languages/%00', '/v1/keys/%ZZ']) {
      const res = await t.call(p.apiKey, 'DELETE', path);
      expect(res.status, path).toBeLessThan(500);
    }
    const keys = await t.runtime.deps.sql`select key from translation_keys where project_id = ${p.projectId}`;
    expect(keys.map((k) => k.key)).toEqual(["'; drop table translation_keys; --"]);
  });

  it('hostile query strings and path segments are 4xx or an empty answer, never a 5xx', async () => {
    const p = await t.newProject();
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k', group_name: 'g' });
    for (const group of ['%00', '%FF', '%ED%A0%80', 'x'.repeat(300)]) {
      const res = await t.call(p.apiKey, 'GET', `/v1/keys?group=${group}`);
      expect(res.status, group).toBe(200);
      expect((await res.json()).count).toBe(0);
    }
    for (const path of ['/v1/translations/de?status=%00', '/v1/translations/de/%FF', '/v1/translations/de/a/%ED%A0%80', '/v1/cached/translations/de/%00/x', '/v1/languages/%FF', '/v1/keys?group=a&group=b']) {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('a write refused by validation is a 422 that writes nothing and records no event', async () => {
    const p = await t.newProject();
    for (const body of [{ key: 'x', group_name: 'bad/group' }, { key: 'y', description: 'd'.repeat(1001) }]) {
      expect((await t.call(p.apiKey, 'POST', '/v1/keys', body)).status).toBe(422);
    }
    const [row] = await t.runtime.deps.sql<{ keys: number; events: number }[]>`
      select (select count(*)::int from translation_keys where project_id = ${p.projectId}) as keys,
             (select count(*)::int from domain_events where project_id = ${p.projectId} and type like 'key.%') as events`;
    expect(row).toEqual({ keys: 0, events: 0 });
  });

  it('a write that fails midway, after its first statements ran, is an opaque 500 that leaves nothing behind', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const { sql } = t.runtime.deps;
    const count = async () => {
      const [row] = await sql<{ keys: number; values: number; events: number; units: number }[]>`
        select (select count(*)::int from translation_keys where project_id = ${p.projectId}) as keys,
               (select count(*)::int from translations where project_id = ${p.projectId}) as values,
               (select count(*)::int from domain_events where project_id = ${p.projectId}) as events,
               (select coalesce(sum(used), 0)::int from translation_unit_usage where account_id = ${p.accountId}) as units`;
      return row!;
    };
    const before = await count();
    // An import locks the project, charges its units, inserts its keys, then its values: a trigger
    // that refuses this project's values fails it after the charge and the keys were written.
    const name = `refuse_values_${p.projectId.replaceAll('-', '_')}`;
    await sql.unsafe(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.project_id = '${p.projectId}' then raise exception 'disk full (simulated)'; end if;
        return new;
      end $$`);
    await sql.unsafe(`create trigger ${name} before insert on translations for each row execute function ${name}()`);
    try {
      const res = await t.app.request('/v1/import/de?format=json', {
        method: 'POST',
        headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ 'home.title': 'Start', 'home.body': 'Text' }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      await sql.unsafe(`drop trigger ${name} on translations`);
      await sql.unsafe(`drop function ${name}()`);
    }
    expect(await count()).toEqual(before);
    // And the same import succeeds once the fault is gone, so the failure was the fault's alone.
    const retry = await t.app.request('/v1/import/de?format=json', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ 'home.title': 'Start', 'home.body': 'Text' }),
    });
    expect(retry.status).toBe(200);
    expect(await count()).toMatchObject({ keys: 2, values: 2, units: 2 });
  });
});
