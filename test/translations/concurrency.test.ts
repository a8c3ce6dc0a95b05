// Concurrent writers: never a 5xx, and the last committed write wins whole. Meaningful on real
// Postgres (DATABASE_URL); on embedded PGlite, transactions are serialized and these tests only
// check that the outcomes stay well-formed.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Status } from './helpers.ts';

const t = useTestApp();

const STATUSES: Status[] = ['draft', 'review', 'approved'];

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('concurrent writes', () => {
  it('20 concurrent PUTs of one key and language: all 200, the final value is one write whole', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('race.title', 'race');
    const writes = Array.from({ length: 20 }, (_, i) => ({
      // Long, distinct values: a torn write would mix them.
      value: `writer ${i}: ` + String.fromCharCode(65 + i).repeat(9_000),
      status: STATUSES[i % 3]!,
    }));
    const responses = await Promise.all(writes.map((w) => t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, w)));
    for (const [i, res] of responses.entries()) {
      expect(res.status).toBe(200);
      expect(await body(res)).toMatchObject(writes[i]!);
    }
    const final = await body(await p.get('/v1/translations/de/race/race.title?status=all'));
    const winner = writes.find((w) => w.value === final.value);
    expect(winner, 'final value equals one of the writes').toBeDefined();
    expect(final.status).toBe(winner!.status);
    expect((await body(await p.get('/v1/translations/de?status=all'))).count).toBe(1);
  });

  it('PUTs racing a language removal end as 200 or 404, and nothing of the language survives', async () => {
    const p = await project(t, ['de', 'fr']);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => p.key(`race.k${i}`, 'race')));
    for (const k of keys.slice(0, 5)) await p.put(k, 'fr', 'vorher', 'approved');
    const puts = keys.flatMap((k) => [1, 2].map((n) => t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/fr`, { value: `v${n}`, status: 'approved' })));
    const removal = t.call(p.apiKey, 'DELETE', '/v1/languages/fr');
    const results = await Promise.all([...puts, removal]);
    expect((await removal).status).toBe(200);
    for (const res of results.slice(0, -1)) expect([200, 404]).toContain(res.status);
    expect((await p.get('/v1/translations/fr?status=all')).status).toBe(404);
    expect((await body(await p.get('/v1/manifest'))).languages).toEqual([]);
    const [row] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from translations where project_id = ${p.projectId}`;
    expect(row?.n).toBe(0);
  });

  it('PUTs racing the deletion of their key end as 200 or 404, and the key is not served', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('race.doomed', 'race');
    const puts = Array.from({ length: 10 }, (_, i) => t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: `v${i}`, status: 'approved' }));
    const removal = t.call(p.apiKey, 'DELETE', `/v1/keys/${k}`);
    const results = await Promise.all([...puts, removal]);
    expect((await removal).status).toBe(204);
    for (const res of results.slice(0, -1)) expect([200, 404]).toContain(res.status);
    expect((await p.get('/v1/translations/de/race/race.doomed?status=all')).status).toBe(404);
  });

  it('PUTs and DELETEs of one value interleave without a 5xx and leave a whole value or none', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('race.flip', 'race');
    const ops = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: `flip ${i}`, status: 'review' })
        : t.call(p.apiKey, 'DELETE', `/v1/keys/${k}/translations/de`),
    );
    const results = await Promise.all(ops);
    for (const [i, res] of results.entries()) expect(i % 2 === 0 ? [200] : [204, 404]).toContain(res.status);
    const final = await p.get('/v1/translations/de/race/race.flip?status=all');
    if (final.status === 200) expect((await body(final)).value).toMatch(/^flip \d+$/);
    else expect(final.status).toBe(404);
  });
});

