// Screenshots through the API (docs/decisions.md, "Screenshots"): images uploaded as real tools save
// them (Chromium's PNG and JPEG, cwebp's lossy and lossless WebP, a canvas's extended WebP), read
// back byte for byte with their ETag and a 304, linked to keys with regions, listed by key, renamed,
// deleted with their image; bad input a 4xx that writes nothing; another project's never seen.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { screenshotObjectKey } from '../../core/screenshots/screenshot-rows.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/screenshots/${name}`, import.meta.url)));
const PNG = fixture('sign-in.png');

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(): Promise<TestProject & { keys: Record<string, string> }> {
  const p = await t.newProject('team');
  await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  const keys: Record<string, string> = {};
  for (const name of ['sign_in', 'forgot', 'welcome']) keys[`auth.${name}`] = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'auth' })))!.id;
  return { ...p, keys };
}
const upload = (p: TestProject, body: Uint8Array | string, query = '', headers: Record<string, string> = {}) =>
  t.app.request(`/v1/screenshots${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'image/png', ...headers }, body });
const image = (p: TestProject, id: string, headers: Record<string, string> = {}) => t.call(p.apiKey, 'GET', `/v1/screenshots/${id}/image`, undefined, headers);
const eventsOf = async (p: TestProject) =>
  sql()<{ type: string; entity_type: string; before: unknown; after: unknown }[]>`
    select type, entity_type, before, after from domain_events where project_id = ${p.projectId} and type like 'screenshot.%' order by id`;
const stored = async (p: TestProject) => (await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).length;

describe('screenshots', () => {
  it.each([
    ['sign-in.png', 'image/png', 390, 260],
    ['sign-in.jpg', 'image/jpeg', 390, 260],
    ['sign-in.webp', 'image/webp', 390, 260],
    ['sign-in-lossless.webp', 'image/webp', 390, 260],
    ['menu.webp', 'image/webp', 120, 80],
  ])('%s is stored as %s, %d x %d, and read back as sent', async (file, contentType, width, height) => {
    const p = await project();
    const bytes = fixture(file);
    // curl --data-binary sends application/x-www-form-urlencoded: the format is read from the bytes.
    const res = await upload(p, bytes, `?name=${encodeURIComponent(file)}&key_id=${p.keys['auth.sign_in']}`, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(201);
    const shot = await res.json();
    expect(shot).toEqual({
      id: expect.any(String),
      name: file,
      content_type: contentType,
      width,
      height,
      bytes: bytes.length,
      image_url: `/v1/screenshots/${shot.id}/image`,
      keys: [{ key_id: p.keys['auth.sign_in'], key: 'sign_in', group_name: 'auth', region: null }],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const read = await image(p, shot.id);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe(contentType);
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(bytes);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await image(p, shot.id, { 'If-None-Match': `W/"x", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).toEqual(shot);
  });

  it('are linked to keys, with regions, listed by key and in pages, renamed and unlinked', async () => {
    const p = await project();
    const a = await json(await upload(p, PNG, `?name=Sign%20in&key_id=${p.keys['auth.sign_in']}&key_id=${p.keys['auth.welcome']}`));
    const b = await json(await upload(p, fixture('sign-in.jpg')));
    expect(b.name).toMatch(/^Screenshot \d{4}-\d\d-\d\d \d\d:\d\d\.jpg$/);
    expect(a.keys.map((k: { key: string }) => k.key)).toEqual(['sign_in', 'welcome']);

    const patched = await json(
      await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${a.id}`, {
        name: 'Sign-in page',
        keys: { [p.keys['auth.sign_in']!]: { region: { x: 10, y: 100, width: 80, height: 30 } }, [p.keys['auth.forgot']!]: {}, [p.keys['auth.welcome']!]: null },
      }),
    );
    expect(patched.name).toBe('Sign-in page');
    expect(patched.keys).toEqual([
      { key_id: p.keys['auth.forgot'], key: 'forgot', group_name: 'auth', region: null },
      { key_id: p.keys['auth.sign_in'], key: 'sign_in', group_name: 'auth', region: { x: 10, y: 100, width: 80, height: 30 } },
    ]);
    // {} keeps a link's region; the same PATCH again changes and records nothing.
    const same = await json(await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${a.id}`, { name: 'Sign-in page', keys: { [p.keys['auth.sign_in']!]: {} } }));
    expect(same.keys).toEqual(patched.keys);
    expect(same.updated_at).toBe(patched.updated_at);

    const byKey = await json(await t.call(p.apiKey, 'GET', `/v1/screenshots?key_id=${p.keys['auth.forgot']}`));
    expect(byKey).toMatchObject({ project_id: p.projectId, count: 1 });
    expect(byKey.screenshots.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots?key_id=${p.keys['auth.welcome']}`))).count).toBe(0);

    const first = await json(await t.call(p.apiKey, 'GET', '/v1/screenshots?limit=1'));
    expect(first.count).toBe(2);
    expect(first.screenshots.map((s: { id: string }) => s.id)).toEqual([a.id]);
    const second = await json(await t.call(p.apiKey, 'GET', `/v1/screenshots?limit=1&cursor=${first.next_cursor}`));
    expect(second.screenshots.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect(second.next_cursor).toBeNull();

    // A key in the trash is hidden from its screenshots, and back when restored.
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys['auth.forgot']}`)).status).toBe(204);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${a.id}`))).keys.map((k: { key: string }) => k.key)).toEqual(['sign_in']);

    expect((await eventsOf(p)).map((e) => [e.type, e.after])).toEqual([
      ['screenshot.added', { name: 'Sign in', width: 390, height: 260, keys: [p.keys['auth.sign_in'], p.keys['auth.welcome']] }],
      ['screenshot.added', { name: b.name, width: 390, height: 260, keys: [] }],
      ['screenshot.updated', { name: 'Sign-in page', linked: [p.keys['auth.forgot']], unlinked: [p.keys['auth.welcome']], moved: [p.keys['auth.sign_in']] }],
    ]);
  });

  it('deleted, take their image and links with them', async () => {
    const p = await project();
    const shot = await json(await upload(p, PNG, `?key_id=${p.keys['auth.sign_in']}`));
    expect(await stored(p)).toBe(1);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/screenshots/${shot.id}`)).status).toBe(204);
    expect(await stored(p)).toBe(0);
    expect((await image(p, shot.id)).status).toBe(404);
    expect((await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/screenshots/${shot.id}`)).status).toBe(404);
    expect((await sql()`select 1 from screenshot_keys where screenshot_id = ${shot.id}`).length).toBe(0);
    expect((await eventsOf(p)).at(-1)).toMatchObject({ type: 'screenshot.deleted', before: { name: shot.name } });
  });

  it('refuse what is not an image of theirs, writing nothing', async () => {
    const p = await project();
    const other = await project();
    const refused = async (res: Response, loc: unknown[], msg: RegExp) => {
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.detail[0].loc).toEqual(loc);
      expect(body.detail[0].msg).toMatch(msg);
    };
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    await refused(await upload(p, svg, '', { 'Content-Type': 'image/svg+xml' }), ['body'], /not a PNG, JPEG or WebP/);
    await refused(await upload(p, new Uint8Array(0)), ['body'], /empty/);
    await refused(await upload(p, PNG.subarray(0, PNG.length - 20)), ['body'], /cut short/);
    const webp = fixture('sign-in.webp');
    await refused(await upload(p, webp.subarray(0, webp.length - 100)), ['body'], /cut short/);
    const jpeg = fixture('sign-in.jpg');
    await refused(await upload(p, jpeg.subarray(0, 100)), ['body'], /JPEG file is cut short/);
    await refused(await upload(p, jpeg.subarray(0, jpeg.length - 1000)), ['body'], /JPEG file is cut short/);
    await refused(await upload(p, PNG, `?key_id=${other.keys['auth.sign_in']}`), ['query', 'key_id', 0], /not a key of this project/);
    await refused(await upload(p, PNG, '?key_id=nope'), ['query', 'key_id', 0], /UUID/);
    await refused(await upload(p, PNG, '?name=%20%20'), ['query', 'name'], /at least 1 character/);
    expect((await upload(p, PNG, '?colour=red')).status).toBe(422);
    expect(await stored(p)).toBe(0);
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/screenshots'))).count).toBe(0);

    const shot = await json(await upload(p, PNG));
    const patch = (body: unknown) => t.call(p.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, body);
    await refused(await patch({ keys: { [p.keys['auth.sign_in']!]: { region: { x: 300, y: 0, width: 100, height: 10 } } } }), ['body', 'keys', p.keys['auth.sign_in'], 'region', 'width'], /right edge: x \+ width must be at most 390/);
    await refused(await patch({ keys: { [p.keys['auth.sign_in']!]: { region: { x: 0, y: 0, width: 0, height: 10 } } } }), ['body', 'keys', p.keys['auth.sign_in'], 'region', 'width'], /at least 1/);
    await refused(await patch({ keys: { [other.keys['auth.sign_in']!]: {} } }), ['body', 'keys', other.keys['auth.sign_in']], /not a key of this project/);
    await refused(await patch({ keys: [p.keys['auth.sign_in']] }), ['body', 'keys'], /object of key ids/);
    expect((await patch({})).status).toBe(422);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/screenshots/${shot.id}`))).keys).toEqual([]);

    // Another project's screenshot is not there for this key.
    expect((await t.call(other.apiKey, 'GET', `/v1/screenshots/${shot.id}`)).status).toBe(404);
    expect((await image(other, shot.id)).status).toBe(404);
    expect((await t.call(other.apiKey, 'PATCH', `/v1/screenshots/${shot.id}`, { name: 'mine' })).status).toBe(404);
    expect((await t.call(other.apiKey, 'DELETE', `/v1/screenshots/${shot.id}`)).status).toBe(404);
    expect((await t.call(other.apiKey, 'GET', `/v1/screenshots?key_id=${p.keys['auth.sign_in']}`)).status).toBe(404);
    expect(await stored(p)).toBe(1);
  });

  it('sent twice with one Idempotency-Key (a retry after a lost answer): one screenshot, the same answer', async () => {
    const p = await project();
    const first = await upload(p, PNG, '?name=Home', { 'Idempotency-Key': 'upload-1' });
    const again = await upload(p, PNG, '?name=Home', { 'Idempotency-Key': 'upload-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(await stored(p)).toBe(1);
    // The same key with another image is the client's mistake, not a retry.
    expect((await upload(p, fixture('sign-in.jpg'), '?name=Home', { 'Idempotency-Key': 'upload-1' })).status).toBe(422);
    expect(await stored(p)).toBe(1);
  });

  it('over 4 MiB is a 413 before it is read', async () => {
    const p = await project();
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(PNG.subarray(0, 64));
    const res = await upload(p, big);
    expect(res.status).toBe(413);
    expect(await stored(p)).toBe(0);
  });
});
