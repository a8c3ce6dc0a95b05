// Found by review of the screenshots feature (2026-12-01): each of these failed on the code as
// first written (docs/decisions.md, "Screenshots").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)));

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(n: number): Promise<TestProject & { keys: string[] }> {
  const p = await t.newProject('team');
  await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, group_name: 'g' }))).id);
  return { ...p, keys };
}
const upload = (p: TestProject, body: Uint8Array, query = '', headers: Record<string, string> = {}) =>
  t.app.request(`/v1/screenshots${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'image/png', ...headers }, body: body as Uint8Array<ArrayBuffer> });
const stored = async (p: TestProject) => (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length;

describe('screenshots, from review', () => {
  it('a replayed upload (same Idempotency-Key) answers as the first did: no header the replay cannot give (Location was dropped by the replay)', async () => {
    const p = await project(0);
    const first = await upload(p, PNG, '?name=Home', { 'Idempotency-Key': 'u-1' });
    expect(first.status).toBe(201);
    const again = await upload(p, PNG, '?name=Home', { 'Idempotency-Key': 'u-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect([first.headers.get('location'), again.headers.get('location')]).toEqual([null, null]);
  });

  it('links to keys in the trash (hidden from every answer) do not make a screenshot of 99 shown keys refuse a 100th', async () => {
    const p = await project(101);
    const shot = await json(await upload(p, PNG, `?${p.keys.slice(0, 100).map((k) => `key_id=${k}`).join('&')}`));
    expect(shot.keys).toHaveLength(100);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys[0]}`)).status).toBe(204);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys).toHaveLength(99);
    // The client sees 99 keys; the refusal says "this would make it 101".
    const res = await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { keys: { [p.keys[100]!]: {} } });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a refused key_id is named at its index in the query as sent (a repeated id before it does not shift it)', async () => {
    const p = await project(1);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await upload(p, PNG, `?key_id=${p.keys[0]}&key_id=${p.keys[0]}&key_id=${unknown}`);
    expect(res.status).toBe(422);
    // The third key_id is the unknown one; index 1 names the known key.
    expect((await res.json()).detail[0].loc).toEqual(['query', 'key_id', 2]);
    expect(await stored(p)).toBe(0);
  });

  it('a JPEG whose Exif orientation turns it (a phone photo, 6 = 90° clockwise) is stored with the size browsers show', async () => {
    const p = await project(0);
    // APP1 Exif: big-endian TIFF, IFD0 with one entry, Orientation (0x0112) = 6.
    const exif = [0x45, 0x78, 0x69, 0x66, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
    const body = new Uint8Array([
      0xff, 0xd8,
      0xff, 0xe1, 0, exif.length + 2, ...exif,
      // SOF0: 8 bits, height 300, width 400, one component.
      0xff, 0xc0, 0, 11, 8, 0x01, 0x2c, 0x01, 0x90, 1, 1, 0x11, 0,
      0xff, 0xda, 0, 2, 1, 2, 3,
      0xff, 0xd9,
    ]);
    const res = await upload(p, body);
    expect(res.status, await res.clone().text()).toBe(201);
    // Browsers (image-orientation: from-image) show it 300 wide, 400 tall: the <img> size, the
    // outline's viewBox and the regions' bounds must be those.
    expect(await res.json()).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 400 });
  });
});
