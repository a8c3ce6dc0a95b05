// Writes that lock several rows lock them in one order: keys by id, values by key id (and
// language). A bulk action (core/keys/key-selection.ts) and the value batches already did; a group
// delete or rename, an import and a language removal locked theirs in whatever order their plan
// produced, so one of them racing a bulk action over the same rows could hold one row and wait for
// the next while the bulk action held that one and waited for the first: a deadlock, which Postgres
// ends by failing one of them, a 500. Each case here makes that interleaving happen: a second
// backend holds the row both sides lock first in the bulk action's order, the bulk action queues
// on it, then the other write (which, out of order, has already locked the other row), and the hold
// ends. In one order, the second write queues behind the bulk action holding nothing, and both end.
// Real Postgres only: on PGlite one open transaction blocks everything.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Backends of this database waiting, directly or not, on `pid`. */
async function waitingOn(pid: number): Promise<number> {
  const [row] = await t.runtime.deps.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pg_blocking_pids(pid) <> '{}' and pid <> ${pid}`;
  return row!.n;
}

/** Two keys of `group` whose ids run against their names: a name-ordered plan locks `high` first. */
async function twoKeys(p: Project, group: string): Promise<{ low: { id: string; name: string }; high: { id: string; name: string } }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const a = { name: `${group}.k${attempt}a`, id: await p.key(`${group}.k${attempt}a`, group) };
    const b = { name: `${group}.k${attempt}b`, id: await p.key(`${group}.k${attempt}b`, group) };
    if (b.id < a.id) return { low: b, high: a };
    for (const k of [a, b]) expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${k.id}`)).status).toBe(204);
  }
  throw new Error('no two keys with ids against their names');
}

/**
 * Holds `lock` (a statement locking the rows both writes reach first in key order) in a second
 * backend, starts `bulk` and waits until it queues on the hold, starts `other` and waits until it
 * queues too, then ends the hold and returns both statuses.
 */
async function race(lock: (sql: any) => Promise<unknown>, bulk: () => Promise<Response>, other: () => Promise<Response>): Promise<number[]> {
  const holder = await t.runtime.deps.sql.reserve();
  try {
    await holder`begin`;
    const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    await lock(holder);
    const first = bulk();
    await waitFor(async () => (await waitingOn(pid)) >= 1, 'the bulk action to queue');
    const second = other();
    await waitFor(async () => (await waitingOn(pid)) >= 2, 'the other write to queue');
    await holder`commit`;
    const answers = await Promise.all([first, second]);
    return Promise.all(answers.map(async (res) => (res.status >= 500 ? Promise.reject(new Error(`${res.status} ${await res.text()}`)) : res.status)));
  } finally {
    holder.release();
  }
}

const holdKey = (id: string) => (sql: any) => sql`select 1 from translation_keys where id = ${id} for share`;
const holdValue = (id: string, language: string) => (sql: any) => sql`select 1 from translations where key_id = ${id} and language = ${language} for share`;

describe.runIf(usingRealPostgres())('writes of several rows lock them in key order', () => {
  it('a group delete racing a bulk status change of its keys', async () => {
    const p = await project(t, ['de']);
    const { low, high } = await twoKeys(p, 'grp');
    const statuses = await race(
      holdKey(low.id),
      () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [low.id, high.id], languages: ['de'], status: 'approved' }),
      () => t.call(p.apiKey, 'DELETE', '/v1/groups/grp'),
    );
    expect(statuses).toEqual([200, 204]);
  });

  it('a group rename racing a bulk delete of its keys', async () => {
    const p = await project(t, ['de']);
    const { low, high } = await twoKeys(p, 'grp');
    const statuses = await race(
      holdKey(low.id),
      () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: [low.id, high.id] }),
      () => t.call(p.apiKey, 'PATCH', '/v1/groups/grp', { new_name: 'renamed' }),
    );
    // The rename waited for the delete: the group is gone by then.
    expect(statuses).toEqual([200, 404]);
  });

  it('an import that updates descriptions racing a bulk delete of those keys', async () => {
    const p = await project(t, ['de']);
    const { low, high } = await twoKeys(p, 'grp');
    const csv = ['key,description,value', `${high.name},new about ${high.name},x`, `${low.name},new about ${low.name},y`].join('\n');
    const statuses = await race(
      holdKey(low.id),
      () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: [low.id, high.id] }),
      () => t.call(p.apiKey, 'POST', '/v1/import/de?format=csv', csv),
    );
    expect(statuses).toEqual([200, 200]);
  });

  it('an import of values racing a bulk status change of them', async () => {
    const p = await project(t, ['de']);
    const { low, high } = await twoKeys(p, 'grp');
    for (const k of [low, high]) await p.put(k.id, 'de', 'before', 'draft');
    const statuses = await race(
      holdValue(low.id, 'de'),
      () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [low.id, high.id], languages: ['de'], status: 'review' }),
      // The file names `high` first.
      () => t.call(p.apiKey, 'POST', '/v1/import/de?status=approved', JSON.stringify({ [high.name]: 'x', [low.name]: 'y' })),
    );
    expect(statuses).toEqual([200, 200]);
  });

  it('a language removal racing a bulk status change of its values', async () => {
    const p = await project(t, ['de', 'fr']);
    const { low, high } = await twoKeys(p, 'grp');
    // The language's index orders its values by status first: `high`, approved, before `low`.
    await p.put(low.id, 'fr', 'before', 'review');
    await p.put(high.id, 'fr', 'before', 'approved');
    const statuses = await race(
      holdValue(low.id, 'fr'),
      () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [low.id, high.id], languages: ['fr'], status: 'draft' }),
      () => t.call(p.apiKey, 'DELETE', '/v1/languages/fr'),
    );
    expect(statuses).toEqual([200, 200]);
  });
});
