// Task progress is counted again only when what it is counted from has changed since the process
// last counted it (core/tasks/progress-memo.ts): a read after any such change, answered 2xx, shows
// it, through the API and in lists, exactly as a count made from scratch would; an unchanged task
// is not counted again; a count made in a transaction that rolls back is never kept.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { json, taskProject, type TaskTestProject } from './support/task-project.ts';
import { readTask } from '../../core/tasks/task-rows.ts';
import { createTaskProgressMemo } from '../../core/tasks/progress-memo.ts';
import { listTaskKeys } from '../../core/tasks/list-task-keys.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

type Project = TaskTestProject;
const project = (): Promise<Project> => taskProject(t, { names: ['a', 'b', 'c', 'd'], languages: ['en', 'de'] });
const put = async (p: Project, key: string, language: string, value: string, status: string) =>
  json(await t.call(p.apiKey, 'PUT', `/v1/keys/${p.keys[key]}/translations/${language}`, { value, status }));

const freshMemo = () => createTaskProgressMemo({ maxProjects: 4, maxTasksPerProject: 4, maxPages: 4 });

/**
 * The task as the API shows it, alone and in the list, and its keys (all, and those still to do),
 * against the same read by a process that never read it before.
 */
async function progress(p: Project, number: number): Promise<{ keys_total: number; keys_done: number }> {
  for (const done of [undefined, false]) {
    const listed = await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${number}/keys${done === undefined ? '' : `?done=${done}`}`));
    expect(listed).toEqual(await listTaskKeys({ sql: sql(), taskProgress: freshMemo() }, { projectId: p.projectId, number, ...(done === undefined ? {} : { done }) }));
  }
  const one = await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${number}`));
  const listed = (await json(await t.call(p.apiKey, 'GET', '/v1/tasks'))).data.find((x: { number: number }) => x.number === number);
  const fresh = (await readTask(sql(), p.projectId, number))!;
  const counts = { keys_total: fresh.keys_total, keys_done: fresh.keys_done };
  expect({ keys_total: one.keys_total, keys_done: one.keys_done }).toEqual(counts);
  expect({ keys_total: listed.keys_total, keys_done: listed.keys_done }).toEqual(counts);
  return counts;
}

