// The tms CLI as a user runs it: a child process (`node cli/bin/tms.js`), no terminal, CI=true,
// in a directory of real files, against a real server over HTTP on the test's database.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cp, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { FORMATS } from '../../core/formats/index.ts';
import { FORMAT_IDS } from '../../cli/src/formats.ts';
import { BIN, runTms, writeFiles, type Run } from './support/run-tms.ts';

const ROOT = join(import.meta.dirname, '..', '..');

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
/** The current test's repository. */
let dir: string;
const dirs: string[] = [];

function tms(args: string[], options: { apiKey?: string; cwd?: string; env?: Record<string, string>; bin?: string } = {}): Promise<Run> {
  return runTms(args, { ...options, cwd: options.cwd ?? dir });
}

async function tempDir(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'tms-cli-'));
  dirs.push(created);
  return created;
}

const I18NEXT_EN = { home: { title: 'Welcome', notes_one: '{{count}} note', notes_other: '{{count}} notes' }, menu: { open: 'Open', close: 'Close' } };
const I18NEXT_DE = { home: { title: 'Willkommen', notes_one: '{{count}} Notiz', notes_other: '{{count}} Notizen' }, menu: { open: 'Öffnen' } };
// The Android app's own files, as Android Studio writes them: the source language in values/.
const ANDROID_EN =
  '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_title">Notes</string>\n    <plurals name="app_count">\n        <item quantity="one">%d note</item>\n        <item quantity="other">%d notes</item>\n    </plurals>\n</resources>\n';
const ANDROID_DE =
  '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_title">Notizen</string>\n    <plurals name="app_count">\n        <item quantity="one">%d Notiz</item>\n        <item quantity="other">%d Notizen</item>\n    </plurals>\n</resources>\n';

const INIT = ['init', '--source-language', 'en', '--file', 'locales/{language}/translation.json:i18next', '--file', 'android/values-{language}/strings.xml:android'];

/** What `tms init` writes for INIT (its test checks exactly this). */
const initConfig = () => ({
  server: base,
  sourceLanguage: 'en',
  files: [
    { path: 'locales/{language}/translation.json', format: 'i18next' },
    { path: 'android/values-{language}/strings.xml', format: 'android' },
  ] as Record<string, unknown>[],
});

/**
 * A fresh repository with `files`, and the tms.config.json `tms init` writes (plus `extra` fields).
 * Written directly, not by running init again: every CLI run costs a Node start.
 */
