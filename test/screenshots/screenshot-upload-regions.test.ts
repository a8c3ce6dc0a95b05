// An upload that links keys and marks where they are in one request (`region=<key_id>:x,y,w,h`), as
// CI uploads a test's screenshots with each element's box (docs/decisions.md, "Screenshots: regions
// on upload"). A refusal names the parameter and writes nothing: no row, no image, no event.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;
const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url))); // 390 x 260

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(): Promise<TestProject & { keys: Record<string, string> }> {
  const p = await t.newProject('team');
  const keys: Record<string, string> = {};
  for (const name of ['sign_in', 'forgot', 'welcome']) keys[name] = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'auth' })))!.id;
  return { ...p, keys };
}
const upload = (p: TestProject, query: string) =>
  t.app.request(`/v1/screenshots${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'image/png' }, body: PNG });
const written = async (p: TestProject) => ({
  rows: (await sql()<{ n: number }[]>`select count(*)::int as n from screenshots where project_id = ${p.projectId}`)[0]!.n,
  images: (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length,
  events: (await sql()<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type like 'screenshot.%'`)[0]!.n,
});

describe('regions on upload', () => {
  it('link the keys they name and mark where each is, beside keys linked without one', async () => {
    const p = await project();
    const { sign_in, forgot, welcome } = p.keys as { sign_in: string; forgot: string; welcome: string };
    // sign_in also named by key_id (allowed), forgot only by its region, welcome without a region.
    const res = await upload(p, `?key_id=${sign_in}&key_id=${welcome}&region=${sign_in}:24,80,200,40&region=${forgot.toUpperCase()}:0,220,390,40`);
    expect(res.status).toBe(201);
    const shot = await res.json();
    const byName = Object.fromEntries((shot.keys as { key: string; region: unknown }[]).map((k) => [k.key, k.region]));
    expect(byName).toEqual({
      sign_in: { x: 24, y: 80, width: 200, height: 40 },
      forgot: { x: 0, y: 220, width: 390, height: 40 },
      welcome: null,
    });
    // As stored: the key's screenshots say the same, and the event names all three keys.
    const listed = await json(await t.call(p.apiKey, 'GET', `/v1/screenshots?key_id=${forgot}`));
    expect(listed.screenshots.map((s: { id: string }) => s.id)).toEqual([shot.id]);
    const [event] = await sql()<{ after: { keys: string[] } }[]>`select after from domain_events where project_id = ${p.projectId} and type = 'screenshot.added'`;
    expect(new Set(event!.after.keys)).toEqual(new Set([sign_in, forgot, welcome]));
  });

  it('refused, name the region parameter and write nothing', async () => {
    const p = await project();
    const other = await project();
    const { sign_in, forgot } = p.keys as { sign_in: string; forgot: string };
    const refused = async (query: string, loc: unknown[], msg: RegExp) => {
      const res = await upload(p, query);
      expect(res.status, query).toBe(422);
      const body = await res.json();
      expect(body.detail[0].loc, query).toEqual(loc);
      expect(body.detail[0].msg, query).toMatch(msg);
    };
    // Past the image's edges (390 x 260): at the parameter's field.
    await refused(`?region=${sign_in}:300,0,100,10`, ['query', 'region', 0, 'width'], /right edge: x \+ width must be at most 390/);
    await refused(`?key_id=${forgot}&region=${forgot}:0,0,10,10&region=${sign_in}:0,250,10,11`, ['query', 'region', 1, 'height'], /bottom edge: y \+ height must be at most 260/);
    // Not a region: its shape, zero sides, too large numbers.
    await refused(`?region=${sign_in}`, ['query', 'region', 0], /<key_id>:<x>,<y>,<width>,<height>/);
    await refused(`?region=${sign_in}:1,2,3`, ['query', 'region', 0], /<key_id>:<x>,<y>,<width>,<height>/);
    await refused(`?region=${sign_in}:-1,2,3,4`, ['query', 'region', 0], /<key_id>:<x>,<y>,<width>,<height>/);
    await refused(`?region=${sign_in}:1.5,2,3,4`, ['query', 'region', 0], /<key_id>:<x>,<y>,<width>,<height>/);
    await refused(`?region=nope:1,2,3,4`, ['query', 'region', 0], /<key_id>:<x>,<y>,<width>,<height>/);
    await refused(`?region=${sign_in}:0,0,0,10`, ['query', 'region', 0, 'width'], /width must be at least 1/);
    await refused(`?region=${sign_in}:0,20000,10,10`, ['query', 'region', 0, 'y'], /y must be at most 16384/);
    // Seven digits too (found by review: a shape message, not the field's).
    await refused(`?region=${sign_in}:0,0,1000000,10`, ['query', 'region', 0, 'width'], /width must be at most 16384/);
    // One region per key; a key of another project, or one in the trash.
    await refused(`?region=${sign_in}:0,0,10,10&region=${sign_in}:5,5,10,10`, ['query', 'region', 1], /given twice/);
    await refused(`?region=${sign_in}:0,0,10,10&region=${other.keys.sign_in}:0,0,10,10`, ['query', 'region', 1], /not a key of this project/);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${forgot}`)).status).toBeLessThan(300);
    await refused(`?key_id=${sign_in}&region=${forgot}:0,0,10,10`, ['query', 'region', 0], /not a key of this project \(or it is in the trash\)/);
    expect(await written(p)).toEqual({ rows: 0, images: 0, events: 0 });
  });

  it('count toward the 100 keys a screenshot shows, with the key_id parameters', async () => {
    const p = await t.newProject('team');
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) ids.push((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, group_name: 'many' })))!.id);
    const keyIds = ids.slice(0, 60).map((id) => `key_id=${id}`);
    const regions = ids.slice(60).map((id, i) => `region=${id}:0,${i},10,1`);
    const res = await upload(p, `?${[...keyIds, ...regions].join('&')}`);
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].msg).toMatch(/at most 100 keys: this would make it 101/);
    expect(await written(p)).toEqual({ rows: 0, images: 0, events: 0 });
    const fits = await upload(p, `?${[...keyIds, ...regions.slice(1)].join('&')}`);
    expect(fits.status).toBe(201);
    expect((await fits.json()).keys.filter((k: { region: unknown }) => k.region !== null)).toHaveLength(40);
  });

  it('are described by a pattern that takes key ids in either case, as the server does (found by review)', async () => {
    const spec = JSON.parse(readFileSync(new URL('../../functions/lambda/openapi.json', import.meta.url), 'utf8'));
    const param = spec.paths['/v1/screenshots'].post.parameters.find((x: { name?: string }) => x.name === 'region');
    const p = await project();
    const value = `${p.keys.sign_in!.toUpperCase()}:1,2,3,4`;
    expect(new RegExp(param.schema.items.pattern).test(value)).toBe(true);
    expect(new RegExp(param.schema.items.pattern).test(value.toLowerCase())).toBe(true);
    expect((await upload(p, `?region=${value}`)).status).toBe(201);
  });
});