describe('task progress memo', () => {
  it('counts again after every kind of change it is counted from, and only then', async () => {
    const p = await project();
    await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'German', kind: 'translate', language: 'de', filter: {}, include_done: true }));
    await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Review', kind: 'review', language: 'de', key_ids: [p.keys.a, p.keys.b] }));
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 0 });

    // Unchanged: the process's count stands, and the statement does not count again.
    const memo = freshMemo();
    expect((await readTask(sql(), p.projectId, 1, memo))!.progress_counted).toBe(true);
    expect((await readTask(sql(), p.projectId, 1, memo))!).toMatchObject({ progress_counted: false, keys_total: 4, keys_done: 0 });
    expect(memo.size()).toEqual({ projects: 1, tasks: 1, pages: 0 });
    const page = await listTaskKeys({ sql: sql(), taskProgress: memo }, { projectId: p.projectId, number: 1, done: false });
    expect(await listTaskKeys({ sql: sql(), taskProgress: memo }, { projectId: p.projectId, number: 1, done: false })).toBe(page);
    expect(await listTaskKeys({ sql: sql(), taskProgress: memo }, { projectId: p.projectId, number: 1, done: false, limit: 2 })).not.toBe(page);

    // A value written: translate counts review, review counts approved.
    await put(p, 'a', 'de', 'A', 'review');
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 1 });
    expect(await progress(p, 2)).toEqual({ keys_total: 2, keys_done: 0 });
    const counted = (await readTask(sql(), p.projectId, 1, memo))!;
    expect(counted).toMatchObject({ progress_counted: true, keys_done: 1 });
    await put(p, 'a', 'de', 'A', 'approved');
    expect(await progress(p, 2)).toEqual({ keys_total: 2, keys_done: 1 });
    await put(p, 'b', 'de', 'B', 'approved');
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 2 });
    // The source text changes: b's German is outdated.
    await put(p, 'b', 'en', 'Source b, longer', 'approved');
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 1 });
    // A value deleted.
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys.a}/translations/de`)).status).toBeLessThan(300);
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 0 });
    await put(p, 'c', 'de', 'C', 'review');
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 1 });
    // A key to the trash and back.
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys.c}`)).status).toBeLessThan(300);
    expect(await progress(p, 1)).toEqual({ keys_total: 3, keys_done: 0 });
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${p.keys.c}/restore`)).status).toBeLessThan(300);
    expect(await progress(p, 1)).toEqual({ keys_total: 4, keys_done: 1 });
    // The task's keys change.
    await json(await t.call(p.apiKey, 'PATCH', '/v1/tasks/1', { remove_keys: [p.keys.c] }));
    expect(await progress(p, 1)).toEqual({ keys_total: 3, keys_done: 0 });
    // The project's source language changes: German is the source now, nothing of it is outdated,
    // and a German task's values are compared with no source.
    await put(p, 'b', 'de', 'B', 'review');
    expect(await progress(p, 1)).toEqual({ keys_total: 3, keys_done: 0 });
    expect((await t.admin('PATCH', `/projects/${p.projectId}`, { source_language: 'de' })).status).toBe(200);
    expect(await progress(p, 1)).toEqual({ keys_total: 3, keys_done: 1 });
  });

  it('keeps no count of a change that rolled back', async () => {
    const p = await project();
    await put(p, 'a', 'de', 'A', 'review');
    await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'German', kind: 'translate', language: 'de', key_ids: [p.keys.a], include_done: true }));
    expect(await progress(p, 1)).toEqual({ keys_total: 1, keys_done: 1 });
    // Adding a key that is not done and closing as done in one PATCH: the count inside the
    // transaction sees two keys, one left, and the whole change is refused.
    const refused = await t.call(p.apiKey, 'PATCH', '/v1/tasks/1', { add_keys: [p.keys.b], state: 'done' });
    expect(refused.status).toBe(409);
    expect(await progress(p, 1)).toEqual({ keys_total: 1, keys_done: 1 });
  });

  it('shows every write answered before the read began, with writers running alongside', async () => {
    const p = await project();
    const extra: string[] = [];
    for (let i = 0; i < 24; i++) extra.push((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, group_name: 'many' }))).id);
    await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Many', kind: 'translate', language: 'de', filter: { group: 'many' }, include_done: true }));
    let answered = 0;
    // Writers approve the keys one after another; each, once answered, raises the floor every read
    // started later must reach. Readers read meanwhile, and no count may be below the floor at its
    // start or above the writes sent.
    const writer = (async () => {
      for (const id of extra) {
        expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'x', status: 'approved' })).status).toBe(200);
        answered++;
      }
    })();
    const readers = Array.from({ length: 3 }, async () => {
      while (answered < extra.length) {
        const floor = answered;
        const task = await json(await t.call(p.apiKey, 'GET', '/v1/tasks/1'));
        expect(task.keys_done).toBeGreaterThanOrEqual(floor);
        expect(task.keys_done).toBeLessThanOrEqual(extra.length);
      }
    });
    await Promise.all([writer, ...readers]);
    expect(await progress(p, 1)).toEqual({ keys_total: 24, keys_done: 24 });
  });
});

describe('task progress memo bounds', () => {
  it('holds at most its projects and tasks per project, dropping the least recently used', () => {
    const memo = createTaskProgressMemo({ maxProjects: 2, maxTasksPerProject: 2, maxPages: 2 });
    const entry = (n: number) => ({ stamp: `s${n}`, keys_total: n, keys_done: 0 });
    memo.set('p1', 1, entry(1));
    memo.set('p1', 2, entry(2));
    memo.set('p1', 3, entry(3));
    expect([...memo.known('p1').keys()]).toEqual([2, 3]);
    memo.set('p2', 1, entry(1));
    memo.known('p1'); // p1 used last: p2 goes first
    memo.set('p3', 1, entry(1));
    expect(memo.known('p2').size).toBe(0);
    expect(memo.size()).toEqual({ projects: 2, tasks: 3, pages: 0 });
    const page = (n: number) => ({ stamp: `s${n}`, page: { data: [], next_cursor: null } });
    memo.setPage('a', page(1));
    memo.setPage('b', page(2));
    memo.page('a'); // a used last: b goes first
    memo.setPage('c', page(3));
    expect([memo.page('a')?.stamp, memo.page('b'), memo.page('c')?.stamp]).toEqual(['s1', undefined, 's3']);
    // What a read was given does not change under it.
    const given = memo.known('p1');
    memo.set('p1', 2, entry(20));
    expect(given.get(2)!.keys_total).toBe(2);
    expect(memo.known('p1').get(2)!.keys_total).toBe(20);
  });
});