async function repository(files: Record<string, string>, extra?: (config: Record<string, unknown>) => void): Promise<string> {
  dir = await tempDir();
  await writeFiles(dir, files);
  const config = initConfig();
  extra?.(config);
  await writeFile(join(dir, 'tms.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

/** Android's source strings live in values/, not values-en/. */
const androidSourceInValues = (config: Record<string, unknown>) => {
  (config.files as Record<string, unknown>[])[1]!.languagePaths = { en: 'android/values/strings.xml' };
};

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

async function newProject(plan: 'free' | 'team' = 'team'): Promise<TestProject> {
  const p = await t.newProject(plan);
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

const keyNames = async (p: TestProject) => ((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string }[]).map((k) => k.key).sort();

describe('tms init, help and usage errors', () => {
  it('writes tms.config.json from flags, never the API key; refuses bad flags with exit 2', async () => {
    dir = await tempDir();
    const init = await tms([...INIT, '--server', base]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toBe(`wrote ${join(dir, 'tms.config.json')}\n`);
    expect(JSON.parse(await readFile(join(dir, 'tms.config.json'), 'utf8'))).toEqual(initConfig());
    const again = await tms(['init', '--server', base, '--api-key', 'key_live_x'], { env: { TMS_API_KEY: 'key_live_y' } });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/tms\.config\.json exists; pass --force/);
    expect(await readFile(join(dir, 'tms.config.json'), 'utf8')).not.toMatch(/key_live/);

    const bad = await tms(['init', '--force', '--server', 'nope', '--source-language', 'en', '--file', 'x.json:json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/server: an http\(s\) URL/);
    expect(bad.stderr).toMatch(/files\[0\]\.path: a path containing \{language\}/);
    expect(bad.stderr).toMatch(/without a terminal, give --server, --source-language and --file/);
  });

  it('prints usage: tms --help, each command\'s --help; an unknown flag or command is exit 2 with the usage', async () => {
    dir = await tempDir();
    const help = await tms(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['init', 'push', 'pull', 'status', 'publish']) expect(help.stdout).toContain(`tms ${command}`);
    expect(help.stdout).toMatch(/Exit codes: 0 done, 1 failed \(a 429 daily call quota too\), 2 usage error, 3 translation-unit quota or plan limit \(402\), 4 authentication/);
    const flags: Record<string, string[]> = {
      init: ['--server', '--source-language', '--file', '--force'],
      push: ['--language', '--status', '--conflict', '--dry-run', '--remove-unused'],
      pull: ['--language', '--status'],
      status: ['--json'],
      publish: ['--wait', '--timeout'],
    };
    const [nothing, flag, command, version, ...own] = await Promise.all([
      tms([]),
      tms(['push', '--bogus'], { apiKey: 'x' }),
      tms(['frobnicate']),
      tms(['--version']),
      ...Object.keys(flags).map((name) => tms([name, '--help'])),
    ]);
    Object.entries(flags).forEach(([name, names], i) => {
      expect(own[i]!.code).toBe(0);
      for (const flagName of names) expect(own[i]!.stdout, `${name} ${flagName}`).toContain(flagName);
    });
    expect(nothing!.code).toBe(2);
    expect(flag!.code).toBe(2);
    expect(flag!.stderr).toMatch(/Unknown option '--bogus'/);
    expect(flag!.stderr).toContain('tms push [--language L]...');
    expect(command!.code).toBe(2);
    expect(command!.stderr).toMatch(/unknown command "frobnicate"[\s\S]*tms pull/);
    expect(version!.stdout).toMatch(/^tms \d+\.\d+\.\d+\n$/);
  });

  it('a bad config file is exit 2 naming the file and what is wrong', async () => {
    dir = await tempDir();
    const path = join(dir, 'tms.config.json');
    const missing = await tms(['pull'], { apiKey: 'key_live_x' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${path} not found: run \`tms init\` first`);

    await writeFile(path, '{"server": "http://x",');
    const broken = await tms(['pull'], { apiKey: 'key_live_x' });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${path} is not valid JSON`);

    await writeFile(path, JSON.stringify({ server: 'ftp://x', sourceLanguage: 'en', apiKey: 'key_live_x', files: [{ path: 'l/{language}.json', format: 'jsn', langaugePaths: {} }] }));
    const wrong = await tms(['push', '--config', 'tms.config.json'], { apiKey: 'key_live_x' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${path} is not a usable tms config`);
    expect(wrong.stderr).toMatch(/apiKey: API keys do not belong in the file; use TMS_API_KEY or --api-key/);
    expect(wrong.stderr).toMatch(/server: an http\(s\) URL/);
    expect(wrong.stderr).toMatch(/files\[0\]\.format: one of json, json-nested/);
    expect(wrong.stderr).toMatch(/files\[0\]\.langaugePaths: unknown field/);
  });

  it('two mappings on one file are exit 2; a config with a byte order mark is read; TMS_SERVER is held to the config\'s rule', async () => {
    const p = await newProject();
    dir = await tempDir();
    const path = join(dir, 'tms.config.json');
    const write = (files: unknown[]) => writeFile(path, JSON.stringify({ server: base, sourceLanguage: 'en', files }));
    await write([{ path: 'l/{language}.json', format: 'json' }, { path: './l/{language}.json', format: 'i18next' }]);
    const twoEntries = await tms(['push'], { apiKey: p.apiKey });
    expect(twoEntries.code).toBe(2);
    expect(twoEntries.stderr).toContain(`${path} is not a usable tms config`);
    expect(twoEntries.stderr).toMatch(/files\[1\]\.path: the same file as files\[0\]\.path/);
    await write([{ path: 'res/values-{language}/strings.xml', format: 'android', languagePaths: { en: 'res/values/strings.xml', de: 'res/values/strings.xml' } }]);
    const twoLanguages = await tms(['pull'], { apiKey: p.apiKey });
    expect(twoLanguages.code).toBe(2);
    expect(twoLanguages.stderr).toMatch(/files\[0\]\.languagePaths\.de: the same file as files\[0\]\.languagePaths\.en \("res\/values\/strings\.xml"\)/);
    await write([{ path: 'res/values-{language}/strings.xml', format: 'android', languagePaths: { en: 'res/values-de/strings.xml' } }]);
    expect((await tms(['status'], { apiKey: p.apiKey })).stderr).toMatch(/files\[0\]\.languagePaths\.en: "res\/values-de\/strings\.xml" is also files\[0\]\.path for de/);
    // Paths that only meet for one of the project's languages: refused before anything is sent.
    await write([{ path: 'de/{language}.json', format: 'json' }, { path: '{language}/de.json', format: 'json' }]);
    await writeFiles(dir, { 'de/de.json': '{"a": "b"}' });
    const atRun = await tms(['push'], { apiKey: p.apiKey });
    expect(atRun.code).toBe(2);
    expect(atRun.stderr).toContain(`${path} maps two files to de/de.json: files[0] for de and files[1] for de`);
    expect(await keyNames(p)).toEqual([]);

    await writeFile(path, '\uFEFF' + JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] }));
    const bom = await tms(['status'], { apiKey: p.apiKey });
    expect(bom.code, bom.stderr).toBe(0);
    const ftp = await tms(['status'], { apiKey: p.apiKey, env: { TMS_SERVER: 'ftp://x' } });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/TMS_SERVER: an http\(s\) URL such as "http:\/\/127\.0\.0\.1:3000", not "ftp:\/\/x"/);
  });
});

describe('tms push', () => {
  it('dry run says what would change and writes nothing; then pushes several formats; conflicts fail naming the keys', async () => {
    const p = await newProject();
    await repository(
      {
        'locales/en/translation.json': JSON.stringify(I18NEXT_EN),
        'locales/de/translation.json': JSON.stringify(I18NEXT_DE),
        'android/values/strings.xml': ANDROID_EN,
        'android/values-de/strings.xml': ANDROID_DE,
      },
      androidSourceInValues,
    );
    const dry = await tms(['push', '--dry-run', '--json'], { apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned.dry_run).toBe(true);
    expect(planned.files.map((f: { path: string; keys_created: number; values_created: number }) => [f.path, f.keys_created, f.values_created])).toEqual([
      ['locales/en/translation.json', 4, 4],
      ['locales/de/translation.json', 3, 3],
      ['android/values/strings.xml', 2, 2],
      ['android/values-de/strings.xml', 2, 2],
    ]);
    expect(planned.skipped).toEqual([]);
    expect(await keyNames(p)).toEqual([]);
    const dryText = await tms(['push', '--dry-run', '--language', 'de'], { apiKey: p.apiKey });
    expect(dryText.stdout).toContain('locales/de/translation.json (de, i18next): would create 3 keys, 3 values; would update 0; unchanged 0; 3 translation units');
    // Files of one language creating keys: no note; en's and de's (which share their keys): the note says so.
    expect(dryText.stdout).not.toContain('counted in each');
    const dryAll = await tms(['push', '--dry-run'], { apiKey: p.apiKey });
    expect(dryAll.stdout).toContain('note: 4 files would create keys, each file\'s dry run counted alone: a new key in several of them is counted in each, and the push creates it once');
    expect(await keyNames(p)).toEqual([]);

    const real = await tms(['push'], { apiKey: p.apiKey });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain('locales/en/translation.json (en, i18next): created 4 keys, 4 values; updated 0; unchanged 0; 4 translation units');
    expect(real.stdout).toContain('android/values-de/strings.xml (de, android): created 0 keys, 2 values; updated 0; unchanged 0; 2 translation units');
    expect(await keyNames(p)).toEqual(['app_count', 'app_title', 'home.notes', 'home.title', 'menu.close', 'menu.open']);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/home/home.notes')).json()).value).toBe('{count, plural, one {# Notiz} other {# Notizen}}');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/Default/app_count')).json()).value).toBe('{count, plural, one {# Notiz} other {# Notizen}}');

    // The same files again: nothing changes.
    const same = await tms(['push', '--json'], { apiKey: p.apiKey });
    expect(JSON.parse(same.stdout).files.every((f: { values_unchanged: number; values_created: number; values_updated: number }) => f.values_created + f.values_updated === 0)).toBe(true);

    await writeFile(join(dir, 'locales/de/translation.json'), JSON.stringify({ ...I18NEXT_DE, menu: { open: 'Aufmachen' } }));
    const refused = await tms(['push', '--language', 'de', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/409.*conflict=fail.*menu\.open/);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/translations/de/menu/menu.open')).json()).value).toBe('Öffnen');
    // All files with --conflict fail: de's conflict stops the push before en's new key is created.
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify({ ...I18NEXT_EN, extra: 'Extra' }));
    const none = await tms(['push', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/locales\/de\/translation\.json: .*409.*menu\.open.*nothing was pushed/s);
    expect(await keyNames(p)).not.toContain('extra');
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify(I18NEXT_EN));
    const bad = await tms(['push', '--conflict', 'sometimes'], { apiKey: p.apiKey });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--conflict must be one of overwrite, keep, fail/);

    // The server's quality warnings of what was written are printed under the file.
    await writeFile(join(dir, 'locales/de/translation.json'), JSON.stringify({ ...I18NEXT_DE, menu: { open: 'Aufmachen!' } }));
    // A translation that differs on the server is kept unless --conflict overwrite says otherwise.
    const kept = await tms(['push', '--language', 'de'], { apiKey: p.apiKey });
    expect(kept.stdout).toContain('  kept 1 value that differs on the server (--conflict overwrite replaces them)');
    const warned = await tms(['push', '--language', 'de', '--conflict', 'overwrite'], { apiKey: p.apiKey });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toMatch(/^ {2}quality \(punctuation\): menu\.open: .*exclamation/m);

    // A comment above a string is its key's description: a push that changes one says so (with
    // --conflict overwrite; keep, the default, leaves the server's as they are).
    await writeFile(join(dir, 'android/values-de/strings.xml'), ANDROID_DE.replace('    <string name="app_title">', '    <!-- The app\'s name on the home screen -->\n    <string name="app_title">'));
    const described = await tms(['push', '--language', 'de', '--conflict', 'overwrite'], { apiKey: p.apiKey });
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toContain('  changed the description of 1 key');
  }, 90_000);

  it('--conflict fail: files of one language that give a new key different texts write nothing; agreeing texts push', async () => {
    // A web app's i18next file and an Android app's strings.xml of one project, sharing key names.
    const p = await newProject();
    const androidEn = (title: string, name: string) =>
      `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_title">${title}</string>\n    <string name="app_name">${name}</string>\n</resources>\n`;
    await repository(
      { 'locales/en/translation.json': JSON.stringify({ app_title: 'Notes', app_name: 'Notes app' }), 'android/values/strings.xml': androidEn('Notes', 'NotesApp') },
      androidSourceInValues,
    );
    // Each file alone passes its dry run (the keys are new); together the second would be refused
    // after the first was written. The check names the key, both texts and both files.
    const refused = await tms(['push', '--language', 'en', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stderr).toContain('app_name (en): "Notes app" in locales/en/translation.json, "NotesApp" in android/values/strings.xml');
    expect(refused.stderr).toContain('Nothing was pushed');
    expect(refused.stderr).not.toContain('app_title');
    expect(await keyNames(p)).toEqual([]);
    // Where they agree, the push goes through, and each key is created once.
    await writeFile(join(dir, 'android/values/strings.xml'), androidEn('Notes', 'Notes app'));
    const agreed = await tms(['push', '--language', 'en', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(await keyNames(p)).toEqual(['app_name', 'app_title']);
    expect(agreed.stdout).toContain('android/values/strings.xml (en, android): created 0 keys, 0 values; updated 0; unchanged 2');
  });

  it('--conflict fail: files that pass the quota only together write nothing (exit 3); a key repeated with one text is counted once', async () => {
    const p = await newProject('free');
    await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 2 });
    // 3 units each; the hard limit is twice the allowance: 4. Each file's dry run fits alone.
    await repository({ 'locales/en/translation.json': JSON.stringify({ a: { one: '1', two: '2', three: '3' } }), 'locales/de/translation.json': JSON.stringify({ a: { one: 'eins', two: 'zwei', three: 'drei' } }) });
    const refused = await tms(['push', '--conflict', 'fail', '--json'], { apiKey: p.apiKey });
    expect(refused.code, refused.stderr).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ dry_run: false, files: [], error: expect.stringMatching(/QUOTA_EXCEEDED\): each file fits alone, but together the push would use at least 6 of 4.*Nothing was pushed/) });
    expect(await keyNames(p)).toEqual([]);

    // Two files of one language sharing keys and texts: the second finds them stored, free, so the
    // push (3 units) fits though the dry runs add up to 6.
    const androidEn = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="b">B</string>\n    <string name="c">C</string>\n    <string name="d">D</string>\n</resources>\n';
    await repository({ 'locales/en/translation.json': JSON.stringify({ b: 'B', c: 'C', d: 'D' }), 'android/values/strings.xml': androidEn }, androidSourceInValues);
    const pushed = await tms(['push', '--language', 'en', '--conflict', 'fail'], { apiKey: p.apiKey });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await keyNames(p)).toEqual(['b', 'c', 'd']);
    expect(pushed.stdout).toContain('android/values/strings.xml (en, android): created 0 keys, 0 values; updated 0; unchanged 3');
  });

  it('--remove-unused lists (dry run), then soft-deletes, only the pushed groups\' keys the source files dropped', async () => {
    const p = await newProject();
    await repository({ 'locales/en/translation.json': JSON.stringify(I18NEXT_EN), 'android/values/strings.xml': ANDROID_EN }, androidSourceInValues);
    expect((await tms(['push'], { apiKey: p.apiKey })).code).toBe(0);
    // A key of a group the files never mention stays whatever happens.
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'other.thing', group_name: 'other' })).status).toBe(201);
    await writeFile(join(dir, 'locales/en/translation.json'), JSON.stringify({ home: I18NEXT_EN.home, menu: { open: 'Open' } }));
    await writeFile(join(dir, 'android/values/strings.xml'), ANDROID_EN.replace(/ *<string name="app_title">.*\n/, ''));

    const dry = await tms(['push', '--remove-unused', '--dry-run'], { apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe('would remove 2 unused keys: app_title, menu.close');
    expect(await keyNames(p)).toEqual(['app_count', 'app_title', 'home.notes', 'home.title', 'menu.close', 'menu.open', 'other.thing']);

    const real = await tms(['push', '--remove-unused', '--json'], { apiKey: p.apiKey });
    expect(real.code, real.stderr).toBe(0);
    expect(JSON.parse(real.stdout).removed).toEqual([
      { id: expect.any(String), key: 'app_title', group: 'Default' },
      { id: expect.any(String), key: 'menu.close', group: 'menu' },
    ]);
    expect(await keyNames(p)).toEqual(['app_count', 'home.notes', 'home.title', 'menu.open', 'other.thing']);
    // Nothing left to remove; and without the source language's files there is nothing to compare.
    expect((await tms(['push', '--remove-unused'], { apiKey: p.apiKey })).stdout).toMatch(/^no unused keys$/m);
    const noSource = await tms(['push', '--remove-unused', '--language', 'de'], { apiKey: p.apiKey });
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toMatch(/--remove-unused needs the source language's files: add --language en/);
  });

  it('runs from a copy of cli/ alone: it imports nothing of the server (a YAML project, --remove-unused)', async () => {
    for (const file of execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'cli'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.ts') || f.endsWith('.js'))) {
      expect(await readFile(join(ROOT, file), 'utf8'), file).not.toMatch(/from '(\.\.\/)+(core|functions)\/|import\('(\.\.\/)+(core|functions)\//);
    }
    const alone = await tempDir();
    await cp(join(ROOT, 'cli'), join(alone, 'cli'), { recursive: true, filter: (src) => !src.includes('node_modules') });
    await symlink(join(ROOT, 'node_modules'), join(alone, 'node_modules'));
    const p = await newProject();
    dir = await tempDir();
    await writeFiles(dir, { 'config/locales/en.yml': 'en:\n  home:\n    title: Welcome\n    notes:\n      one: "%{count} note"\n      other: "%{count} notes"\n    gone: Bye\n  other: Other\n' });
    const bin = join(alone, 'cli', 'bin', 'tms.js');
    expect((await tms(['init', '--server', base, '--source-language', 'en', '--file', 'config/locales/{language}.yml:yaml'], { bin })).code).toBe(0);
    expect((await tms(['push'], { apiKey: p.apiKey, bin })).code).toBe(0);
    await writeFile(join(dir, 'config/locales/en.yml'), 'en:\n  home:\n    title: Welcome\n    notes:\n      one: "%{count} note"\n      other: "%{count} notes"\n');
    const dry = await tms(['push', '--remove-unused', '--dry-run', '--json'], { apiKey: p.apiKey, bin });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).removed.map((k: { key: string }) => k.key)).toEqual(['home.gone']);
  });

  it('a dry run is refused (exit 3) when the files together pass the quota, though each alone fits; --json then lists the files applied before the refusal', async () => {
    const p = await newProject('free');
    await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 2 });
    // 3 units each; the hard limit is twice the allowance: 4.
    await repository({ 'locales/en/translation.json': JSON.stringify({ a: { one: '1', two: '2', three: '3' } }), 'locales/de/translation.json': JSON.stringify({ a: { one: 'eins', two: 'zwei', three: 'drei' } }) });
    const dry = await tms(['push', '--dry-run'], { apiKey: p.apiKey });
    expect(dry.code, dry.stdout).toBe(3);
    expect(dry.stdout).toContain('locales/en/translation.json (en, i18next): would create 3 keys, 3 values; would update 0; unchanged 0; 3 translation units');
    expect(dry.stdout).not.toContain('locales/de/translation.json');
    expect(dry.stderr).toMatch(/POST \/v1\/import\/de\?\S+: monthly translation-unit quota exceeded \(402 QUOTA_EXCEEDED\): with the files before it, the push would use 6 of 4; the quota resets on \d{4}-\d{2}-01\. Upgrade the plan/);
    const dryJson = JSON.parse((await tms(['push', '--dry-run', '--json'], { apiKey: p.apiKey })).stdout);
    expect(dryJson).toMatchObject({ dry_run: true, exit_code: 3, error: expect.stringMatching(/QUOTA_EXCEEDED/), skipped: ['android/values-en/strings.xml', 'android/values-de/strings.xml'] });
    expect(dryJson.files.map((f: { path: string }) => f.path)).toEqual(['locales/en/translation.json']);
    expect(await keyNames(p)).toEqual([]);

    // The real push gives the same answer, with the first file applied: --json says so.
    const real = await tms(['push', '--json'], { apiKey: p.apiKey });
    expect(real.code).toBe(3);
    const half = JSON.parse(real.stdout);
    expect(half).toMatchObject({ dry_run: false, exit_code: 3, error: expect.stringMatching(/QUOTA_EXCEEDED.*use 6 of 4/), removed: [] });
    expect(half.files).toEqual([expect.objectContaining({ path: 'locales/en/translation.json', language: 'en', format: 'i18next', keys_created: 3, translation_units: 3 })]);
    expect(await keyNames(p)).toEqual(['a.one', 'a.three', 'a.two']);
    // Files that cost nothing pass whatever the usage, on the server and in a dry run alike.
    expect((await tms(['push', '--dry-run', '--language', 'en'], { apiKey: p.apiKey })).code).toBe(0);
  });

  it('the plan\'s key limit (402) is exit 3 with the server\'s one sentence of advice, said once', async () => {
    const p = await newProject('free');
    await repository({ 'locales/en/translation.json': JSON.stringify(Object.fromEntries(Array.from({ length: 251 }, (_, i) => [`k${i}`, 'v']))) });
    const r = await tms(['push', '--language', 'en'], { apiKey: p.apiKey });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/: plan limit reached \(402\): Key limit reached: the free plan allows 250 keys per project \(this project has 0\)\. Upgrade the plan to add more\.\n$/);
    expect(r.stderr).not.toMatch(/\.\./);
  });

  it('exit 3 with used, limit, reset date and upgrade URL when the quota is spent; exit 4 for a revoked key', async () => {
    const p = await newProject('free');
    await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 2 });
    await repository({ 'locales/en/translation.json': JSON.stringify({ a: { one: '1', two: '2', three: '3', four: '4', five: '5' } }) });
    const spent = await tms(['push', '--language', 'en'], { apiKey: p.apiKey });
    expect(spent.code).toBe(3);
    expect(spent.stderr).toMatch(/QUOTA_EXCEEDED.*use 5 of 4; the quota resets on \d{4}-\d{2}-01\. Upgrade the plan: \S+/);
    const spentJson = await tms(['push', '--language', 'en', '--json'], { apiKey: p.apiKey });
    expect(JSON.parse(spentJson.stdout)).toMatchObject({ exit_code: 3, error: expect.stringMatching(/QUOTA_EXCEEDED/) });
    expect(await keyNames(p)).toEqual([]);

    const extra = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json();
    // A secret pasted with its newline still works.
    expect((await tms(['status'], { env: { TMS_API_KEY: `${extra.key}\n` } })).code).toBe(0);
    await t.admin('DELETE', `/api-keys/${extra.id}`);
    const denied = await tms(['push'], { apiKey: extra.key });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/401.*Set TMS_API_KEY \(or --api-key\) to a key of this project/);
    const none = await tms(['status']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no API key: set TMS_API_KEY or pass --api-key/);
  });
});

