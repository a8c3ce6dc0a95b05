// A change of a project's source language (PATCH /admin/v1/projects/{id}, core/accounts/update-project.ts)
// rebuilds the project's translation memory (memory_sources, migration 014) from the values of the
// new language, while value writes keep it up to date through a trigger that reads the source
// language as committed. Each case here makes a value write and the change overlap, a second
// backend holding a row one of them must reach (the rebuild's, or the value's at its commit):
// - under the project row's FOR UPDATE, the first source-language value of a key (its memory row's
//   foreign-key check takes FOR KEY SHARE of the project row) waited for the change while holding
//   its memory row, and the rebuild reaching that key closed a cycle: a deadlock, a 500;
// - a value changed meanwhile had its trigger read the old source language, and wrote its memory row
//   over the rebuilt one: the memory kept a text of the old language;
// - a first value of the new language, written but not committed when the rebuild read the values
//   (and by its trigger, of no source language yet), was missed.
// Now the change excludes the values of both languages instead (their rows and their language rows,
// locked before the rebuild), so such a write either ends before it or runs after it, seeing the new
// source language. Real Postgres only: on PGlite one open transaction blocks everything.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Backends of this database waiting, directly or not, on another. */
async function waiting(): Promise<number> {
  const [row] = await t.runtime.deps.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity where datname = current_database() and pg_blocking_pids(pid) <> '{}'`;
  return row!.n;
}

/**
 * Holds `lock` in a second backend, starts `first` and waits until it queues on the hold, starts
 * `second` and waits until it queues too (or answers), then ends the hold. Returns both answers
 * (first, second); a 5xx (a deadlock) rejects.
 */
async function race(lock: (sql: any) => Promise<unknown>, first: () => Promise<Response>, second: () => Promise<Response>): Promise<[Response, Response]> {
  const holder = await t.runtime.deps.sql.reserve();
  try {
    await holder`begin`;
    await lock(holder);
    const one = first();
    await waitFor(async () => (await waiting()) >= 1, 'the first write to queue');
    const two = second();
    let answered = false;
    void two.finally(() => (answered = true));
    await waitFor(async () => answered || (await waiting()) >= 2, 'the second write to queue or answer');
    await holder`commit`;
    const ok = async (res: Response) => (res.status >= 500 ? Promise.reject(new Error(`${res.status} ${await res.text()}`)) : res);
    return await Promise.all([one.then(ok), two.then(ok)]);
  } finally {
    holder.release();
  }
}

const changeSource = (p: Project, language: string) => () => t.admin('PATCH', `/projects/${p.projectId}`, { source_language: language });

const memory = (p: Project) => t.runtime.deps.sql<{ key_id: string; language: string; value: string }[]>`
  select key_id, language, value from memory_sources where project_id = ${p.projectId} order by value`;

describe.runIf(usingRealPostgres())('a source-language change racing value writes', () => {
  it('the first value of a key in the old source language: no deadlock, and it is no memory source', async () => {
    const p = await project(t, ['en', 'de']);
    const first = await p.key('home.first', 'home');
    const other = await p.key('home.other', 'home');
    await p.put(first, 'de', 'Erster');
    await p.put(other, 'en', 'Other');
    await p.put(other, 'de', 'Anderer');
    const [change, put] = await race(
      // The rebuild first deletes the project's memory rows: it waits at `other`'s.
      (sql) => sql`select 1 from memory_sources where key_id = ${other} for share`,
      changeSource(p, 'de'),
      () => t.call(p.apiKey, 'PUT', `/v1/keys/${first}/translations/en`, { value: 'First' }, { 'If-None-Match': '*' }),
    );
    expect([change.status, put.status]).toEqual([200, 200]);
    expect((await body(change)).source_language).toBe('de');
    expect(await memory(p)).toEqual([
      { key_id: other, language: 'de', value: 'Anderer' },
      { key_id: first, language: 'de', value: 'Erster' },
    ]);
  });

  it('a value of the old source language changed meanwhile does not overwrite the rebuilt memory', async () => {
    const p = await project(t, ['en', 'de']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'en', 'Title');
    await p.put(k, 'de', 'Titel');
    const [change, put] = await race(
      // The rebuild first deletes the project's memory rows: it waits at this key's. (It waited for
      // the key, by its rebuilt row's foreign-key check, until migration 045 dropped that key.) A
      // write that did not wait for the change would queue on this row behind the rebuild and write
      // its memory row, by the old language, over the rebuilt one.
      (sql) => sql`select 1 from memory_sources where key_id = ${k} for share`,
      changeSource(p, 'de'),
      () => t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/en`, { value: 'Title, changed' }, { 'If-Match': '*' }),
    );
    expect([change.status, put.status]).toEqual([200, 200]);
    expect(await memory(p)).toEqual([{ key_id: k, language: 'de', value: 'Titel' }]);
    expect((await body(await p.get(`/v1/translations/en/home/home.title?status=all`))).value).toBe('Title, changed');
  });

  it('a first value of the new source language written meanwhile becomes a memory source', async () => {
    const p = await project(t, ['en', 'de']);
    const k = await p.key('home.title', 'home');
    const other = await p.key('home.other', 'home');
    await p.put(other, 'en', 'Other');
    await p.put(other, 'de', 'Anderer');
    // The value is held at its commit, after its trigger ran (still by the old source language):
    // its project's content-version rows (migration 007), all there and locked, hold its bump.
    const sql = t.runtime.deps.sql;
    await sql`insert into project_content_versions (project_id, slot, version)
              select ${p.projectId}, s, 0 from generate_series(0, 15) s on conflict do nothing`;
    const [put, change] = await race(
      (holder) => holder`select 1 from project_content_versions where project_id = ${p.projectId} for update`,
      () => t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: 'Titel' }, { 'If-None-Match': '*' }),
      changeSource(p, 'de'),
    );
    expect([change.status, put.status]).toEqual([200, 200]);
    expect(await memory(p)).toEqual([
      { key_id: other, language: 'de', value: 'Anderer' },
      { key_id: k, language: 'de', value: 'Titel' },
    ]);
  });
});
