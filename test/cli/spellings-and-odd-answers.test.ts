// What a config spells its own way, and answers the tms server never gives. Language codes are
// case-insensitive ("EN", "pt-br" are the project's en and pt-BR), and paths written on Windows
// (backslashes) name the same files; a Retry-After may be an HTTP date (a proxy's, a CDN's); and
// language codes and group names from the server become path parts only when they are codes and
// names. The CLI runs as a child process, as in the other test/cli files, against a real server
// (or, for answers the server never gives, a scripted stub).
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { runTms, writeFiles } from './support/run-tms.ts';

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-cli-odd-'));
  dirs.push(dir);
  return dir;
}

async function newProject(languages: string[]): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of languages) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

async function importFile(p: TestProject, language: string, format: string, body: string, query = '') {
  const res = await t.call(p.apiKey, 'POST', `/v1/import/${language}?format=${format}&status=approved${query}`, body, { 'Content-Type': 'application/octet-stream' });
  expect(res.status, await res.clone().text()).toBe(200);
}

const exists = (path: string) => stat(path).then(() => true, () => false);

describe('config language codes in another case than the project has them', () => {
  it('pull: sourceLanguage "EN" (accepted by the config check) still leaves the source file alone', async () => {
    const p = await newProject(['en', 'de']);
    await importFile(p, 'en', 'json', JSON.stringify({ a: 'A' }));
    await importFile(p, 'de', 'json', JSON.stringify({ a: 'Ä' }));
    const dir = await tempDir();
    // The developers' source file holds what the server does not (a key not pushed yet).
    const sourceText = '{\n  "a": "A",\n  "b": "not pushed yet"\n}\n';
    await writeFiles(dir, {
      'l/en.json': sourceText,
      'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'EN', files: [{ path: 'l/{language}.json', format: 'json' }] }),
    });
    const run = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    // The source file is skipped as docs/cli.md says: never rewritten.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/l\/en\.json \(en, json\): skipped/);
    expect(run.stdout).not.toContain('is not a language of this project');
    expect(await readFile(join(dir, 'l/en.json'), 'utf8')).toBe(sourceText);
    expect(await readFile(join(dir, 'l/de.json'), 'utf8')).toContain('Ä');
  });

  it('pull: a languagePaths entry "pt-br" is used for the project\'s pt-BR (or refused), not silently ignored', async () => {
    const p = await newProject(['en', 'pt-BR']);
    await importFile(p, 'pt-BR', 'json', JSON.stringify({ app_name: 'Notas' }));
    const dir = await tempDir();
    await writeFiles(dir, {
      'tms.config.json': JSON.stringify({
        server: base,
        sourceLanguage: 'en',
        files: [{ path: 'res/values-{language}/strings.xml', format: 'android', languagePaths: { en: 'res/values/strings.xml', 'pt-br': 'res/values-pt-rBR/strings.xml' } }],
      }),
    });
    // --language takes the code in any case too.
    const run = await runTms(['pull', '--language', 'pt-br'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(await exists(join(dir, 'res/values-pt-rBR/strings.xml'))).toBe(true);
    expect(await exists(join(dir, 'res/values-pt-BR/strings.xml'))).toBe(false);
  });

  it('two languagePaths entries of one language in two spellings are refused (exit 2)', async () => {
    const p = await newProject(['en', 'pt-BR']);
    const dir = await tempDir();
    await writeFiles(dir, {
      'tms.config.json': JSON.stringify({
        server: base,
        sourceLanguage: 'en',
        files: [{ path: 'res/values-{language}/strings.xml', format: 'android', languagePaths: { 'pt-br': 'a/strings.xml', 'pt-BR': 'b/strings.xml' } }],
      }),
    });
    const run = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('files[0].languagePaths.pt-BR: the same language as pt-br (codes are case-insensitive): keep one');
  });
});

describe('Windows-style paths in tms.config.json', () => {
  const BACKSLASHED = [{ path: 'public\\locales\\{language}\\{group}.json', format: 'i18next' }];
  const FILES = {
    'public/locales/en/common.json': JSON.stringify({ title: 'Title' }, null, 2),
    'public/locales/de/common.json': JSON.stringify({ title: 'Titel' }, null, 2),
  };

  it('push: a {group} mapping written with backslashes imports the files its discovery found (or is refused), not "skipped" with exit 0', async () => {
    const p = await newProject(['en', 'de']);
    const dir = await tempDir();
    await writeFiles(dir, { ...FILES, 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: BACKSLASHED }) });
    const push = await runTms(['push', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    const pushed = JSON.parse(push.stdout);
    expect({ files: pushed.files.map((f: { path: string }) => f.path).sort(), skipped: pushed.skipped }).toEqual({ files: ['public/locales/de/common.json', 'public/locales/en/common.json'], skipped: [] });
  });

  it('pull: the same mapping writes public/locales/de/common.json (or is refused), not a new file named "public\\locales\\de\\common.json"', async () => {
    const p = await newProject(['en', 'de']);
    await importFile(p, 'en', 'i18next', JSON.stringify({ title: 'Title' }), '&namespace=common');
    await importFile(p, 'de', 'i18next', JSON.stringify({ title: 'Titel (server)' }), '&namespace=common');
    const dir = await tempDir();
    await writeFiles(dir, { ...FILES, 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: BACKSLASHED }) });
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect((await readdir(dir)).filter((name) => name.includes('\\'))).toEqual([]);
    expect(await readFile(join(dir, 'public/locales/de/common.json'), 'utf8')).toContain('Titel (server)');
  });
});

