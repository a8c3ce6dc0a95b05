// A `tag` per mapping in tms.config.json (one project, several apps in one repository): push tags
// every key of a mapping's files with the mapping's tag, pull writes into each mapping's files only
// the keys with its tag, --remove-unused removes a key only for the mapping whose tag it has. As a
// user runs it: the CLI as a child process against a real server over HTTP.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles } from '../cli/support/run-tms.ts';
import { serveTestApp, type ServedApp } from '../cli/support/served-app.ts';

let app: ServedApp;
const dirs: string[] = [];

beforeAll(async () => {
  app = await serveTestApp();
}, 60_000);
afterAll(async () => {
  await app?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const json = (value: unknown) => JSON.stringify(value, null, 2);
const read = async (dir: string, path: string) => JSON.parse(await readFile(join(dir, path), 'utf8')) as unknown;

/** The two apps of one repository: the web app's files tagged web, the mobile app's tagged mobile. */
const MAPPINGS = [
  { path: 'apps/web/locales/{language}.json', format: 'i18next', tag: 'web' },
  { path: 'apps/mobile/i18n/{language}.json', format: 'json', tag: 'mobile' },
];
const WEB = {
  en: { home: { title: 'Welcome', banner: 'Try the web app' } },
  de: { home: { title: 'Willkommen', banner: 'Probier die Web-App' } },
};
const MOBILE = {
  en: { 'home.title': 'Welcome', 'push.optIn': 'Allow notifications' },
  de: { 'home.title': 'Willkommen', 'push.optIn': 'Mitteilungen erlauben' },
};

async function repository(files: Record<string, string>, mappings: unknown[] = MAPPINGS): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-config-tags-'));
  dirs.push(dir);
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify({ server: app.base, sourceLanguage: 'en', files: mappings }) });
  return dir;
}

const bothApps = () =>
  repository({
    'apps/web/locales/en.json': json(WEB.en),
    'apps/web/locales/de.json': json(WEB.de),
    'apps/mobile/i18n/en.json': json(MOBILE.en),
    'apps/mobile/i18n/de.json': json(MOBILE.de),
  });

