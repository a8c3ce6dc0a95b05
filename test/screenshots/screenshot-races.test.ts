// Screenshot writes racing other writers, made exact on real Postgres (test/support/commit-in-another-backend.ts):
// a separate backend commits what a concurrent request would, just before the service sends a statement.
// And, on either database, writes of one screenshot sent together.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { databaseUrl, onQuery } from '../support/commit-in-another-backend.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;
const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)));

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(): Promise<TestProject & { keys: string[] }> {
  const p = await t.newProject('team');
  await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  const keys: string[] = [];
  for (const key of ['title', 'subtitle', 'button', 'link']) keys.push((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'home' }))).id);
  return { ...p, keys };
}
const upload = (p: TestProject, query = '') => t.call(p.apiKey, 'POST', `/v1/screenshots${query}`, PNG);
const images = async (p: TestProject) => (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length;
const rows = async (p: TestProject) => (await sql()<{ n: number }[]>`select count(*)::int as n from screenshots where project_id = ${p.projectId}`)[0]!.n;
/** Screenshot rows straight into the table (their images are not needed to count). */
const fill = (p: TestProject, n: number) => sql()`
  insert into screenshots (id, project_id, name, content_type, width, height, bytes, sha256)
  select gen_random_uuid(), ${p.projectId}, 'filler ' || i, 'image/png', 10, 10, 100, 'x' from generate_series(1, ${n}) as i`;

async function racing(pattern: RegExp, statement: string, request: () => Promise<Response>): Promise<Response> {
  const stop = onQuery(sql(), pattern, await databaseUrl(sql()), statement);
  try {
    return await request();
  } finally {
    stop();
  }
}

describe('writes of one screenshot sent together', () => {
  it('links of different keys all land, each PATCH applied to what the other left', async () => {
    const p = await project();
    const shot = await json(await upload(p));
    const answers = await Promise.all(p.keys.map((id, i) => t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { keys: { [id]: { region: { x: i * 10, y: 0, width: 10, height: 10 } } } })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const after = await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`));
    expect(after.keys.map((k: { key_id: string }) => k.key_id).sort()).toEqual([...p.keys].sort());
    const [events] = await sql()<{ n: number }[]>`select count(*)::int as n from domain_events where entity_id = ${shot.id} and type = 'screenshot.updated'`;
    expect(events!.n).toBe(4);
  });

  it('uploads at the project limit: only as many as fit are kept, and the refused ones leave no image', async () => {
    const p = await project();
    await fill(p, 998);
    const answers = await Promise.all([1, 2, 3, 4].map(() => upload(p)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 422, 422]);
    expect(await rows(p)).toBe(1000);
    expect(await images(p)).toBe(2);
    const refused = await answers.find((r) => r.status === 422)!.json();
    expect(refused.detail[0].msg).toMatch(/already has 1,000 screenshots/);
  });
});

describe.runIf(usingRealPostgres())('screenshot writes racing', () => {
  it('an upload holds the project row from its count to its insert: another upload at the limit waits and cannot pass the count too', async () => {
    const p = await project();
    await fill(p, 999);
    // What another upload does, sent just before this one's insert: the project row, then its row.
    // It waits for the row this upload holds (and gives up after its 2 s lock_timeout); without the
    // lock both would have counted 999 and written a 1,001st.
    const other =
      `begin; select 1 from projects where id = '${p.projectId}' for no key update; ` +
      `insert into screenshots (id, project_id, name, content_type, width, height, bytes, sha256) values (gen_random_uuid(), '${p.projectId}', 'other', 'image/png', 1, 1, 1, 'x'); commit;`;
    const res = await racing(/insert into screenshots/, other, () => upload(p));
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await rows(p)).toBe(1000);
  });

  it('a key moved to the trash while it is linked: the link is kept, hidden until the key is restored', async () => {
    const p = await project();
    const shot = await json(await upload(p));
    const trash = `update translation_keys set deleted_at = now() where id = '${p.keys[0]}'`;
    const res = await racing(/insert into screenshot_keys/, trash, () => t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { keys: { [p.keys[0]!]: {} } }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys).toEqual([]);
    await sql()`update translation_keys set deleted_at = null where id = ${p.keys[0]!}`;
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys.map((k: { key_id: string }) => k.key_id)).toEqual([p.keys[0]]);
  });

  it('a screenshot deleted just before a PATCH reaches it: 404, nothing written', async () => {
    const p = await project();
    const shot = await json(await upload(p));
    const res = await racing(/from screenshots where id = .* for no key update/s, `delete from screenshots where id = '${shot.id}'`, () =>
      t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { name: 'Renamed', keys: { [p.keys[0]!]: {} } }));
    expect(res.status).toBe(404);
    expect(await sql()`select 1 from screenshot_keys where screenshot_id = ${shot.id}`).toHaveLength(0);
  });
});
