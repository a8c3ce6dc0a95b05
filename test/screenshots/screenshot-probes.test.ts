// Review of the screenshots feature: probes of the API (image parsing, limits, regions, headers,
// idempotency). Each test pins one behaviour; a failing one is a finding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/screenshots/${name}`, import.meta.url)));
const PNG = fixture('sign-in.png');
const JPG = fixture('sign-in.jpg');

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(n = 3): Promise<TestProject & { keys: string[] }> {
  const p = await t.newProject('team');
  await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, group_name: 'g' }))).id);
  return { ...p, keys };
}
const upload = (p: TestProject, body: Uint8Array | string, query = '', headers: Record<string, string> = {}) =>
  t.app.request(`/v1/screenshots${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'image/png', ...headers }, body: body as string | Uint8Array<ArrayBuffer> });
const stored = async (p: TestProject) => (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length;

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const chunk = (type: string, data: number[] | Uint8Array) => [...be32(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
/** A PNG as far as the server reads one: signature, IHDR, optional padding chunk of `pad` bytes, IEND. */
function png(width: number, height: number, pad = 0): Uint8Array {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', [...be32(width), ...be32(height), 8, 6, 0, 0, 0])];
  const tail = chunk('IEND', []);
  if (pad === 0) return new Uint8Array([...head, ...tail]);
  const out = new Uint8Array(head.length + 12 + pad + tail.length);
  out.set(head);
  out.set([...be32(pad), 0x74, 0x45, 0x58, 0x74], head.length);
  out.set(tail, head.length + 12 + pad);
  return out;
}

describe('image parsing', () => {
  it('takes a PNG of exactly 4 MiB (the limit is "at most")', async () => {
    const p = await project(0);
    const body = png(100, 50, 4 * 1024 * 1024 - 45 - 12);
    expect(body.length).toBe(4 * 1024 * 1024);
    const res = await upload(p, body);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await res.json()).bytes).toBe(4 * 1024 * 1024);
  });

  it.each([
    ['2^31 wide', png(2 ** 31, 10)],
    ['2^32-1 tall', png(10, 2 ** 32 - 1)],
    ['0 wide', png(0, 10)],
    ['16385 wide', png(16385, 10)],
  ])('refuses a PNG %s with a 422, storing nothing', async (_l, body) => {
    const p = await project(0);
    const res = await upload(p, body);
    expect(res.status).toBe(422);
    expect(await stored(p)).toBe(0);
  });

  it('reads a progressive JPEG (SOF2) after padded markers and an APP segment', async () => {
    const p = await project(0);
    // SOI, fill bytes, APP0 (len 4), SOF2 (height 300, width 500), SOS, data, EOI.
    const body = new Uint8Array([0xff, 0xd8, 0xff, 0xff, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 11, 8, 0x01, 0x2c, 0x01, 0xf4, 1, 1, 0x11, 0, 0xff, 0xda, 0, 2, 1, 2, 3, 0xff, 0xd9]);
    const res = await upload(p, body);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ content_type: 'image/jpeg', width: 500, height: 300 });
  });

  it('refuses a WebP VP8X of 2^24 x 2^24 pixels with a 422', async () => {
    const p = await project(0);
    const b = new Uint8Array(40);
    b.set([...'RIFF'].map((c) => c.charCodeAt(0)), 0);
    new DataView(b.buffer).setUint32(4, 32, true);
    b.set([...'WEBPVP8X'].map((c) => c.charCodeAt(0)), 8);
    new DataView(b.buffer).setUint32(16, 10, true);
    b.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 24);
    const res = await upload(p, b);
    expect(res.status).toBe(422);
  });

  it('takes a PNG sent as Content-Type application/json (the format is read from the bytes)', async () => {
    const p = await project(0);
    const res = await upload(p, PNG, '', { 'Content-Type': 'application/json' });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it('refuses a body over 4 MiB sent without Content-Length (chunked) with a 413, storing nothing', async () => {
    const p = await project(0);
    const big = png(10, 10, 4 * 1024 * 1024);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 65536) controller.enqueue(big.subarray(i, i + 65536));
        controller.close();
      },
    });
    const res = await t.app.request('/v1/screenshots', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'image/png' }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await stored(p)).toBe(0);
  });
});

describe('the image route', () => {
  it('answers HEAD with the headers of GET and no body', async () => {
    const p = await project(0);
    const shot = await json(await upload(p, PNG));
    const res = await t.app.request(`/v1/screenshots/${shot.id}/image`, { method: 'HEAD', headers: { 'X-API-Key': p.apiKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('evaluates If-None-Match: *, weak, lists; an unrelated tag gets the bytes; CSP on the bytes', async () => {
    const p = await project(0);
    const shot = await json(await upload(p, PNG));
    const get = (inm?: string) => t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}/image`, undefined, inm ? { 'If-None-Match': inm } : {});
    const first = await get();
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect((await get('*')).status).toBe(304);
    expect((await get(`W/${etag}`)).status).toBe(304);
    expect((await get(`"a", "b",${etag}`)).status).toBe(304);
    expect((await get('"nope"')).status).toBe(200);
    expect((await get(etag.slice(1, -1))).status).toBe(200);
  });
});