// A removal that commits between the PUT's guard and its foreign-key check: deterministic only with
// a second real backend, so real Postgres only (on PGlite one open transaction blocks everything).
describe.runIf(usingRealPostgres())('a PUT losing the race against a language removal', () => {
  for (const existing of [false, true]) {
    it(`ends as 404, not 500 (${existing ? 'overwrite' : 'insert'})`, async () => {
      const p = await project(t, ['de', 'fr']);
      const k = await p.key('race.fk', 'race');
      if (existing) await p.put(k, 'fr', 'alt', 'approved');
      const sql = t.runtime.deps.sql;
      const remover = await sql.reserve();
      try {
        // The same statements as DELETE /v1/languages, held open.
        await remover`begin`;
        const [{ pid }] = (await remover`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
        await remover`delete from translations where project_id = ${p.projectId} and language = 'fr'`;
        await remover`delete from project_languages where project_id = ${p.projectId} and code = 'fr'`;
        const pending = t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/fr`, { value: 'neu', status: 'approved' });
        // The PUT's guard still sees the language (uncommitted delete); its write then waits on
        // the remover's locks.
        await waitFor(async () => {
          // Whatever the PUT's statement looks like: a backend that the remover blocks.
          const [row] = await sql<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`;
          return row!.n > 0;
        }, 'the PUT to wait on the removal');
        await remover`commit`;
        const res = await pending;
        expect(res.status).toBe(404);
        expect((await body(res)).detail).toBe("Language 'fr' is not registered for this project");
      } finally {
        remover.release();
      }
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from translations where project_id = ${p.projectId}`;
      expect(row?.n).toBe(0);
    });
  }
});

// History's `before` is what the write replaced. A PUT that waited for another write to the same
// value recorded the text as of its statement's start (the value before that other write), so
// History left that write out and Revert offered a text nobody had replaced.
describe.runIf(usingRealPostgres())('a PUT that waited for another write of its value', () => {
  for (const [name, headers] of [
    ['plain', {}],
    ['If-Match: *', { 'If-Match': '*' }],
    ['If-None-Match on another version', { 'If-None-Match': '"999"' }],
  ] as const) {
    it(`records that write's text as the one it replaced (${name})`, async () => {
      const sql = t.runtime.deps.sql;
      const p = await project(t, ['de']);
      const keyId = await p.key('home.title', 'home');
      await p.put(keyId, 'de', 'Erste', 'draft');
      const holder = await sql.reserve();
      try {
        await holder`begin`;
        const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
        await holder`update translations set value = 'Zweite', status = 'review' where key_id = ${keyId} and language = 'de'`;
        const put = t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Dritte', status: 'draft' }, headers);
        await waitFor(
          async () => (await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length > 0,
          'the PUT waits for the held write',
        );
        await holder`commit`;
        const res = await put;
        expect(res.status, await res.clone().text()).toBe(200);
      } finally {
        await holder`rollback`.catch(() => undefined);
        holder.release();
      }
      const [last] = await sql<{ before: { value: string; status: string } | null }[]>`
        select before from domain_events where project_id = ${p.projectId} and type = 'translation.written' and entity_id = ${`${keyId}/de`}
        order by id desc limit 1`;
      expect(last?.before).toEqual({ value: 'Zweite', status: 'review' });
    });
  }
});

// A DELETE under If-Match judged its condition on the row as a write it waited for left it, but
// answered with the version from before that write: a 404 ("no 'de' translation") for a value
// that was there, at another version.
describe.runIf(usingRealPostgres())('a DELETE under If-Match that waited for another write of its value', () => {
  it('is a 412 naming the version that write left, and the value stays', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const keyId = await p.key('home.title', 'home');
    const url = `/v1/keys/${keyId}/translations/de`;
    const put = await t.call(p.apiKey, 'PUT', url, { value: 'Erste', status: 'draft' });
    const etag = put.headers.get('etag')!;
    const holder = await sql.reserve();
    try {
      await holder`begin`;
      const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      await holder`update translations set value = 'Zweite' where key_id = ${keyId} and language = 'de'`;
      const deleted = t.call(p.apiKey, 'DELETE', url, undefined, { 'If-Match': etag });
      await waitFor(
        async () => (await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length > 0,
        'the DELETE waits for the held write',
      );
      await holder`commit`;
      const res = await deleted;
      const now = await t.call(p.apiKey, 'GET', url);
      expect(now.status).toBe(200);
      expect(now.headers.get('etag')).not.toBe(etag);
      expect(res.status, await res.clone().text()).toBe(412);
      const current = Number(now.headers.get('etag')!.replaceAll('"', ''));
      expect((await body(res)).detail).toMatchObject({ code: 'PRECONDITION_FAILED', conflicts: [{ current }] });
    } finally {
      await holder`rollback`.catch(() => undefined);
      holder.release();
    }
  });
});
