// One file per group (`{group}` in a mapping's path: i18next namespaces, as react-i18next and
// next-i18next lay them out), the API's `namespace` parameter under it, and what the CLI says when
// the server is slow, the connection breaks, a file is refused or the project has no languages. The
// CLI runs as a child process against a real server over HTTP on the test's database.
import { createServer, type Server } from 'node:net';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
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

async function repository(files: Record<string, string>, mappings: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-ns-'));
  dirs.push(dir);
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: mappings }) });
  return dir;
}

async function newProject(languages = ['en', 'de']): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of languages) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

const keysOf = async (p: TestProject) =>
  ((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string; group_name: string }[]).map((k) => `${k.group_name}:${k.key}`).sort();

const json = (value: unknown) => JSON.stringify(value, null, 2);
// Two namespaces of an i18next app, both with a `title`: as the app's files have them.
const COMMON_EN = { appName: 'Acme', title: 'Common title', item_one: '{{count}} item', item_other: '{{count}} items' };
const HOME_EN = { title: 'Welcome', inbox: { empty: 'Nothing here', message_one: '{{count}} message', message_other: '{{count}} messages' } };
const COMMON_DE = { appName: 'Acme', title: 'Allgemein' };
const HOME_DE = { title: 'Willkommen', inbox: { message_one: '{{count}} Nachricht', message_other: '{{count}} Nachrichten' } };
const NAMESPACES = [{ path: 'public/locales/{language}/{group}.json', format: 'i18next' }];

describe('one file per group: {group} in a path', () => {
  it('push imports each namespace file into its group; pull writes each group back to its own file', async () => {
    const p = await newProject();
    const dir = await repository(
      {
        'public/locales/en/common.json': json(COMMON_EN),
        'public/locales/en/home.json': json(HOME_EN),
        'public/locales/de/common.json': json(COMMON_DE),
        'public/locales/de/home.json': json(HOME_DE),
        'public/locales/de/README': 'not a namespace',
      },
      NAMESPACES,
    );
    const push = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('public/locales/en/common.json (en, i18next): created 3 keys, 3 values');
    expect(push.stdout).toContain('public/locales/en/home.json (en, i18next): created 3 keys, 3 values');
    // Each namespace's keys are its group's, so two `title`s are two keys.
    expect(await keysOf(p)).toEqual(['common:common.appName', 'common:common.item', 'common:common.title', 'home:home.inbox.empty', 'home:home.inbox.message', 'home:home.title']);

    // Pushed again: nothing changes, and no value flips between the namespaces.
    const again = await runTms(['push', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(JSON.parse(again.stdout).files.map((f: { values_updated: number; translation_units: number }) => f.values_updated + f.translation_units)).toEqual([0, 0, 0, 0]);

    for (const f of ['common.json', 'home.json']) await rm(join(dir, 'public/locales/de', f));
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'public/locales/de/common.json'), 'utf8'))).toEqual(COMMON_DE);
    expect(JSON.parse(await readFile(join(dir, 'public/locales/de/home.json'), 'utf8'))).toEqual(HOME_DE);
    expect((await readdir(join(dir, 'public/locales/de'))).sort()).toEqual(['README', 'common.json', 'home.json']);
    const twice = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(JSON.parse(twice.stdout).files.map((f: { state: string }) => f.state)).toEqual(['unchanged', 'unchanged']);

    // --remove-unused works per namespace: a key gone from home.json goes; common's keys stay.
    await writeFile(join(dir, 'public/locales/en/home.json'), json({ title: 'Welcome' }));
    const removed = await runTms(['push', '--language', 'en', '--remove-unused'], { cwd: dir, apiKey: p.apiKey });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/removed 2 unused keys \(restorable\): home\.inbox\.empty, home\.inbox\.message/);
    expect(await keysOf(p)).toEqual(['common:common.appName', 'common:common.item', 'common:common.title', 'home:home.title']);
  });

  it('a language without files is skipped; a file name that is no group name is said and not pushed', async () => {
    const p = await newProject(['en', 'de', 'fr']);
    const dir = await repository({ 'l/en/app.json': json({ a: 'A' }), 'l/en/ bad.json': json({ b: 'B' }) }, [{ path: 'l/{language}/{group}.json', format: 'json' }]);
    const push = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('l/en/app.json (en, json): created 1 key, 1 value');
    expect(push.stdout).toContain('l/de/{group}.json: no file, skipped');
    expect(push.stdout).toContain('l/en/ bad.json: not a group name');
    expect(await keysOf(p)).toEqual(['app:app.a']);
  });

  it('the config: languagePaths of a {group} mapping must have {group} too (exit 2)', async () => {
    const p = await newProject();
    const dir = await repository({}, [{ path: 'l/{language}/{group}.json', format: 'json', languagePaths: { en: 'l/source.json' } }]);
    const run = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/files\[0\]\.languagePaths\.en: a path containing \{group\}/);
  });
});

