// The tms CLI as a user runs it: a child process (`node cli/bin/tms.js`), no terminal, CI=true,
// in a directory of real files, against a real server over HTTP on the test's database.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { FORMATS } from '../../core/formats/index.ts';
import { FORMAT_IDS } from '../../cli/src/formats.ts';

const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'tms.js');

type Run = { code: number; stdout: string; stderr: string };

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
let dir: string;

function tms(args: string[], options: { apiKey?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...(options.apiKey ? { TMS_API_KEY: options.apiKey } : {}), ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: options.cwd ?? dir, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const I18NEXT_EN = { home: { title: 'Welcome', notes_one: '{{count}} note', notes_other: '{{count}} notes' }, menu: { open: 'Open', close: 'Close' } };
const I18NEXT_DE = { home: { title: 'Willkommen', notes_one: '{{count}} Notiz', notes_other: '{{count}} Notizen' }, menu: { open: 'Öffnen' } };

async function projectDir(p: TestProject, files: Record<string, string>) {
  dir = await mkdtemp(join(tmpdir(), 'tms-cli-'));
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  const init = await tms(['init', '--server', base, '--source-language', 'en', '--file', 'locales/{language}/translation.json:i18next', '--file', 'android/values-{language}/strings.xml:android']);
  expect(init.code, init.stderr).toBe(0);
  return p;
}

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function newProject(plan: 'free' | 'team' = 'team'): Promise<TestProject> {
  const p = await t.newProject(plan);
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

describe('tms init', () => {
  it('writes tms.config.json from flags, never the API key; refuses bad flags with exit 2', async () => {
    await projectDir(await newProject(), {});
    const config = JSON.parse(await readFile(join(dir, 'tms.config.json'), 'utf8'));
    expect(config).toEqual({
      server: base,
      sourceLanguage: 'en',
      files: [
        { path: 'locales/{language}/translation.json', format: 'i18next' },
        { path: 'android/values-{language}/strings.xml', format: 'android' },
      ],
    });
    expect((await tms(['init', '--server', base])).code).toBe(2); // exists
    const bad = await tms(['init', '--force', '--server', 'nope', '--source-language', 'en', '--file', 'x.json:json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/server: an http\(s\) URL/);
    expect(bad.stderr).toMatch(/files\[0\]\.path: a path containing \{language\}/);
    expect((await tms(['push', '--bogus'], { apiKey: 'x' })).code).toBe(2);
    expect((await tms(['frobnicate'])).code).toBe(2);
    expect((await tms(['push', '--help'])).stdout).toMatch(/--remove-unused/);
  });
});

describe('tms push', () => {
  it('dry run says what would change and writes nothing; then pushes; conflicts fail naming the keys', async () => {
    const p = await projectDir(await newProject(), {
      'locales/en/translation.json': JSON.stringify(I18NEXT_EN),
      'locales/de/translation.json': JSON.stringify(I18NEXT_DE),
      // The Android app's own file, as Android Studio writes it.
      'android/values-de/strings.xml':
        '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_title">Notizen</string>\n    <plurals name="app_count">\n        <item quantity="one">%d Notiz</item>\n        <item quantity="other">%d Notizen</item>\n    </plurals>\n</resources>\n',
    });
    const dry = await tms(['push', '--dry-run', '--json'], { apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned.dry_run).toBe(true);
    expect(planned.files.map((f: { path: string; keys_created: number; values_created: number }) => [f.path, f.keys_created, f.values_created])).toEqual([
      ['locales/en/translation.json', 4, 4],
      ['locales/de/translation.json', 3, 3],
      ['android/values-de/strings.xml', 2, 2],
    ]);
    expect(planned.skipped).toEqual(['android/values-en/strings.xml']);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(0);

    const real = await tms(['push'], { apiKey: p.apiKey });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/locales\/en\/translation\.json \(en, i18next\): created 4 keys, 4 values; updated 0; unchanged 0; 4 translation units/);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/home/home.notes')).json()).value).toBe('{count, plural, one {# Notiz} other {# Notizen}}');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/Default/app_count')).json()).value).toBe('{count, plural, one {# Notiz} other {# Notizen}}');

    await writeFile(join(dir, 'locales/de/translation.json'), JSON.stringify({ ...I18NEXT_DE, menu: { open: 'Aufmachen' } }));
    const refused = await tms(['push', '--language', 'de', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/409.*menu\.open/);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/menu/menu.open')).json()).value).toBe('Öffnen');
  });

  it('--remove-unused lists, then soft-deletes, only the pushed groups\' keys the source files dropped', async () => {
    const p = await projectDir(await newProject(), { 'locales/en/translation.json': JSON.stringify(I18NEXT_EN) });
    expect((await tms(['push'], { apiKey: p.apiKey })).code).toBe(0);
    // A key of a group the files never mention stays whatever happens.
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'other.thing', group_name: 'other' })).status).toBe(201);
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify({ home: I18NEXT_EN.home, menu: { open: 'Open' } }));

    const dry = await tms(['push', '--remove-unused', '--dry-run'], { apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe('would remove 1 unused key: menu.close');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).count).toBe(5);

    const real = await tms(['push', '--remove-unused', '--json'], { apiKey: p.apiKey });
    expect(JSON.parse(real.stdout).removed).toEqual([{ id: expect.any(String), key: 'menu.close', group: 'menu' }]);
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys.map((k: { key: string }) => k.key).sort();
    expect(keys).toEqual(['home.notes', 'home.title', 'menu.open', 'other.thing']);
  });

  it('exit 3 with used, limit, reset date and upgrade URL when the quota is spent; exit 4 for a bad key', async () => {
    const p = await projectDir(await newProject('free'), {});
    await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 2 });
    await mkdir(join(dir, 'locales/en'), { recursive: true });
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify({ a: { one: '1', two: '2', three: '3', four: '4', five: '5' } }));
    const spent = await tms(['push', '--language', 'en'], { apiKey: p.apiKey });
    expect(spent.code).toBe(3);
    expect(spent.stderr).toMatch(/QUOTA_EXCEEDED.*use 5 of 4; the quota resets on \d{4}-\d{2}-01\. Upgrade the plan: \S+/);

    const extra = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json();
    expect((await tms(['status'], { apiKey: extra.key })).code).toBe(0);
    await t.admin('DELETE', `/api-keys/${extra.id}`);
    const denied = await tms(['status'], { apiKey: extra.key });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/401.*TMS_API_KEY/);
    expect((await tms(['status'])).code).toBe(2); // no key at all
  });
});

