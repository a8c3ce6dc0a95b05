// Review of the screenshots feature in the portal: CSRF on every form, other accounts' users and
// translators refused, the 4 MiB limit, HEAD on the image route, names escaped.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { postMultipart, type FilePart } from './support/multipart.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';

const t = useTestApp();
const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)));
const sql = () => t.runtime.deps.sql;

let p: TestProject;
let owner: PortalClient;
let translator: PortalClient;
let stranger: PortalClient;
const keys: Record<string, string> = {};
const tab = () => `/portal/projects/${p.projectId}/screenshots`;

async function state() {
  const rows = await sql()`select id, name from screenshots where project_id = ${p.projectId} order by seq`;
  const links = await sql()`select screenshot_id, key_id, region_x, region_y, region_width, region_height from screenshot_keys where project_id = ${p.projectId} order by 1, 2`;
  const objects = (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length;
  return JSON.stringify({ rows, links, objects });
}
const stored = (name: string, keyIds: string[] = []) => uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, body: PNG, name, keyIds });

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const key of ['a', 'b']) keys[key] = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key })).json()) as { id: string }).id;
  owner = await signedInMember(t, p.accountId, 'developer');
  translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
  stranger = await signedInMember(t, (await t.newProject('team')).accountId, 'owner');
});

describe('portal screenshot forms', () => {
  it('refuse every POST without the CSRF token, writing nothing', async () => {
    const shot = await stored('Csrf', [keys.a!]);
    const before = await state();
    const base = `${tab()}/${shot.id}`;
    const posts: [string, Record<string, string>][] = [
      [base, { name: 'x', name_was: 'Csrf', _csrf: 'wrong' }],
      [`${base}/keys`, { keys: 'b', _csrf: 'wrong' }],
      [`${base}/keys/${keys.a}`, { do: 'unlink', _csrf: 'wrong' }],
      [`${base}/delete`, { _csrf: 'wrong' }],
    ];
    for (const [path, fields] of posts) expect((await owner.post(path, fields)).status, path).toBe(403);
    const file: FilePart = { name: 'x.png', type: 'image/png', bytes: PNG };
    expect((await postMultipart(t.app, owner, tab(), { _csrf: 'wrong', name: 'n' }, { file })).status).toBe(403);
    expect(await state()).toBe(before);
  });

  it("refuse another account's user (404) and a translator (403) on every write", async () => {
    const shot = await stored('Guarded', [keys.a!]);
    const before = await state();
    const base = `${tab()}/${shot.id}`;
    for (const [client, status] of [
      [stranger, 404],
      [translator, 403],
    ] as const) {
      expect((await client.post(base, { name: 'x', name_was: 'Guarded' })).status).toBe(status);
      expect((await client.post(`${base}/keys`, { keys: 'b' })).status).toBe(status);
      expect((await client.post(`${base}/keys/${keys.a}`, { do: 'region', x: '0', y: '0', width: '1', height: '1' })).status).toBe(status);
      expect((await client.post(`${base}/delete`)).status).toBe(status);
      expect((await postMultipart(t.app, client, tab(), { name: 'n' }, { file: { name: 'x.png', type: 'image/png', bytes: PNG } })).status).toBe(status);
    }
    expect((await stranger.get(base)).status).toBe(404);
    expect((await stranger.get(`${tab()}?key=${keys.a}`)).status).toBe(404);
    expect(await state()).toBe(before);
  });

  it('takes a file of exactly 4 MiB', async () => {
    const big = new Uint8Array(4 * 1024 * 1024);
    const head = PNG.subarray(0, 33);
    big.set(head);
    // A padding chunk up to the IEND chunk at the end.
    const pad = big.length - 33 - 12 - 12;
    new DataView(big.buffer).setUint32(33, pad);
    big.set([0x74, 0x45, 0x58, 0x74], 37);
    big.set([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], big.length - 12);
    const res = await postMultipart(t.app, owner, tab(), { name: 'Big', keys: '' }, { file: { name: 'big.png', type: 'image/png', bytes: big } });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
  });

  it('refuses a region number far past the limit at its field (422), not a 500', async () => {
    const shot = await stored('Far', [keys.a!]);
    const before = await state();
    const res = await owner.post(`${tab()}/${shot.id}/keys/${keys.a}`, { do: 'region', x: '999999', y: '0', width: '1', height: '1' });
    expect(res.status).toBe(422);
    expect(await state()).toBe(before);
  });

  it('answers HEAD on the image route', async () => {
    const shot = await stored('Head');
    const res = await t.app.request(`http://localhost${tab()}/${shot.id}/image`, { method: 'HEAD', headers: { Cookie: `tms_session=${translator.cookies.get('tms_session')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('escapes a file name used as the name, on the tab, its page, the key page and Activity', async () => {
    const evil = '<img src=x onerror=alert(1)>"\'';
    const res = await postMultipart(t.app, owner, tab(), { name: '', keys: 'a' }, { file: { name: `${evil}.png`, type: 'image/png', bytes: PNG } });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const pages = [await owner.follow(res), await owner.get(tab()), await translator.get(`/portal/projects/${p.projectId}/keys/${keys.a}/values/de/history`), await owner.get(`/portal/projects/${p.projectId}/activity`)];
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<img src=x');
    }
  });
});