async function newProject(): Promise<TestProject> {
  const p = await app.t.newProject('team');
  for (const code of ['en', 'de']) expect((await app.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

/** The project's live keys with their tags, `key: tags`. */
const tagsOf = async (p: TestProject) =>
  Object.fromEntries(((await (await app.t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string; tags: string[] }[]).map((k) => [k.key, k.tags]));

describe('a tag per mapping', () => {
  it("push tags each app's keys with its mapping's tag (a key both apps use gets both); pull writes each app only its keys", async () => {
    const p = await newProject();
    const dir = await bothApps();
    const push = await runTms(['push', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(await tagsOf(p)).toEqual({ 'home.banner': ['web'], 'home.title': ['mobile', 'web'], 'push.optIn': ['mobile'] });
    // The text output names each file's tag where existing keys got it.
    const again = await runTms(['push', '--dry-run'], { cwd: dir, apiKey: p.apiKey });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/would tag/);

    // Approved server-side (the push's default status for the source; translations are kept): a
    // fresh checkout of both apps gets each app's keys in its own files.
    const fresh = await repository({});
    const pull = await runTms(['pull', '--include-source', '--json'], { cwd: fresh, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    const files = (JSON.parse(pull.stdout) as { files: { path: string; tag?: string; state: string }[] }).files;
    expect(files.map((f) => [f.path, f.tag, f.state]).sort()).toEqual([
      ['apps/mobile/i18n/de.json', 'mobile', 'created'],
      ['apps/mobile/i18n/en.json', 'mobile', 'created'],
      ['apps/web/locales/de.json', 'web', 'created'],
      ['apps/web/locales/en.json', 'web', 'created'],
    ]);
    expect(await read(fresh, 'apps/web/locales/de.json')).toEqual(WEB.de);
    expect(await read(fresh, 'apps/mobile/i18n/de.json')).toEqual(MOBILE.de);
    expect(await read(fresh, 'apps/mobile/i18n/en.json')).toEqual(MOBILE.en);
  });

  it('a key another app tags is added to the project, not to this app: an untagged key is in no tagged file', async () => {
    const p = await newProject();
    const dir = await bothApps();
    expect((await runTms(['push'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    // A key created in the portal, tagged by nobody yet.
    expect((await app.t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=approved', JSON.stringify({ 'loose.key': 'Lose' }), { 'Content-Type': 'application/octet-stream' })).status).toBe(200);
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect(await read(dir, 'apps/web/locales/de.json')).toEqual(WEB.de);
    expect(await read(dir, 'apps/mobile/i18n/de.json')).toEqual(MOBILE.de);
  });

  it("--remove-unused removes a key only for the app whose tag it has, and untags what that app dropped while another keeps it; an untagged key is no app's to remove", async () => {
    const p = await newProject();
    const dir = await bothApps();
    expect((await runTms(['push'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    expect((await app.t.call(p.apiKey, 'POST', '/v1/import/en?format=json&status=approved', JSON.stringify({ 'home.untagged': 'Nobody’s' }), { 'Content-Type': 'application/octet-stream' })).status).toBe(200);
    // The mobile app drops push.optIn and home.title; home.title stays the web app's.
    await writeFile(join(dir, 'apps/mobile/i18n/en.json'), json({ 'push.later': 'Later' }));
    const dry = await runTms(['push', '--language', 'en', '--remove-unused', '--dry-run'], { cwd: dir, apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would remove 1 unused key: push.optIn');
    expect(dry.stdout).toContain('would untag 1 key "mobile" (no longer in its files, kept): home.title');
    expect(await tagsOf(p)).toMatchObject({ 'home.title': ['mobile', 'web'] });
    const run = await runTms(['push', '--language', 'en', '--remove-unused', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    const done = JSON.parse(run.stdout) as { removed: { key: string }[]; untagged: { key: string; tag: string }[] };
    expect(done.removed.map((k) => k.key)).toEqual(['push.optIn']);
    expect(done.untagged.map((k) => [k.key, k.tag])).toEqual([['home.title', 'mobile']]);
    // home.title is the web app's alone now: the mobile app's next pull leaves it out.
    expect(await tagsOf(p)).toEqual({ 'home.banner': ['web'], 'home.title': ['web'], 'home.untagged': [], 'push.later': ['mobile'] });
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    // push.optIn removed, push.later not translated yet, home.title no longer the mobile app's.
    expect(await read(dir, 'apps/mobile/i18n/de.json')).toEqual({});
    expect(await read(dir, 'apps/web/locales/de.json')).toEqual(WEB.de);
    // With an untagged mapping beside them, that mapping's files speak for every key of their groups.
    const all = await repository({ 'all/en.json': json({ 'home.title': 'Welcome', 'home.banner': 'Try the web app' }) }, [{ path: 'all/{language}.json', format: 'json' }]);
    const wide = await runTms(['push', '--language', 'en', '--remove-unused', '--dry-run'], { cwd: all, apiKey: p.apiKey });
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toContain('would remove 1 unused key: home.untagged');
  });

  it('--tag with mappings of another tag is refused (exit 2) before anything is sent; the same tag is allowed', async () => {
    const p = await newProject();
    const dir = await bothApps();
    for (const command of ['push', 'pull']) {
      const run = await runTms([command, '--tag', 'web'], { cwd: dir, apiKey: p.apiKey });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/--tag "web": files\[1\] of .*tms\.config\.json has the tag "mobile"/);
    }
    expect(await tagsOf(p)).toEqual({});
    const web = await repository({ 'apps/web/locales/en.json': json(WEB.en) }, [MAPPINGS[0], { path: 'other/{language}.json', format: 'json' }]);
    const run = await runTms(['push', '--tag', 'web', '--language', 'en'], { cwd: web, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(await tagsOf(p)).toEqual({ 'home.banner': ['web'], 'home.title': ['web'] });
  });

  it('pull refuses a mapping tag no key has (exit 2), writing nothing', async () => {
    const p = await newProject();
    const dir = await bothApps();
    expect((await runTms(['push', '--language', 'en'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    const typo = await repository({ 'apps/mobile/i18n/de.json': json({ old: 'Alt' }) }, [MAPPINGS[0], { ...MAPPINGS[1], tag: 'moblie' }]);
    const run = await runTms(['pull'], { cwd: typo, apiKey: p.apiKey });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/files\[1\]\.tag "moblie": no key of this project has this tag \(its tags: mobile, web\); nothing was written/);
    expect(await read(typo, 'apps/mobile/i18n/de.json')).toEqual({ old: 'Alt' });
    expect(await readdir(join(typo, 'apps'))).toEqual(['mobile']);
  });

  it('a {group} mapping with a tag pulls one file per group that has keys with it', async () => {
    const p = await newProject();
    expect((await runTms(['push', '--language', 'en'], { cwd: await bothApps(), apiKey: p.apiKey })).code).toBe(0);
    const dir = await repository({}, [{ path: 'mobile/{language}/{group}.json', format: 'json', tag: 'mobile' }]);
    const pull = await runTms(['pull', '--include-source'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect((await readdir(join(dir, 'mobile/en'))).sort()).toEqual(['home.json', 'push.json']);
    expect(await read(dir, 'mobile/en/home.json')).toEqual({ title: 'Welcome' });
  });
});

describe('a bad tag in the config', () => {
  const bad: [unknown, RegExp][] = [
    ['', /files\[0\]\.tag: a tag is not empty/],
    ['   ', /files\[0\]\.tag: a tag is not empty/],
    ['web,mobile', /files\[0\]\.tag: one tag, without commas/],
    ['tab\there', /files\[0\]\.tag: a tag has no control characters/],
    ['x'.repeat(101), /files\[0\]\.tag: a tag is at most 100 characters/],
    [5, /files\[0\]\.tag: one tag, as a string/],
    [['web'], /files\[0\]\.tag: one tag, as a string/],
  ];
  it.each(bad)('tag %j is exit 2 naming the field, nothing sent or written', async (tag, says) => {
    const p = await newProject();
    const dir = await repository({ 'l/en.json': json({ a: 'A' }) }, [{ path: 'l/{language}.json', format: 'json', tag }]);
    for (const command of ['push', 'pull']) {
      const run = await runTms([command], { cwd: dir, apiKey: p.apiKey });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(says);
    }
    expect(await tagsOf(p)).toEqual({});
    expect(await readdir(join(dir, 'l'))).toEqual(['en.json']);
  });

  it('a tag in NFD or with spaces around is the NFC, trimmed tag the server keeps', async () => {
    const p = await newProject();
    const dir = await repository({ 'l/en.json': json({ a: 'A' }) }, [{ path: 'l/{language}.json', format: 'json', tag: ' Cafe\u0301 ' }]);
    const run = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(await tagsOf(p)).toEqual({ a: ['Café'] });
  });
});
