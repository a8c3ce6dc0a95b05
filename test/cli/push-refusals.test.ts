// Pushes that must not pass for done: no mapped file at all (exit 1, not 0 with "skipped" lines);
// --remove-unused with a mapping's source file missing (its keys would count as unused and be
// deleted); and a push whose stdout reader went away (`tms push | head -1`) still ends with its own
// exit code. The CLI runs as a child process against a real server over HTTP on the test's database.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { BIN, runTms, writeFiles } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
const dirs: string[] = [];

beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await served?.close();
});

async function newProject(): Promise<TestProject> {
  const p = await served.t.newProject('team');
  for (const code of ['en', 'de']) expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

/** A web app's i18next files and an Android app's strings, as `tms init` maps them (Android's source in values/). */
async function repository(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-push-'));
  dirs.push(dir);
  const config = {
    server: served.base,
    sourceLanguage: 'en',
    files: [
      { path: 'locales/{language}/translation.json', format: 'i18next' },
      { path: 'android/values-{language}/strings.xml', format: 'android', languagePaths: { en: 'android/values/strings.xml' } },
    ],
  };
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify(config) });
  return dir;
}

const keyNames = async (p: TestProject) => ((await (await served.t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string }[]).map((k) => k.key).sort();

const android = (strings: Record<string, string>) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${Object.entries(strings).map(([name, text]) => `    <string name="${name}">${text}</string>\n`).join('')}</resources>\n`;

describe('tms push refuses what would only look done', () => {
  it('no mapped file at all (run in the wrong folder): exit 1 naming the paths, in text and --json', async () => {
    const p = await newProject();
    const dir = await repository({});
    const text = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(text.code, text.stdout).toBe(1);
    expect(text.stderr).toMatch(/^tms push: no mapped file exists: locales\/en\/translation\.json, locales\/de\/translation\.json, android\/values\/strings\.xml, android\/values-de\/strings\.xml; nothing was pushed/);
    const json = await runTms(['push', '--dry-run', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ exit_code: 1, files: [], error: expect.stringMatching(/^no mapped file exists: /), skipped: expect.arrayContaining(['locales/en/translation.json']) });
    // A push of only a language that has no file is the same.
    await writeFiles(dir, { 'locales/en/translation.json': '{"a": "A"}' });
    expect((await runTms(['push', '--language', 'de'], { cwd: dir, apiKey: p.apiKey })).code).toBe(1);
    expect(await keyNames(p)).toEqual([]);
  });

  it('--remove-unused with one mapping\'s source file missing: exit 1, nothing pushed or removed (its keys share a group with the other mapping\'s)', async () => {
    const p = await newProject();
    // Both files' keys have no dot: they are all in the group Default.
    const dir = await repository({ 'locales/en/translation.json': JSON.stringify({ web_title: 'Notes' }), 'android/values/strings.xml': android({ app_title: 'Notes', app_open: 'Open' }) });
    const first = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(first.code, first.stderr).toBe(0);
    expect(await keyNames(p)).toEqual(['app_open', 'app_title', 'web_title']);

    // The Android file is gone (a branch without the app, a moved folder); the web file has a new key.
    await rm(join(dir, 'android/values/strings.xml'));
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify({ web_title: 'Notes', web_new: 'New' }));
    for (const args of [['push', '--remove-unused'], ['push', '--remove-unused', '--dry-run']]) {
      const r = await runTms(args, { cwd: dir, apiKey: p.apiKey });
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toMatch(/^tms push: --remove-unused: the source language's file android\/values\/strings\.xml does not exist, so the keys only it has would count as unused and be deleted; nothing was pushed/);
    }
    const json = await runTms(['push', '--remove-unused', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ exit_code: 1, files: [], removed: [], error: expect.stringMatching(/^--remove-unused: the source language's file android\/values\/strings\.xml does not exist/) });
    expect(await keyNames(p)).toEqual(['app_open', 'app_title', 'web_title']);
    // Without --remove-unused the push goes on, the missing file skipped as before.
    const plain = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('android/values/strings.xml: no file, skipped');
    expect(await keyNames(p)).toEqual(['app_open', 'app_title', 'web_new', 'web_title']);
  });

  it('stdout closed by its reader (`tms push | head -1`): the push goes on and exits with its own code', async () => {
    const p = await newProject();
    // en's file imports (a line on stdout, which fails: EPIPE); de's file is refused after it (422).
    const dir = await repository({ 'locales/en/translation.json': JSON.stringify({ menu: { open: 'Open' } }), 'locales/de/translation.json': '{"menu": ' });
    const child = spawn(process.execPath, [BIN, 'push'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', TMS_API_KEY: p.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away before the first line, as `head -1` does after it.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/locales\/de\/translation\.json: POST \/v1\/import\/de\?\S+: refused \(422\)/);
    // en's import was done before the refusal.
    expect(await keyNames(p)).toEqual(['menu.open']);
  });
});