describe('upload query', () => {

  it('refuses name given twice, a 201-character name; takes 200 astral characters and NFD as NFC', async () => {
    const p = await project(0);
    expect((await upload(p, PNG, '?name=a&name=b')).status).toBe(422);
    expect((await upload(p, PNG, `?name=${'x'.repeat(201)}`)).status).toBe(422);
    expect((await upload(p, PNG, `?name=${encodeURIComponent('a\u0007b')}`)).status).toBe(422);
    const astral = await upload(p, PNG, `?name=${encodeURIComponent('👋'.repeat(200))}`);
    expect(astral.status).toBe(201);
    const nfd = await json(await upload(p, PNG, `?name=${encodeURIComponent('cafe\u0301')}`));
    expect(nfd.name).toBe('caf\u00e9');
    expect(await stored(p)).toBe(2);
  });
});

describe('idempotency', () => {

  it('the same key with another query is a reuse (422), not a replay of another screenshot', async () => {
    const p = await project(0);
    expect((await upload(p, PNG, '?name=Home', { 'Idempotency-Key': 'u-2' })).status).toBe(201);
    expect((await upload(p, PNG, '?name=Other', { 'Idempotency-Key': 'u-2' })).status).toBe(422);
    expect(await stored(p)).toBe(1);
  });

  it('a refused upload with a key stores nothing, and the same key then works once fixed', async () => {
    const p = await project(1);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await upload(p, PNG, `?key_id=${unknown}`, { 'Idempotency-Key': 'u-3' })).status).toBe(422);
    expect(await stored(p)).toBe(0);
    expect((await upload(p, PNG, `?key_id=${p.keys[0]}`, { 'Idempotency-Key': 'u-3' })).status).toBe(201);
    expect(await stored(p)).toBe(1);
  });

});

describe('regions and links', () => {
  it('takes a region to the edge, refuses past it, non-integers, strings, extra fields, {}', async () => {
    const p = await project(1);
    const shot = await json(await upload(p, PNG, `?key_id=${p.keys[0]}`));
    const patch = (region: unknown) => t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { keys: { [p.keys[0]!]: { region } } });
    expect((await patch({ x: 0, y: 0, width: 390, height: 260 })).status).toBe(200);
    expect((await patch({ x: 1, y: 0, width: 390, height: 260 })).status).toBe(422);
    expect((await patch({ x: 0.5, y: 0, width: 10, height: 10 })).status).toBe(422);
    expect((await patch({ x: '1', y: 0, width: 10, height: 10 })).status).toBe(422);
    expect((await patch({ x: 1, y: 0, width: 10, height: 10, z: 1 })).status).toBe(422);
    expect((await patch({})).status).toBe(422);
    expect((await patch({ x: 2 ** 31, y: 0, width: 2 ** 31, height: 10 })).status).toBe(422);
    expect((await patch({ x: -1, y: 0, width: 10, height: 10 })).status).toBe(422);
  });


  it('a key moved to another group is shown so; in the trash hidden from get and list, back when restored', async () => {
    const p = await project(1);
    const shot = await json(await upload(p, PNG, `?key_id=${p.keys[0]}`));
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${p.keys[0]}`, { group_name: 'other' })).status).toBe(200);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys[0]).toMatchObject({ key: 'k0', group_name: 'other' });
    await sql()`update translation_keys set deleted_at = now() where id = ${p.keys[0]!}`;
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys).toEqual([]);
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/screenshots'))).screenshots[0].keys).toEqual([]);
    await sql()`update translation_keys set deleted_at = null where id = ${p.keys[0]!}`;
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys).toHaveLength(1);
  });

  it('a PATCH naming links as they are records nothing; unlinking a key not linked records nothing', async () => {
    const p = await project(2);
    const shot = await json(await upload(p, PNG, `?name=S&key_id=${p.keys[0]}`));
    const count = async () => (await sql()<{ n: number }[]>`select count(*)::int as n from domain_events where entity_id = ${shot.id}`)[0]!.n;
    const before = await count();
    expect((await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { name: ' S ', keys: { [p.keys[0]!.toUpperCase()]: { region: null }, [p.keys[1]!]: null } })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { keys: {} })).status).toBe(200);
    expect(await count()).toBe(before);
  });
});

describe('keys that may not', () => {
  it('a delivery key (shipped in apps) is refused every screenshot route (403), nothing stored', async () => {
    const p = await project(0);
    const shot = await json(await upload(p, PNG));
    const delivery = (await json(await t.admin('POST', `/projects/${p.projectId}/api-keys`, { name: 'Web', kind: 'delivery' }))).key as string;
    const d = { ...p, apiKey: delivery };
    expect((await upload(d, PNG)).status).toBe(403);
    expect((await t.call(delivery, 'GET', '/v1/screenshots')).status).toBe(403);
    expect((await t.call(delivery, 'GET', `/v1/screenshots/${shot.id}`)).status).toBe(403);
    expect((await t.call(delivery, 'GET', `/v1/screenshots/${shot.id}/image`)).status).toBe(403);
    expect((await t.call(delivery, 'PATCH', `/v1/screenshots/${shot.id}`, { name: 'x' })).status).toBe(403);
    expect((await t.call(delivery, 'DELETE', `/v1/screenshots/${shot.id}`)).status).toBe(403);
    expect(await stored(p)).toBe(1);
  });
});