describe('tms pull, status and publish', () => {
  it('pull writes every language into an empty tree, creating folders; a second pull leaves bytes, mtime and git alone', async () => {
    const p = await newProject();
    await repository(
      {
        'locales/en/translation.json': JSON.stringify(I18NEXT_EN),
        'locales/de/translation.json': JSON.stringify(I18NEXT_DE),
        'android/values/strings.xml': ANDROID_EN,
        'android/values-de/strings.xml': ANDROID_DE,
      },
      androidSourceInValues,
    );
    expect((await tms(['push'], { apiKey: p.apiKey })).code).toBe(0);
    // A fresh clone: only the config.
    const config = await readFile(join(dir, 'tms.config.json'));
    dir = await tempDir();
    await writeFile(join(dir, 'tms.config.json'), config);
    const first = await tms(['pull', '--json', '--include-source'], { apiKey: p.apiKey });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).files.map((f: { path: string; state: string }) => [f.path, f.state])).toEqual([
      ['locales/en/translation.json', 'created'],
      ['locales/de/translation.json', 'created'],
      ['android/values/strings.xml', 'created'],
      ['android/values-de/strings.xml', 'created'],
    ]);
    expect(JSON.parse(first.stdout).skipped).toEqual([]);
    const android = await readFile(join(dir, 'android/values-de/strings.xml'), 'utf8');
    expect(android).toContain('<plurals name="app_count">');
    expect(android).toContain('<item quantity="other">%d Notizen</item>');
    expect(JSON.parse(await readFile(join(dir, 'locales/de/translation.json'), 'utf8'))).toEqual({ ...I18NEXT_DE, app_count_one: '{{count}} Notiz', app_count_other: '{{count}} Notizen', app_title: 'Notizen' });
    // Exactly the server's export.
    const exported = await t.call(p.apiKey, 'GET', '/v1/export/de?format=android');
    expect(await readFile(join(dir, 'android/values-de/strings.xml'))).toEqual(Buffer.from(await exported.arrayBuffer()));

    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'translations');
    const before = await stat(join(dir, 'android/values-de/strings.xml'));
    await new Promise((r) => setTimeout(r, 20));
    // From elsewhere, with --config: paths are relative to the config's directory.
    const second = await tms(['pull', '--json', '--include-source', '--config', join(basename(dir), 'tms.config.json')], { apiKey: p.apiKey, cwd: dirname(dir) });
    expect(second.code, second.stderr).toBe(0);
    // Unchanged, and not even downloaded: the local file's ETag got a 304.
    expect(JSON.parse(second.stdout).files.map((f: { state: string; downloaded: boolean }) => [f.state, f.downloaded])).toEqual(Array(4).fill(['unchanged', false]));
    expect((await stat(join(dir, 'android/values-de/strings.xml'))).mtimeMs).toBe(before.mtimeMs);
    expect(git('status', '--porcelain')).toBe('');

    // A local edit is put back (through a temporary file: none is left behind); a new value arrives.
    await writeFile(join(dir, 'locales/de/translation.json'), '{"edited": "locally"}');
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${(await (await t.call(p.apiKey, 'GET', '/v1/keys?group=menu')).json()).keys.find((k: { key: string }) => k.key === 'menu.close').id}/translations/de`, { value: 'Schließen', status: 'approved' })).status).toBe(200);
    const third = await tms(['pull', '--language', 'de'], { apiKey: p.apiKey });
    expect(third.stdout).toContain('locales/de/translation.json (de, i18next): written');
    expect(third.stdout).toContain('android/values-de/strings.xml (de, android): written');
    expect(git('status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([' M android/values-de/strings.xml', ' M locales/de/translation.json']);
    expect(git('diff', 'locales/de/translation.json')).toMatch(/^\+ +"close": "Schließen"/m);
    expect((await readdir(join(dir, 'locales/de'))).sort()).toEqual(['translation.json']);
  });

  it('pull leaves the source language\'s files alone unless asked: what the server does not store stays, and push, pull, git diff passes', async () => {
    const p = await newProject();
    // What developers write and the server does not keep: an untranslatable string, a comment.
    const androidEn = ANDROID_EN.replace('<resources>\n', '<resources>\n    <!-- The brand: never translated -->\n    <string name="brand" translatable="false">Notely</string>\n');
    const enJson = '{\n    "menu": {"open": "Open"}\n}\n';
    await repository({ 'locales/en/translation.json': enJson, 'android/values/strings.xml': androidEn, 'android/values-de/strings.xml': ANDROID_DE }, androidSourceInValues);
    expect((await tms(['push', '--language', 'en'], { apiKey: p.apiKey })).code).toBe(0);
    const pulled = await tms(['pull'], { apiKey: p.apiKey });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('android/values/strings.xml (en, android): skipped (source language: pulled only with --include-source or --language en)\n');
    expect(pulled.stdout).toContain('locales/de/translation.json (de, i18next): created');
    expect(await readFile(join(dir, 'android/values/strings.xml'), 'utf8')).toBe(androidEn);
    expect(await readFile(join(dir, 'locales/en/translation.json'), 'utf8')).toBe(enJson);
    const json = JSON.parse((await tms(['pull', '--json'], { apiKey: p.apiKey })).stdout);
    expect(json.files.map((f: { path: string }) => f.path)).toEqual(['locales/de/translation.json', 'android/values-de/strings.xml']);
    expect(json.skipped).toEqual([
      { path: 'locales/en/translation.json', language: 'en', format: 'i18next', reason: 'source language: pulled only with --include-source or --language en' },
      { path: 'android/values/strings.xml', language: 'en', format: 'android', reason: 'source language: pulled only with --include-source or --language en' },
    ]);
    // Asked for by name, the source language is written: as the server stores it.
    const named = await tms(['pull', '--language', 'en', '--json'], { apiKey: p.apiKey });
    expect(JSON.parse(named.stdout).files.map((f: { path: string; state: string }) => [f.path, f.state])).toEqual([
      ['locales/en/translation.json', 'written'],
      ['android/values/strings.xml', 'written'],
    ]);
    expect(await readFile(join(dir, 'android/values/strings.xml'), 'utf8')).not.toContain('brand');
  });

  it('status counts per language and status; publish --wait returns once the cache is built', async () => {
    const p = await newProject();
    await repository({ 'locales/de/translation.json': JSON.stringify(I18NEXT_DE) });
    expect((await tms(['push', '--language', 'de', '--status', 'review'], { apiKey: p.apiKey })).code).toBe(0);
    // An English text written after the German one: the German value is outdated.
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()) as { keys: { id: string; key: string }[] };
    const title = keys.keys.find((k) => k.key === 'home.title')!;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${title.id}/translations/en`, { value: 'Welcome' })).status).toBe(200);
    const s = await tms(['status', '--json'], { apiKey: p.apiKey });
    expect(s.code, s.stderr).toBe(0);
    const report = JSON.parse(s.stdout);
    expect(report.keys).toBe(3);
    expect(report.languages).toEqual([
      { language: 'en', draft: 1, review: 0, approved: 0, missing: 2, outdated: 0 },
      { language: 'de', draft: 0, review: 3, approved: 0, missing: 0, outdated: 1 },
    ]);
    expect(report.cache.ready).toBe(false);
    expect(report.usage).toMatchObject({ translation_units_used: 3, translation_units_allowance: 100000, calls_today: expect.any(Number) });
    const text = await tms(['status'], { apiKey: p.apiKey });
    expect(text.stdout).toMatch(/^language +approved +review +draft +missing +outdated$/m);
    expect(text.stdout).toMatch(/^de +0 +3 +0 +0 +1$/m);
    expect(text.stdout).toMatch(/^cache: not built yet \(tms publish\)$/m);
    expect(text.stdout).toMatch(/^translation units this month: 3 of 100000 \(resets \d{4}-\d{2}-\d{2}\)$/m);

    // A server older than the outdated filter refuses the parameter (422, as it refuses any it does
    // not know): the column says "-", the command still succeeds.
    const older = serve({
      fetch: (req) =>
        new URL(req.url).searchParams.has('outdated')
          ? Response.json({ detail: [{ loc: ['query', 'outdated'], msg: "Unknown field 'outdated'", type: 'extra_forbidden' }] }, { status: 422 })
          : t.app.fetch(req),
      port: 0,
      hostname: '127.0.0.1',
    });
    await new Promise<void>((r) => older.once('listening', () => r()));
    try {
      const old = await tms(['status', '--json'], { apiKey: p.apiKey, env: { TMS_SERVER: `http://127.0.0.1:${(older.address() as AddressInfo).port}` } });
      expect(old.code, old.stderr).toBe(0);
      expect(JSON.parse(old.stdout).languages.map((l: { outdated: unknown }) => l.outdated)).toEqual([null, null]);
    } finally {
      await new Promise<void>((r) => older.close(() => r()));
    }

    const published = await tms(['publish', '--wait', '--json'], { apiKey: p.apiKey });
    expect(published.code, published.stderr).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ ready: true, last_rebuilt_at: expect.any(String) });
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).status).toBe(200);
    expect((await tms(['status', '--json'], { apiKey: p.apiKey }).then((r) => JSON.parse(r.stdout))).cache.ready).toBe(true);
  });
});

