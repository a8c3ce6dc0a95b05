// A tag renamed or deleted across the project while other writes hold the same keys, on real
// PostgreSQL (core/keys/project-tags.ts). The keys are locked FOR NO KEY UPDATE, as every other
// multi-key write locks them: FOR UPDATE would also exclude the FOR KEY SHARE a new value's
// foreign-key check takes on its key, and an import that holds one of the tag's keys (it tags it)
// while creating a value on another the rename had locked closed a cycle, ended by Postgres as a
// deadlock, answered 500 (found by review). And renames, deletes, bulk tagging and PATCHes of the
// same keys at once: never a 5xx, never a duplicate tag, never more than 20 on a key.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { project } from '../translations/helpers.ts';
import { createMemoryLogger } from '../../core/log.ts';

const log = createMemoryLogger();
const t = useTestApp({ log });


async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
async function blockedBy(pid: number): Promise<number[]> {
  const rows = await t.runtime.deps.sql<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`;
  return rows.map((r) => r.pid);
}

describe.runIf(usingRealPostgres())('renaming a tag while an import writes the same keys', () => {
  it('one waits for the other: no deadlock, no 500', async () => {
    const p = await project(t, ['de']);
    const sql = t.runtime.deps.sql;
    const mk = async (name: string, tags: string[]) => {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, tags });
      expect(res.status).toBe(201);
      return (await res.json()).id as string;
    };
    const a = { name: 'k.a', id: await mk('k.a', ['old']) };
    const b = { name: 'k.b', id: await mk('k.b', ['old']) };
    const [low, high] = a.id < b.id ? [a, b] : [b, a];
    // low: already has the import's tag, no German value (the import creates one: an FK check on low).
    // high: gets the import's tag (the import locks it), and has a German value the import overwrites.
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${low.id}`, { tags: ['imp', 'old'] })).status).toBe(200);
    await p.put(high.id, 'de', 'x');

    const holder = await sql.reserve();
    try {
      await holder`begin`;
      const [{ pid: holderPid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      await holder`select 1 from translations where key_id = ${high.id} and language = 'de' for share`;
      const imported = t.call(p.apiKey, 'POST', `/v1/import/de?tag=imp`, JSON.stringify({ [low.name]: 'neu', [high.name]: 'geändert' }));
      let importPid = 0;
      await waitFor(async () => {
        [importPid = 0] = await blockedBy(holderPid);
        return importPid !== 0;
      }, 'the import to wait on the held value');
      const renamed = t.call(p.apiKey, 'PATCH', `/v1/keys/tags/old`, { name: 'new' });
      await waitFor(async () => (await blockedBy(importPid)).length > 0, 'the rename to wait on the import');
      await holder`commit`;
      const [i, r] = await Promise.all([imported, renamed]);
      const statuses = [i.status, r.status];
      const texts = [await i.text(), await r.text()];
      expect(statuses, texts.join('\n') + JSON.stringify(log.lines.filter((l) => l.level === 'error'))).toEqual([200, 200]);
    } finally {
      holder.release();
    }
    const rows = await sql<{ key: string; tags: string[] }[]>`select key, tags from translation_keys where project_id = ${p.projectId} order by key`;
    expect(rows.map((r) => r.tags)).toEqual([['imp', 'new'], ['imp', 'new']]);
  });
});

describe.runIf(usingRealPostgres())('a tag renamed, deleted and changed by other writes at once', () => {
  it('renames, bulk tags and PATCHes at once: no 5xx, no duplicate, <= 20 tags', async () => {
    for (let round = 0; round < 5; round++) {
      const p = await t.newProject('team');
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, tags: ['a', ...Array.from({ length: 18 }, (_, j) => `t${j}`)] })).json()).id);
      const reqs = [
        t.call(p.apiKey, 'PATCH', '/v1/keys/tags/a', { name: 'b' }),
        t.call(p.apiKey, 'PATCH', '/v1/keys/tags/a', { name: 'c' }),
        t.call(p.apiKey, 'DELETE', '/v1/keys/tags/t3'),
        t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: ids.slice(3), add: ['b', 'z'] }),
        t.call(p.apiKey, 'PATCH', `/v1/keys/${ids[5]}`, { tags: ['a', 'q'] }),
        t.call(p.apiKey, 'PATCH', '/v1/keys/tags/t4', { name: 'b' }),
      ];
      const res = await Promise.all(reqs);
      const statuses = await Promise.all(res.map(async (r) => `${r.status} ${r.status >= 500 ? await r.text() : ''}`));
      expect(statuses.filter((s) => s.startsWith('5'))).toEqual([]);
      const rows = await t.runtime.deps.sql<{ tags: string[] }[]>`select tags from translation_keys where project_id = ${p.projectId}`;
      for (const r of rows) {
        expect(new Set(r.tags).size).toBe(r.tags.length);
        expect(r.tags.length).toBeLessThanOrEqual(20);
      }
    }
  });
});