describe('the API under it: namespace= on import and export', () => {
  it('imports keys named without their group, exports them so; refuses two keys that would meet', async () => {
    const p = await newProject();
    const body = new TextEncoder().encode(json({ title: 'Welcome', nested: { x: 'X' } }));
    const res = await t.app.request('/v1/import/en?format=json-nested&status=approved&namespace=home', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await keysOf(p)).toEqual(['home:home.nested.x', 'home:home.title']);
    const exported = await t.call(p.apiKey, 'GET', '/v1/export/en?format=json&namespace=home');
    expect(await exported.json()).toEqual({ 'nested.x': 'X', title: 'Welcome' });
    // A key of the group without the prefix keeps its name; one that meets a stripped name is a 422.
    const loose = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'title', group_name: 'home' });
    expect(loose.status).toBe(201);
    await t.call(p.apiKey, 'PUT', `/v1/keys/${(await loose.json()).id}/translations/en`, { value: 'Other', status: 'approved' });
    const clash = await t.call(p.apiKey, 'GET', '/v1/export/en?format=json&namespace=home');
    expect(clash.status).toBe(422);
    expect(JSON.stringify(await clash.json())).toMatch(/keys 'home\.title' and 'title' of group 'home' are both 'title'/);
    const mixed = await t.call(p.apiKey, 'GET', '/v1/export/en?format=json&namespace=home&group=menu');
    expect(mixed.status).toBe(422);
    const badName = await t.app.request('/v1/import/en?format=json&namespace=..', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body });
    expect(badName.status).toBe(422);
  });
});

describe('what the CLI says when things go wrong', () => {
  it('a server that never answers: exit 1 within TMS_TIMEOUT, saying so (not "cannot reach")', async () => {
    const p = await newProject();
    const silent: Server = createServer((socket) => socket.on('data', () => {}));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const dir = await repository({ 'l/en.json': json({ a: 'A' }) }, [{ path: 'l/{language}.json', format: 'json' }]);
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const run = await runTms(['status'], { cwd: dir, apiKey: p.apiKey, env: { TMS_SERVER: url, TMS_TIMEOUT: '1' } });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s\. Set TMS_TIMEOUT/);
      const refused = await runTms(['status'], { cwd: dir, apiKey: p.apiKey, env: { TMS_SERVER: 'http://127.0.0.1:9' } });
      expect(refused.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9: .*is TMS_SERVER right\?/);
      expect((await runTms(['status'], { cwd: dir, apiKey: p.apiKey, env: { TMS_TIMEOUT: '1.5' } })).code).toBe(2);
    } finally {
      silent.close();
    }
  });

  it('a refused file is named; a project without languages is said; --json errors of unknown options', async () => {
    const p = await newProject();
    const dir = await repository({ 'l/en.json': json({ a: 'A' }), 'm/en.json': '{ not json' }, [
      { path: 'l/{language}.json', format: 'json' },
      { path: 'm/{language}.json', format: 'json' },
    ]);
    const run = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tms push: m\/en\.json: POST \/v1\/import\/en\?.*refused \(422\)/);

    const empty = await t.newProject('team');
    const none = await runTms(['push'], { cwd: dir, apiKey: empty.apiKey });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/the project has no languages yet/);

    const unknown = await runTms(['push', '--json', '--frobnicate'], { cwd: dir, apiKey: p.apiKey });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: "Unknown option '--frobnicate'", exit_code: 2 });
  });

  it('the source language missing from the project is said, not silently skipped', async () => {
    const p = await newProject(['de']);
    const dir = await repository({ 'l/en.json': json({ a: 'A' }), 'l/de.json': json({ a: 'B' }) }, [{ path: 'l/{language}.json', format: 'json' }]);
    const run = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/note: en \(sourceLanguage in the config\) is not a language of this project \(it has de\)/);
  });
});