/** A scripted server on 127.0.0.1: `answer` gets each request's method and URL. */
async function stub(answer: (url: string) => { status: number; headers?: Record<string, string>; body: string }): Promise<{ base: string; server: Server }> {
  const s = createServer((req, res) => {
    const a = answer(req.url ?? '');
    res.writeHead(a.status, a.headers ?? { 'Content-Type': 'application/json' });
    res.end(a.body);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { base: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s };
}

describe('the client against answers the tms server does not give (a proxy, a CDN, a hostile server)', () => {
  it('--wait-for-quota with Retry-After as an HTTP date (RFC 9110 allows it): waits, no "unexpected error"', async () => {
    let languageCalls = 0;
    const s = await stub((url) => {
      if (url.startsWith('/v1/languages')) {
        languageCalls++;
        if (languageCalls === 1) return { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': new Date(Date.now() + 2000).toUTCString() }, body: '{"detail":"quota"}' };
        return { status: 200, body: JSON.stringify({ project_id: '00000000-0000-0000-0000-000000000000', languages: [{ code: 'de' }] }) };
      }
      if (url.startsWith('/v1/export/de')) return { status: 200, body: '{"a":"Ä"}' };
      return { status: 404, body: '{"detail":"no"}' };
    });
    try {
      const dir = await tempDir();
      await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: s.base, sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] }) });
      const run = await runTms(['pull', '--wait-for-quota'], { cwd: dir, apiKey: 'key_live_x', env: { TMS_RETRY_DELAY_SCALE: '0.01' } });
      expect(run.stderr).not.toMatch(/unexpected error/);
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await new Promise<void>((r) => s.server.close(() => r()));
    }
  });

  it('pull never writes outside the config\'s folder, whatever language codes the server names', async () => {
    const s = await stub((url) => {
      if (url.startsWith('/v1/languages')) return { status: 200, body: JSON.stringify({ project_id: '00000000-0000-0000-0000-000000000000', languages: [{ code: '../../escaped' }] }) };
      if (url.startsWith('/v1/export/')) return { status: 200, body: '{"pwned":"yes"}' };
      return { status: 404, body: '{"detail":"no"}' };
    });
    try {
      const outer = await tempDir();
      const dir = join(outer, 'repo');
      await mkdir(dir);
      await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: s.base, sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] }) });
      const run = await runTms(['pull'], { cwd: dir, apiKey: 'key_live_x' });
      expect(await exists(join(outer, 'escaped.json'))).toBe(false);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('the server named "../../escaped" as a language of the project, which is no language code; nothing was read or written');
    } finally {
      await new Promise<void>((r) => s.server.close(() => r()));
    }
  });

  it('nor where a group name the server sends points', async () => {
    const s = await stub((url) => {
      if (url.startsWith('/v1/languages')) return { status: 200, body: JSON.stringify({ project_id: '00000000-0000-0000-0000-000000000000', languages: [{ code: 'de' }] }) };
      if (url.startsWith('/v1/groups')) return { status: 200, body: JSON.stringify({ groups: ['../../escaped'] }) };
      if (url.startsWith('/v1/export/')) return { status: 200, body: '{"pwned":"yes"}' };
      return { status: 404, body: '{"detail":"no"}' };
    });
    try {
      const outer = await tempDir();
      const dir = join(outer, 'a', 'repo');
      await mkdir(dir, { recursive: true });
      await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: s.base, sourceLanguage: 'en', files: [{ path: 'l/{language}/{group}.json', format: 'json' }] }) });
      const run = await runTms(['pull'], { cwd: dir, apiKey: 'key_live_x' });
      expect(await exists(join(outer, 'escaped.json'))).toBe(false);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('the server named "../../escaped" as a group, which is no group name; nothing was written');
    } finally {
      await new Promise<void>((r) => s.server.close(() => r()));
    }
  });
});
