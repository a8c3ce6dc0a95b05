// How `tms pull` writes: every changed file to a temporary beside it first, then all renamed into
// place, so that a file it cannot write leaves every file as it was (docs/cli.md: "a pull that
// fails writes nothing"); through symbolic links (the link stays a link), and keeping a file's mode.
// The CLI runs as a child process against a real server over HTTP on the test's database.
import { chmod, lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
const dirs: string[] = [];

beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(async () => {
  for (const d of dirs) {
    // A test that made a folder read-only gives it back, so that it can be removed.
    await chmod(join(d, 'locales', 'fr'), 0o755).catch(() => {});
    await rm(d, { recursive: true, force: true });
  }
  await served?.close();
});

const STALE = '{"stale": "local"}\n';

/** A project with en, de and fr, each translation with an approved value the local files lack. */
async function newProject(): Promise<TestProject> {
  const { t } = served;
  const p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const [language, title] of [['en', 'Welcome'], ['de', 'Willkommen'], ['fr', 'Bienvenue']] as const) {
    const res = await t.call(p.apiKey, 'POST', `/v1/import/${language}?format=i18next&status=approved`, JSON.stringify({ home: { title } }), { 'Content-Type': 'application/octet-stream' });
    expect(res.status).toBe(200);
  }
  return p;
}

async function repository(files: Record<string, string>, languagePaths?: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-pull-'));
  dirs.push(dir);
  const mapping = { path: 'locales/{language}/translation.json', format: 'i18next', ...(languagePaths ? { languagePaths } : {}) };
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify({ server: served.base, sourceLanguage: 'en', files: [mapping] }) });
  return dir;
}

const exported = async (p: TestProject, language: string) => Buffer.from(await (await served.t.call(p.apiKey, 'GET', `/v1/export/${language}?format=i18next&status=approved`)).arrayBuffer());

describe('tms pull writes all files or none', () => {
  // Root writes into a read-only folder regardless, so this failure cannot be made as root.
  it.skipIf(process.getuid?.() === 0)('a read-only folder for the second language: the first language\'s file is left as it was (exit 1, --json: written [])', async () => {
    const p = await newProject();
    const dir = await repository({ 'locales/de/translation.json': STALE, 'locales/fr/translation.json': STALE });
    await chmod(join(dir, 'locales', 'fr'), 0o555);
    const r = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(r.code, r.stderr).toBe(1);
    expect(await readFile(join(dir, 'locales/de/translation.json'), 'utf8')).toBe(STALE);
    expect(await readdir(join(dir, 'locales/de'))).toEqual(['translation.json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ written: [], exit_code: 1, error: expect.stringMatching(/^cannot write locales\/fr\/translation\.json: .*; nothing was written$/) });
  });

  it('a temporary that cannot be written (a file name too long for it) for the second language: nothing written, no temporary or new folder left', async () => {
    // Fails as root too: the temporary's name (the file's plus ".tms-<pid>.tmp") passes 255 bytes.
    const p = await newProject();
    const long = `locales/fr/${'x'.repeat(250)}.json`;
    const dir = await repository({ 'locales/de/translation.json': STALE }, { fr: long });
    const r = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(r.code, r.stderr).toBe(1);
    expect(await readFile(join(dir, 'locales/de/translation.json'), 'utf8')).toBe(STALE);
    expect(await readdir(join(dir, 'locales/de'))).toEqual(['translation.json']);
    // The folder made for fr's file is gone again.
    expect((await readdir(join(dir, 'locales'))).sort()).toEqual(['de']);
    expect(JSON.parse(r.stdout)).toMatchObject({ written: [], exit_code: 1, error: expect.stringMatching(/^cannot write locales\/fr\/x+\.json: .*; nothing was written$/) });
    expect(r.stderr).toMatch(/nothing was written\n$/);
    // Once the name is writable, the same pull writes both.
    await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: served.base, sourceLanguage: 'en', files: [{ path: 'locales/{language}/translation.json', format: 'i18next' }] }));
    const again = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(join(dir, 'locales/de/translation.json'))).toEqual(await exported(p, 'de'));
  });
});

describe('tms pull keeps links and modes', () => {
  it('writes through a symbolic link: the link stays a link, the file it names gets the bytes', async () => {
    const p = await newProject();
    const dir = await repository({ 'shared/de.json': STALE, 'locales/fr/translation.json': STALE });
    // de's file is a link into a folder shared with another app.
    await writeFiles(dir, { 'locales/de/.keep': '' });
    await symlink('../../shared/de.json', join(dir, 'locales/de/translation.json'));

    const r = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { path: string; state: string }) => [f.path, f.state])).toEqual([
      ['locales/de/translation.json', 'written'],
      ['locales/fr/translation.json', 'written'],
    ]);
    expect((await lstat(join(dir, 'locales/de/translation.json'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'shared/de.json'))).toEqual(await exported(p, 'de'));
    // No temporary left beside the file or the link.
    expect((await readdir(join(dir, 'shared'))).sort()).toEqual(['de.json']);
    expect((await readdir(join(dir, 'locales/de'))).sort()).toEqual(['.keep', 'translation.json']);
  });

  it('keeps a file\'s mode: a 0640 file stays 0640, and a linked 0600 file stays 0600', async () => {
    const p = await newProject();
    const dir = await repository({ 'shared/de.json': STALE, 'locales/fr/translation.json': STALE });
    await writeFiles(dir, { 'locales/de/.keep': '' });
    await symlink('../../shared/de.json', join(dir, 'locales/de/translation.json'));
    await chmod(join(dir, 'shared/de.json'), 0o600);
    await chmod(join(dir, 'locales/fr/translation.json'), 0o640);

    const r = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(dir, 'locales/fr/translation.json'))).toEqual(await exported(p, 'fr'));
    expect((await stat(join(dir, 'locales/fr/translation.json'))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(dir, 'locales/de/translation.json'))).toEqual(await exported(p, 'de'));
    expect((await stat(join(dir, 'locales/de/translation.json'))).mode & 0o777).toBe(0o600);
  });
});