describe('tms pull, status and publish', () => {
  it('pull writes every language, creating folders; a second pull leaves bytes and mtime alone', async () => {
    const p = await projectDir(await newProject(), {
      'locales/en/translation.json': JSON.stringify(I18NEXT_EN),
      'locales/de/translation.json': JSON.stringify(I18NEXT_DE),
    });
    expect((await tms(['push'], { apiKey: p.apiKey })).code).toBe(0);
    const first = await tms(['pull', '--json'], { apiKey: p.apiKey });
    expect(first.code, first.stderr).toBe(0);
    const states = Object.fromEntries(JSON.parse(first.stdout).files.map((f: { path: string; state: string }) => [f.path, f.state]));
    expect(states['android/values-de/strings.xml']).toBe('created');
    const android = await readFile(join(dir, 'android/values-de/strings.xml'), 'utf8');
    expect(android).toContain('<plurals name="home.notes">');
    expect(android).toContain('<item quantity="other">%d Notizen</item>');

    const before = await stat(join(dir, 'android/values-de/strings.xml'));
    const bytes = await readFile(join(dir, 'android/values-de/strings.xml'));
    await new Promise((r) => setTimeout(r, 20));
    const second = await tms(['pull', '--json'], { apiKey: p.apiKey });
    expect(JSON.parse(second.stdout).files.every((f: { state: string }) => f.state === 'unchanged')).toBe(true);
    expect((await stat(join(dir, 'android/values-de/strings.xml'))).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(join(dir, 'android/values-de/strings.xml'))).toEqual(bytes);
  });

  it('status counts per language and status; publish --wait returns once the cache is built', async () => {
    const p = await projectDir(await newProject(), { 'locales/de/translation.json': JSON.stringify(I18NEXT_DE) });
    expect((await tms(['push', '--language', 'de', '--status', 'review'], { apiKey: p.apiKey })).code).toBe(0);
    const s = await tms(['status', '--json'], { apiKey: p.apiKey });
    expect(s.code, s.stderr).toBe(0);
    const report = JSON.parse(s.stdout);
    expect(report.keys).toBe(3);
    expect(report.languages).toEqual([
      { language: 'en', draft: 0, review: 0, approved: 0, missing: 3 },
      { language: 'de', draft: 0, review: 3, approved: 0, missing: 0 },
    ]);
    expect(report.cache.ready).toBe(false);
    expect(report.usage).toMatchObject({ translation_units_used: 3, translation_units_allowance: 100000 });

    const published = await tms(['publish', '--wait', '--json'], { apiKey: p.apiKey });
    expect(published.code, published.stderr).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ ready: true });
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).status).toBe(200);
  });
});

describe('the CLI\'s contract with the server', () => {
  it('knows exactly the server\'s formats', () => {
    expect(FORMAT_IDS).toEqual(Object.keys(FORMATS));
  });

  it('follows the retry guidance: 500 once, 503 three times, 429 only with --wait-for-quota', async () => {
    // A server that fails as scripted, then answers: only the client's retrying is under test here.
    const script: number[] = [];
    let calls = 0;
    // Only GET /v1/usage follows the script (status sends its four reads at once).
    const stub = createServer((req, res) => {
      const usage = req.url === '/v1/usage';
      if (usage) calls++;
      const status = usage ? (script.shift() ?? 200) : 200;
      res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 429 ? { 'Retry-After': '1' } : {}) });
      res.end(JSON.stringify(status === 200 ? { calls_today: 1, daily_limit: 5, translation_units_used: 0, translation_units_allowance: 1, cycle_resets_at: '2026-12-01T00:00:00.000Z', keys: [], languages: [], ready: true, last_rebuilt_at: null } : { detail: `scripted ${status}` }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
    const stubBase = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    const env = { TMS_SERVER: stubBase, TMS_RETRY_DELAY_SCALE: '0.01' };
    await projectDir(await newProject(), {});
    try {
      const run = async (statuses: number[], args: string[] = ['status']) => {
        script.splice(0, script.length, ...statuses);
        calls = 0;
        const r = await tms(args, { apiKey: 'key_live_' + 'A'.repeat(40), env });
        return { code: r.code, calls, stderr: r.stderr };
      };
      expect(await run([500])).toMatchObject({ code: 0, calls: 2 });
      expect(await run([500, 500])).toMatchObject({ code: 1, calls: 2 });
      expect(await run([503, 503, 503])).toMatchObject({ code: 0, calls: 4 });
      expect(await run([503, 503, 503, 503])).toMatchObject({ code: 1, calls: 4 });
      const limited = await run([429]);
      expect(limited).toMatchObject({ code: 1, calls: 1 });
      expect(limited.stderr).toMatch(/retry after 1 s \(or run with --wait-for-quota\)/);
      expect(await run([429], ['status', '--wait-for-quota'])).toMatchObject({ code: 0, calls: 2 });
    } finally {
      await new Promise<void>((r) => stub.close(() => r()));
    }
  });
});