describe("translators' work and the key's project", () => {
  it('push keeps translations edited on the server unless --conflict overwrite; the source language is overwritten', async () => {
    const p = await newProject();
    const dir = await repository({ 'l/en.json': json({ 'home.title': 'Welcome' }), 'l/de.json': json({ 'home.title': 'Willkommen' }) }, [{ path: 'l/{language}.json', format: 'json' }]);
    expect((await runTms(['push'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    const key = ((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { id: string }[])[0]!;
    // A translator improves the German text in the portal; a developer changes the English one.
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Herzlich willkommen', status: 'approved' });
    await writeFile(join(dir, 'l/en.json'), json({ 'home.title': 'Welcome home' }));
    const push = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('l/en.json (en, json): created 0 keys, 0 values; updated 1;');
    expect(push.stdout).toContain('  kept 1 value that differs on the server (--conflict overwrite replaces them)');
    const value = async (language: string) => (await (await t.call(p.apiKey, 'GET', `/v1/translations/${language}/home/home.title`)).json()).value;
    expect([await value('en'), await value('de')]).toEqual(['Welcome home', 'Herzlich willkommen']);
    const forced = await runTms(['push', '--conflict', 'overwrite', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(JSON.parse(forced.stdout).files.map((f: { values_updated: number }) => f.values_updated)).toEqual([0, 1]);
    expect(await value('de')).toBe('Willkommen');
  });

  it('a config naming its project refuses a key of another project (exit 4), before anything is sent', async () => {
    const mine = await newProject();
    const other = await newProject();
    const dir = await repository({ 'l/en.json': json({ a: 'A' }) }, [{ path: 'l/{language}.json', format: 'json' }]);
    const config = JSON.parse(await readFile(join(dir, 'tms.config.json'), 'utf8'));
    await writeFile(join(dir, 'tms.config.json'), json({ ...config, project: mine.projectId.toUpperCase() }));
    for (const command of ['push', 'pull', 'status', 'publish']) {
      const run = await runTms([command], { cwd: dir, apiKey: other.apiKey });
      expect(run.code, `${command}: ${run.stderr}`).toBe(4);
      expect(run.stderr).toContain(`the API key is a key of project ${other.projectId}, but ${join(dir, 'tms.config.json')} is for project ${mine.projectId}`);
    }
    expect(await keysOf(other)).toEqual([]);
    const status = await runTms(['status'], { cwd: dir, apiKey: mine.apiKey });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^project ${mine.projectId}: 0 keys$`, 'm'));
    await writeFile(join(dir, 'tms.config.json'), json({ ...config, project: 'acme' }));
    expect((await runTms(['status'], { cwd: dir, apiKey: mine.apiKey })).stderr).toMatch(/project: the project's id, a UUID/);
  });
});

describe('where the config is found', () => {
  it('run in a subfolder, a command finds the repository\'s tms.config.json above it', async () => {
    const p = await newProject();
    const dir = await repository({ 'l/en.json': json({ a: 'A' }), 'src/deep/x.ts': '' }, [{ path: 'l/{language}.json', format: 'json' }]);
    const run = await runTms(['push', '--language', 'en'], { cwd: join(dir, 'src', 'deep'), apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('l/en.json (en, json): created 1 key, 1 value');
  });

  it('pull refuses groups whose file names differ only in case (Home and home: one file on macOS and Windows), writing nothing', async () => {
    const p = await newProject();
    for (const group of ['Home', 'home']) {
      const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `${group}.title`, group_name: group })).json();
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: `Titel ${group}`, status: 'approved' })).status).toBe(200);
    }
    const dir = await repository({}, NAMESPACES);
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stdout).toBe(1);
    expect(pull.stderr).toContain('public/locales/de/Home.json and public/locales/de/home.json differ only in case');
    expect(pull.stderr).toContain('nothing was written');
    expect(await readdir(dir)).toEqual(['tms.config.json']);
  });
});
