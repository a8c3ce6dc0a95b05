// `tms screenshots push|list|delete` (docs/cli.md, "tms screenshots"): images as e2e tests save them
// (test/fixtures/screenshots: Chromium's PNG and JPEG, cwebp's WebP), uploaded from a repository and
// linked to keys named as the files name them. The CLI runs as a child process against a real server
// over HTTP on the test's database; what it did is checked through the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles, type Run } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
const dirs: string[] = [];
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'screenshots');
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A server nobody listens on: a request would be exit 1 ("cannot reach"), so exit 2 proves none was sent. */
const NOWHERE = 'http://127.0.0.1:9';

beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await served?.close();
});

type Project = TestProject & { keys: Record<string, string> };

/**
 * A project with en and three keys, named as an API client and an import name them: sign_in and
 * forgot made in group auth (their names have no group), menu.open read from a file (group menu).
 */
async function newProject(): Promise<Project> {
  const p = await served.t.newProject('team');
  expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' })).status).toBe(201);
  const keys: Record<string, string> = {};
  for (const [key, group_name] of [['sign_in', 'auth'], ['forgot', 'auth'], ['menu.open', 'menu']]) {
    const res = await served.t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
    expect(res.status).toBe(201);
    keys[key!] = ((await res.json()) as { id: string }).id;
  }
  return { ...p, keys };
}

/** A repository whose shots/ holds the fixtures (and `extra` files), its config naming `server`. */
async function repository(extra: Record<string, string | Buffer> = {}, server = served.base): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-screenshots-'));
  dirs.push(dir);
  await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }] }) });
  await mkdir(join(dir, 'shots'));
  for (const file of ['sign-in.png', 'sign-in.jpg', 'sign-in.webp', 'sign-in-lossless.webp', 'menu.webp']) await copyFile(join(FIXTURES, file), join(dir, 'shots', file));
  for (const [path, body] of Object.entries(extra)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  return dir;
}

const tms = (dir: string, args: string[], apiKey: string, env: Record<string, string> = {}): Promise<Run> => runTms(['screenshots', ...args], { cwd: dir, apiKey, env });

type Screenshot = { id: string; name: string; content_type: string; width: number; height: number; bytes: number; keys: { key_id: string; key: string; group_name: string; region: unknown }[] };

