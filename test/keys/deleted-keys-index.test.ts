// Soft-deleted keys are kept for the Trash, and until migration 025 no index covered them (both
// indexes of translation_keys that lead with project_id are partial, `where deleted_at is null`).
// Every read of a project's deleted keys (the portal's Trash page, restoreGroup's "last delete")
// read every key of every project of the installation: its cost grew with the whole table, year
// after year, not with the project's trash. The queries here are the ones those files run.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
let small: TestProject;
const OTHER_KEYS = 20_000;

/** Rows the plan read and threw away (Rows Removed by Filter), summed over its nodes. */
async function rowsDiscarded(query: string, params: unknown[]): Promise<number> {
  const rows = await t.runtime.deps.sql.unsafe(`explain (analyze, costs off) ${query}`, params as never[]);
  const plan = rows.map((r) => Object.values(r)[0] as string).join('\n');
  return [...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

beforeAll(async () => {
  // Another project of the installation, with a realistic number of keys (all live).
  const big = await t.newProject('team');
  await t.runtime.deps.sql`
    insert into translation_keys (project_id, key, group_name)
    select ${big.projectId}, 'k.' || i, 'g' || (i % 50) from generate_series(1, ${OTHER_KEYS}) i`;
  // A small project with one deleted key in its trash.
  small = await t.newProject('team');
  for (const key of ['menu.a', 'menu.b', 'menu.c']) {
    expect((await t.call(small.apiKey, 'POST', '/v1/keys', { key, group_name: 'menu' })).status).toBe(201);
  }
  expect((await t.call(small.apiKey, 'DELETE', '/v1/groups/menu')).status).toBe(204);
  await t.runtime.deps.sql`analyze translation_keys`;
}, 120_000);

describe("reading one project's deleted keys", () => {
  it("the Trash page's list (core/portal/trash.ts) reads only that project's keys", async () => {
    const discarded = await rowsDiscarded(
      `select id, key, group_name from translation_keys
       where project_id = $1 and deleted_at is not null
       order by deleted_at desc, key limit 201`,
      [small.projectId],
    );
    expect(discarded).toBeLessThan(100);
  });

  it("restoreGroup's last delete (core/groups/restore-group.ts) reads only that project's keys", async () => {
    const discarded = await rowsDiscarded(
      `select max(deleted_at)::text as last from translation_keys where project_id = $1 and group_name = $2 and deleted_at is not null`,
      [small.projectId, 'menu'],
    );
    expect(discarded).toBeLessThan(100);
  });
});