describe('the CLI\'s contract with the server', () => {
  it('knows exactly the server\'s formats', () => {
    expect(FORMAT_IDS).toEqual(Object.keys(FORMATS));
  });

  it('follows the retry guidance: 500 once, 503 three times, 429 only with --wait-for-quota', async () => {
    // A server that fails as scripted, then answers: only the client's retrying is under test here.
    // Each scenario has its own script under its own path prefix (the CLI's base URL), so that
    // they run at once; only GET .../v1/usage follows the script (status sends four reads at once).
    const scripts = new Map<string, { statuses: number[]; calls: number }>();
    const stub = createServer((req, res) => {
      const [, scenario, rest] = /^\/([^/]+)(\/.*)$/.exec(req.url ?? '') ?? [];
      const script = scripts.get(scenario ?? '');
      if (script && rest === '/v1/usage') script.calls++;
      const status = script && rest === '/v1/usage' ? (script.statuses.shift() ?? 200) : 200;
      res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 429 ? { 'Retry-After': '1' } : {}) });
      res.end(JSON.stringify(status === 200 ? { calls_today: 1, daily_limit: 5, translation_units_used: 0, translation_units_allowance: 1, cycle_resets_at: '2026-12-01T00:00:00.000Z', keys: [], languages: [], ready: true, last_rebuilt_at: null } : { detail: `scripted ${status}` }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
    const stubBase = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    await repository({});
    try {
      const run = async (statuses: number[], args: string[] = ['status']) => {
        const name = `s${scripts.size}`;
        const script = { statuses: [...statuses], calls: 0 };
        scripts.set(name, script);
        const r = await tms(args, { apiKey: 'key_live_' + 'A'.repeat(40), env: { TMS_SERVER: `${stubBase}/${name}`, TMS_RETRY_DELAY_SCALE: '0.01' } });
        return { code: r.code, calls: script.calls, stderr: r.stderr };
      };
      const [once, twice, backoff, tooMany, limited, waited] = await Promise.all([
        run([500]),
        run([500, 500]),
        run([503, 503, 503]),
        run([503, 503, 503, 503]),
        run([429]),
        run([429], ['status', '--wait-for-quota']),
      ]);
      expect(once).toMatchObject({ code: 0, calls: 2 });
      expect(twice).toMatchObject({ code: 1, calls: 2 });
      expect(backoff).toMatchObject({ code: 0, calls: 4 });
      expect(tooMany).toMatchObject({ code: 1, calls: 4 });
      expect(limited).toMatchObject({ code: 1, calls: 1 });
      expect(limited!.stderr).toMatch(/retry after 1 s \(or run with --wait-for-quota\)/);
      expect(waited).toMatchObject({ code: 0, calls: 2 });
      // A wait for the daily quota can last until midnight UTC: it says so, once, on stderr.
      expect(waited!.stderr).toMatch(/^tms status: the daily API call quota is spent \(429\); waiting until \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z \(\d+ s\) for its reset, as --wait-for-quota asks\n$/);
    } finally {
      await new Promise<void>((r) => stub.close(() => r()));
    }
    // A server that is not there (the stub's port, closed): exit 1, saying where it looked.
    const down = await tms(['status'], { apiKey: 'key_live_x', env: { TMS_SERVER: stubBase } });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`cannot reach ${stubBase}: ECONNREFUSED. Is the server running`);
  });

  it('publish --wait waits until no requested build is pending, not merely for a new last_rebuilt_at', async () => {
    // An earlier build (an auto-publish) finishes after the request: last_rebuilt_at moves while the
    // requested build is still pending. Only the build after it covers what the caller published.
    const statuses = [
      { ready: true, last_rebuilt_at: '2026-11-26T10:00:00.000Z', pending: false },
      { ready: true, last_rebuilt_at: '2026-11-26T10:00:01.000Z', pending: true },
      { ready: true, last_rebuilt_at: '2026-11-26T10:00:02.000Z', pending: false },
    ];
    const seen: string[] = [];
    const stub = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const body = req.method === 'POST' ? { project_id: 'p', status: 'queued', message: 'queued' } : statuses.shift() ?? { ready: false, last_rebuilt_at: null, pending: true };
      res.writeHead(req.method === 'POST' ? 202 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
    try {
      await repository({});
      const r = await tms(['publish', '--wait', '--json'], { apiKey: 'key_live_' + 'A'.repeat(40), env: { TMS_SERVER: `http://127.0.0.1:${(stub.address() as AddressInfo).port}` } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ready: true, last_rebuilt_at: '2026-11-26T10:00:02.000Z' });
      expect(seen).toEqual(['GET /v1/cache/status', 'POST /v1/cache/rebuild', 'GET /v1/cache/status', 'GET /v1/cache/status']);
    } finally {
      await new Promise<void>((r) => stub.close(() => r()));
    }
  });
});