async function screenshotsOf(p: TestProject, query = ''): Promise<Screenshot[]> {
  const res = await served.t.call(p.apiKey, 'GET', `/v1/screenshots${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { screenshots: Screenshot[] }).screenshots;
}
const imageOf = async (p: TestProject, id: string) => Buffer.from(await (await served.t.call(p.apiKey, 'GET', `/v1/screenshots/${id}/image`)).arrayBuffer());
const fixture = (file: string) => readFile(join(FIXTURES, file));

describe('tms screenshots push', () => {
  it('uploads an image linked to the keys named, as the API then shows it, byte for byte', async () => {
    const p = await newProject();
    const dir = await repository();
    const r = await tms(dir, ['push', 'shots/sign-in.png', '--key', 'sign_in', '--key', 'forgot'], p.apiKey);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const [shot, ...more] = await screenshotsOf(p);
    expect(more).toEqual([]);
    // Keys in name order, as the server answers them.
    expect(r.stdout).toBe(`shots/sign-in.png: uploaded "sign-in.png", 390x260, 2 keys (forgot, sign_in), id ${shot!.id}\n`);
    expect(shot).toMatchObject({ name: 'sign-in.png', content_type: 'image/png', width: 390, height: 260, bytes: (await fixture('sign-in.png')).length });
    expect(shot!.keys).toEqual([
      { key_id: p.keys.forgot, key: 'forgot', group_name: 'auth', region: null },
      { key_id: p.keys.sign_in, key: 'sign_in', group_name: 'auth', region: null },
    ]);
    // Through the key's own listing too: the link is the key's.
    expect((await screenshotsOf(p, `?key_id=${p.keys.forgot}`)).map((s) => s.id)).toEqual([shot!.id]);
    expect((await screenshotsOf(p, `?key_id=${p.keys['menu.open']}`))).toEqual([]);
    expect(await imageOf(p, shot!.id)).toEqual(await fixture('sign-in.png'));
  });

  it('two images with --json: the screenshots as the API answers them; a key named twice is linked once; none without --key', async () => {
    const p = await newProject();
    const dir = await repository();
    const r = await tms(dir, ['push', 'shots/sign-in.jpg', 'shots/menu.webp', '--key', 'menu.open', '--key', 'menu.open', '--json'], p.apiKey);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { screenshots: Screenshot[] };
    const held = await screenshotsOf(p);
    expect(answer).toEqual({ screenshots: held });
    expect(held.map((s) => [s.name, s.content_type, s.width, s.height, s.keys.map((k) => k.key_id)])).toEqual([
      ['sign-in.jpg', 'image/jpeg', 390, 260, [p.keys['menu.open']]],
      ['menu.webp', 'image/webp', 120, 80, [p.keys['menu.open']]],
    ]);
    expect(await imageOf(p, held[0]!.id)).toEqual(await fixture('sign-in.jpg'));
    expect(await imageOf(p, held[1]!.id)).toEqual(await fixture('menu.webp'));

    // Without --key: no keys linked (the portal or a later push links them); --name names it.
    const named = await tms(dir, ['push', 'shots/sign-in-lossless.webp', '--name', '  Sign in (dark)  '], p.apiKey);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/^shots\/sign-in-lossless\.webp: uploaded "Sign in \(dark\)", 390x260, no keys, id [0-9a-f-]{36}\n$/);
    expect((await screenshotsOf(p)).at(-1)).toMatchObject({ name: 'Sign in (dark)', keys: [] });
  });

  it('--region links a key and marks where it is (a key name holding "=" too); a box outside the image is the server\'s 422 naming the flag', async () => {
    const p = await newProject();
    const odd = await served.t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a=b', group_name: 'odd' });
    expect(odd.status).toBe(201);
    const oddId = ((await odd.json()) as { id: string }).id;
    const dir = await repository();
    const r = await tms(dir, ['push', 'shots/sign-in.png', '--key', 'forgot', '--region', 'sign_in=24,80,200,40', '--region', 'a=b=0, 0, 390, 20'], p.apiKey);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: uploaded "sign-in\.png", 390x260, 3 keys \(a=b, forgot, sign_in\), id /);
    const [shot] = await screenshotsOf(p);
    expect(Object.fromEntries(shot!.keys.map((k) => [k.key_id, k.region]))).toEqual({
      [p.keys.sign_in!]: { x: 24, y: 80, width: 200, height: 40 },
      [oddId]: { x: 0, y: 0, width: 390, height: 20 },
      [p.keys.forgot!]: null,
    });

    // Past the right edge (390 wide): only the server knows the image's size; nothing is kept.
    const outside = await tms(dir, ['push', 'shots/sign-in.png', '--region', 'forgot=300,0,100,10'], p.apiKey);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(
      'tms screenshots push: shots/sign-in.png was refused (422); nothing was uploaded:\n' +
        '  --region "forgot=300,0,100,10": the region runs past the image\'s right edge: x + width must be at most 390\n',
    );
    expect(await screenshotsOf(p)).toHaveLength(1);
  });

  it('--region that is no box, given twice, with two images, or for a key the project lacks: exit 2 before any upload', async () => {
    const p = await newProject();
    const dir = await repository();
    const refused = async (args: string[], stderr: string, apiKey = p.apiKey, env: Record<string, string> = { TMS_SERVER: NOWHERE }) => {
      const r = await tms(dir, ['push', ...args], apiKey, env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`tms screenshots push: ${stderr}\n`);
    };
    const shape = "give a key's name and its box in the image's pixels, --region home.title=X,Y,WIDTH,HEIGHT (--region home.title=24,80,200,40); nothing was uploaded";
    await refused(['shots/sign-in.png', '--region', 'sign_in'], `--region "sign_in": ${shape}`);
    await refused(['shots/sign-in.png', '--region', 'sign_in=1,2,3'], `--region "sign_in=1,2,3": ${shape}`);
    await refused(['shots/sign-in.png', '--region', 'sign_in=-1,2,3,4'], `--region "sign_in=-1,2,3,4": ${shape}`);
    await refused(['shots/sign-in.png', '--region', '=1,2,3,4'], `--region "=1,2,3,4": ${shape}`);
    await refused(['shots/sign-in.png', '--region', 'sign_in=1,2,0,4'], `--region "sign_in=1,2,0,4": the box's width and height are at least 1 pixel; nothing was uploaded`);
    await refused(['shots/sign-in.png', '--region', 'sign_in=1,20000,3,4'], `--region "sign_in=1,20000,3,4": an image is at most 16,384 pixels a side; nothing was uploaded`);
    await refused(['shots/sign-in.png', '--region', 'sign_in=1,2,3,4', '--region', 'sign_in=5,6,7,8'], `--region given twice for "sign_in": a key has one place on a screenshot; nothing was uploaded`);
    await refused(['shots/sign-in.png', 'shots/menu.webp', '--region', 'sign_in=1,2,3,4'], '--region marks a place on one image, but 2 images were given: push an image with its regions at a time; nothing was uploaded');
    // A name the project lacks is found when the keys are read: the real server, still nothing uploaded.
    await refused(['shots/sign-in.png', '--key', 'forgot', '--region', 'nope=1,2,3,4'], '--region "nope": no key of this project has this name; nothing was uploaded', p.apiKey, {});
    expect(await screenshotsOf(p)).toEqual([]);
  });

  it('a key no key of the project has: exit 2 naming it (and the key meant, for a group-and-name), nothing uploaded', async () => {
    const p = await newProject();
    const dir = await repository();
    const r = await tms(dir, ['push', 'shots/sign-in.png', 'shots/menu.webp', '--key', 'sign_in', '--key', 'nope', '--key', 'auth.forgot'], p.apiKey);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'tms screenshots push: --key "nope", --key "auth.forgot" (the key "forgot" of group auth? keys are named without their group): no key of this project has these names; nothing was uploaded\n',
    );
    const json = await tms(dir, ['push', 'shots/sign-in.png', '--key', 'Sign_In', '--json'], p.apiKey);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: '--key "Sign_In" ("sign_in"? names are compared as written): no key of this project has this name; nothing was uploaded', exit_code: 2 });
    expect(await screenshotsOf(p)).toEqual([]);
  });

  it('a file that is no screenshot (a text file, an SVG, a GIF, a missing one, a folder, an empty one), or --name with two images: exit 2 before any request', async () => {
    // The config names a server nobody listens on: any request would be exit 1, not 2.
    const dir = await repository(
      {
        'shots/notes.png': 'not an image, whatever its name says\n',
        'shots/logo.svg': '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>\n',
        'shots/spinner.gif': Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
        'shots/empty.png': '',
      },
      NOWHERE,
    );
    const cases: [string[], string][] = [
      [['push', 'shots/sign-in.png', 'shots/notes.png'], 'shots/notes.png is not a PNG, JPEG or WebP image (read from its first bytes, not its name); nothing was uploaded'],
      [['push', 'shots/logo.svg'], 'shots/logo.svg is an SVG (a document, not a screenshot): screenshots are PNG, JPEG or WebP; nothing was uploaded'],
      [['push', 'shots/spinner.gif'], 'shots/spinner.gif is a GIF: screenshots are PNG, JPEG or WebP; nothing was uploaded'],
      [['push', 'shots/sign-in.png', 'shots/missing.png', '--key', 'sign_in'], 'shots/missing.png not found (paths are relative to the current folder); nothing was uploaded'],
      [['push', 'shots'], 'shots is a folder: name the image files (shots/*.png); nothing was uploaded'],
      [['push', 'shots/empty.png'], 'shots/empty.png is empty; nothing was uploaded'],
      [['push', 'shots/sign-in.png', './shots/sign-in.png'], './shots/sign-in.png is given twice (as shots/sign-in.png too): each file is one screenshot; nothing was uploaded'],
      [['push', 'shots/sign-in.png', 'shots/menu.webp', '--name', 'Sign in'], '--name names one screenshot, but 2 images were given: push them one at a time, or leave --name out (each is then named after its file)'],
      [['push', 'shots/sign-in.png', '--name', '  '], '--name "  ": a name is not empty; nothing was uploaded'],
      [['push', 'shots/sign-in.png', '--key', ''], '--key is empty: name a key of the project (--key home.title)'],
      [['push'], 'name the image files: tms screenshots push shots/sign-in.png [--key K]...'],
      [['push', 'shots/sign-in.png', '--tag', 'x'], "Unknown option '--tag'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--tag\""],
      [['list', 'shots'], '"shots": list takes no arguments; --key K lists the screenshots of one key'],
      // --key is named like a secret flag (flags.ts, isSecretFlag): its values are not echoed.
      [['list', '--key', 'a', '--key', 'b'], '--key given twice ("a", "b"): give it once'],
      [['delete'], 'name the screenshots: tms screenshots delete <id>... (tms screenshots list shows the ids)'],
      [['delete', 'sign-in.png'], '"sign-in.png": not a screenshot id (a UUID, as tms screenshots list shows them); nothing was deleted'],
    ];
    const runs = await Promise.all(cases.map(([args]) => tms(dir, args, 'key_live_x')));
    runs.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`tms screenshots ${args[0]}: ${message}`);
    });

    // Several bad files: each named, in one refusal.
    const several = await tms(dir, ['push', 'shots/logo.svg', 'shots/sign-in.png', 'shots/nope.webp', '--json'], 'key_live_x');
    expect(several.code).toBe(2);
    expect(JSON.parse(several.stdout)).toEqual({
      error: '2 files cannot be uploaded; nothing was uploaded:\n  shots/logo.svg is an SVG (a document, not a screenshot): screenshots are PNG, JPEG or WebP\n  shots/nope.webp not found (paths are relative to the current folder)',
      exit_code: 2,
    });
  }, 120_000);

  it('a file over 4 MiB is refused before it is sent', async () => {
    // A PNG's signature, then padding: over the limit, whatever the rest.
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4 * 1024 * 1024)]);
    const dir = await repository({ 'shots/huge.png': big }, NOWHERE);
    const r = await tms(dir, ['push', 'shots/huge.png'], 'key_live_x');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tms screenshots push: shots/huge.png is 4.0 MiB (4,194,312 bytes); the server takes images up to 4 MiB (4,194,304 bytes): save it as JPEG or WebP, or smaller; nothing was uploaded\n');
  });

  it("the server's 422 (a PNG cut short, which only the server reads whole): exit 1 naming the file, the images before it uploaded and listed with --json", async () => {
    const p = await newProject();
    const png = await fixture('sign-in.png');
    const dir = await repository({ 'shots/cut.png': png.subarray(0, 4000) });
    const r = await tms(dir, ['push', 'shots/menu.webp', 'shots/cut.png', 'shots/sign-in.png', '--key', 'sign_in'], p.apiKey);
    expect(r.code).toBe(1);
    const [first] = await screenshotsOf(p);
    expect(r.stdout).toBe(`shots/menu.webp: uploaded "menu.webp", 120x80, 1 key (sign_in), id ${first!.id}\n`);
    expect(r.stderr).toBe(
      'tms screenshots push: shots/cut.png was refused (422); 1 image before shots/cut.png was uploaded, 1 after it not sent:\n' +
        '  shots/cut.png: the PNG file is cut short (it does not end with IEND)\n',
    );
    expect((await screenshotsOf(p)).map((s) => s.name)).toEqual(['menu.webp']);

    const json = await tms(dir, ['push', 'shots/cut.png', '--json'], p.apiKey);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      screenshots: [],
      error: 'shots/cut.png was refused (422); nothing was uploaded:\n  shots/cut.png: the PNG file is cut short (it does not end with IEND)',
      exit_code: 1,
    });
    expect((await screenshotsOf(p)).map((s) => s.name)).toEqual(['menu.webp']);
  });

  it('an answer lost after the upload went out: exit 1 saying the server may have stored it and to look before pushing again (not "run it again")', async () => {
    // A server that takes the whole request and then drops the connection, and one that never answers.
    const dropping: Server = createServer((req) => req.on('end', () => req.socket.destroy()).resume());
    const silent: Server = createServer(() => {});
    for (const server of [dropping, silent]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await repository();
      const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const advice = 'the server may have stored it: see tms screenshots list before pushing shots/menu.webp again (each upload is a new screenshot)';
      const dropped = await tms(dir, ['push', 'shots/sign-in.png', 'shots/menu.webp'], 'key_live_x', { TMS_SERVER: url(dropping) });
      expect(dropped.code).toBe(1);
      expect(dropped.stderr).toMatch(/^tms screenshots push: shots\/sign-in\.png: POST \/v1\/screenshots\?name=sign-in\.png: the connection to http:\/\/127\.0\.0\.1:\d+ broke before the answer came \([^)]+\); the server may have stored it: see tms screenshots list before pushing shots\/sign-in\.png again \(each upload is a new screenshot\)\. Nothing was uploaded \(1 more image not sent\)\.\n$/);
      const timedOut = await tms(dir, ['push', 'shots/menu.webp'], 'key_live_x', { TMS_SERVER: url(silent), TMS_TIMEOUT: '1' });
      expect(timedOut.code).toBe(1);
      expect(timedOut.stderr).toContain(`within 1 s; ${advice}. Set TMS_TIMEOUT (seconds) to wait longer.`);
      expect(timedOut.stderr).not.toContain('run the command again');
    } finally {
      for (const server of [dropping, silent]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('a 503 after the server stored the image: the client retries with the same Idempotency-Key, and one screenshot is made', async () => {
    const p = await newProject();
    // A proxy that passes each request on, and for the first upload hides the server's answer
    // behind a 503 (a load balancer timing out): the screenshot is stored, the CLI is not told.
    let uploads = 0;
    const tokens: (string | undefined)[] = [];
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const answer = await fetch(served.base + req.url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
      const body = Buffer.from(await answer.arrayBuffer());
      if (req.method === 'POST' && req.url!.startsWith('/v1/screenshots')) {
        tokens.push(req.headers['idempotency-key'] as string | undefined);
        if (uploads++ === 0) {
          res.writeHead(503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'upstream timed out' }));
          return;
        }
      }
      res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await repository({}, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      const r = await tms(dir, ['push', 'shots/sign-in.webp', 'shots/menu.webp', '--key', 'forgot', '--json'], p.apiKey, { TMS_RETRY_DELAY_SCALE: '0.01' });
      expect(r.code, r.stderr).toBe(0);
      const held = await screenshotsOf(p);
      expect(held.map((s) => s.name)).toEqual(['sign-in.webp', 'menu.webp']);
      expect(JSON.parse(r.stdout)).toEqual({ screenshots: held });
      // The retry sent the first upload's token again; the next image had its own.
      expect(tokens).toHaveLength(3);
      expect(tokens[0]).toMatch(ID);
      expect(tokens[1]).toBe(tokens[0]);
      expect(tokens[2]).toMatch(ID);
      expect(tokens[2]).not.toBe(tokens[0]);
      expect(await imageOf(p, held[0]!.id)).toEqual(await fixture('sign-in.webp'));
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('tms screenshots list and delete', () => {
  it("lists every screenshot or a key's, and deletes some: ids checked first, nothing deleted for one that is none", async () => {
    const p = await newProject();
    const dir = await repository();
    const pushed = await tms(dir, ['push', 'shots/sign-in.png', '--key', 'sign_in', '--key', 'forgot', '--json'], p.apiKey);
    expect(pushed.code, pushed.stderr).toBe(0);
    const menu = await tms(dir, ['push', 'shots/menu.webp', '--key', 'menu.open', '--json'], p.apiKey);
    expect(menu.code, menu.stderr).toBe(0);
    const bare = await tms(dir, ['push', 'shots/sign-in.jpg', '--json'], p.apiKey);
    expect(bare.code, bare.stderr).toBe(0);
    const [signIn, menuShot, jpg] = [pushed, menu, bare].map((r) => (JSON.parse(r.stdout) as { screenshots: Screenshot[] }).screenshots[0]!);

    const all = await tms(dir, ['list'], p.apiKey);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(
      `${signIn!.id}  sign-in.png  390x260  forgot, sign_in\n` + `${menuShot!.id}  menu.webp  120x80  menu.open\n` + `${jpg!.id}  sign-in.jpg  390x260  (no keys)\n` + '3 screenshots\n',
    );
    const json = await tms(dir, ['list', '--json'], p.apiKey);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ project_id: p.projectId, screenshots: await screenshotsOf(p), count: 3 });

    const ofKey = await tms(dir, ['list', '--key', 'forgot'], p.apiKey);
    expect(ofKey.code, ofKey.stderr).toBe(0);
    expect(ofKey.stdout).toBe(`${signIn!.id}  sign-in.png  390x260  forgot, sign_in\n1 screenshot shows forgot\n`);
    const unknownKey = await tms(dir, ['list', '--key', 'menu.close'], p.apiKey);
    expect(unknownKey.code).toBe(2);
    expect(unknownKey.stderr).toBe('tms screenshots list: --key "menu.close": no key of this project has this name\n');

    // An id that is no screenshot of the project (deleted, another project's, mistyped): nothing deleted.
    const missing = '00000000-0000-4000-8000-000000000000';
    const refused = await tms(dir, ['delete', signIn!.id, missing], p.apiKey);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`tms screenshots delete: ${missing}: no screenshot of this project (tms screenshots list shows the ids); nothing was deleted\n`);
    expect(await screenshotsOf(p)).toHaveLength(3);

    // Two deleted (one named twice, in capitals: once), the keys and the third screenshot kept.
    const deleted = await tms(dir, ['delete', signIn!.id, jpg!.id, signIn!.id.toUpperCase(), '--json'], p.apiKey);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((JSON.parse(deleted.stdout) as { deleted: Screenshot[] }).deleted.map((s) => [s.id, s.name])).toEqual([
      [signIn!.id, 'sign-in.png'],
      [jpg!.id, 'sign-in.jpg'],
    ]);
    expect((await screenshotsOf(p)).map((s) => s.id)).toEqual([menuShot!.id]);
    expect((await served.t.call(p.apiKey, 'GET', `/v1/screenshots/${signIn!.id}`)).status).toBe(404);
    expect((await served.t.call(p.apiKey, 'GET', `/v1/keys/${p.keys.sign_in}`)).status).toBe(200);

    const last = await tms(dir, ['delete', menuShot!.id], p.apiKey);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toBe(`deleted ${menuShot!.id} (menu.webp)\n`);
    const none = await tms(dir, ['list', '--key', 'sign_in'], p.apiKey);
    expect(none.stdout).toBe('no screenshot shows sign_in\n');
    expect((await tms(dir, ['list'], p.apiKey)).stdout).toBe('no screenshots\n');
    // Eleven runs of the CLI, a child process each: about 2 s apiece on a loaded 2-core machine.
  }, 120_000);

  it('help: tms --help names the command, tms screenshots --help and each one\'s --help their options; an unknown one is exit 2', async () => {
    const dir = await repository({}, NOWHERE);
    const [top, group, push, list, del, unknown] = await Promise.all([
      runTms(['--help'], { cwd: dir }),
      runTms(['screenshots', '--help'], { cwd: dir }),
      runTms(['screenshots', 'push', '--help'], { cwd: dir }),
      runTms(['screenshots', 'list', '-h'], { cwd: dir }),
      runTms(['screenshots', 'delete', '--help'], { cwd: dir }),
      runTms(['screenshots', 'upload', 'x.png'], { cwd: dir }),
    ]);
    for (const r of [top, group, push, list, del]) expect(r.code).toBe(0);
    expect(top.stdout).toContain('`tms screenshots push <image>... --key K` uploads them');
    expect(group.stdout).toContain('tms screenshots push <image> [<image>...] [--key K]... [--region K=X,Y,W,H]... [--name N] [--json]');
    expect(group.stdout).toContain('tms screenshots list [--key K] [--json]');
    expect(push.stdout).toMatch(/^tms screenshots push <image> \[<image>\.\.\.\] \[--key K\]\.\.\. \[--region K=X,Y,W,H\]\.\.\. \[--name N\] \[--json\]\n/);
    expect(push.stdout).toContain("boundingBox() times the device scale factor");
    expect(push.stdout).toContain('its full name as in the translation');
    expect(list.stdout).toMatch(/^tms screenshots list \[--key K\] \[--json\]\n/);
    expect(del.stdout).toMatch(/^tms screenshots delete <id> \[<id>\.\.\.\] \[--json\]\n/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^tms screenshots: unknown command "screenshots upload": screenshots push, screenshots list or screenshots delete\n/);
  }, 120_000);
});
