// `tms push --tag` and `tms pull --tag` as a user runs them: a child process (CI=true, no terminal)
// against a real server over HTTP. A release's strings pushed tagged, a mobile app pulling only the
// keys tagged "mobile" (one file per group too, only the groups that have such keys), a bad --tag a
// usage error (exit 2) before anything is sent, a tag no key has refused before anything is written,
// --remove-unused with --tag removing only keys with the tag, and a server without tags refused.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
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

async function repository(files: Record<string, string>, mappings: unknown[] = [{ path: 'locales/{language}.json', format: 'i18next' }], server = app.base): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-tags-'));
  dirs.push(dir);
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify({ server, sourceLanguage: 'en', files: mappings }) });
  return dir;
}

async function newProject(): Promise<TestProject> {
  const p = await app.t.newProject('team');
  for (const code of ['en', 'de']) expect((await app.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

/** The project's live keys with their tags, `key: tags`. */
const tagsOf = async (p: TestProject) =>
  Object.fromEntries(((await (await app.t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string; tags: string[] }[]).map((k) => [k.key, k.tags]));

/** The web app's keys, already on the server (approved, tagged web): home.banner and home.title. */
async function withWebKeys(p: TestProject) {
  for (const [language, file] of [
    ['en', { home: { title: 'Welcome', banner: 'Try the web app' } }],
    ['de', { home: { title: 'Willkommen', banner: 'Probier die Web-App' } }],
  ] as const) {
    const res = await app.t.call(p.apiKey, 'POST', `/v1/import/${language}?format=i18next&status=approved&tag=web`, JSON.stringify(file), { 'Content-Type': 'application/octet-stream' });
    expect(res.status, await res.clone().text()).toBe(200);
  }
}

const MOBILE_EN = { home: { title: 'Welcome' }, push: { optIn: 'Allow notifications' } };
const MOBILE_DE = { home: { title: 'Willkommen' }, push: { optIn: 'Mitteilungen erlauben' } };

describe('tms push --tag and tms pull --tag', () => {
  it("push tags the release's strings (new and existing keys); pull --tag writes only the keys with the tag", async () => {
    const p = await newProject();
    await withWebKeys(p);
    const mobile = await repository({ 'locales/en.json': json(MOBILE_EN), 'locales/de.json': json(MOBILE_DE) });

    const dry = await runTms(['push', '--tag', 'mobile', '--dry-run'], { cwd: mobile, apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would tag 1 existing key "mobile"');
    expect(await tagsOf(p)).toEqual({ 'home.banner': ['web'], 'home.title': ['web'] });

    const push = await runTms(['push', '--tag', ' mobile ', '--json'], { cwd: mobile, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    const files = JSON.parse(push.stdout).files as { path: string; keys_created: number; keys_tagged: number }[];
    expect(files.map((f) => [f.path, f.keys_created, f.keys_tagged])).toEqual([
      ['locales/en.json', 1, 1],
      ['locales/de.json', 0, 0],
    ]);
    expect(await tagsOf(p)).toEqual({ 'home.banner': ['web'], 'home.title': ['mobile', 'web'], 'push.optIn': ['mobile'] });
    // Said in the text output too.
    const again = await runTms(['push', '--tag', 'release-2.3'], { cwd: mobile, apiKey: p.apiKey });
    expect(again.stdout).toMatch(/locales\/en\.json \(en, i18next\): created 0 keys[^\n]*\n {2}tagged 2 existing keys "release-2\.3"/);

    // A fresh checkout of the mobile app: only the mobile keys, in every language but the source.
    const fresh = await repository({});
    const pull = await runTms(['pull', '--tag', 'mobile', '--include-source', '--json'], { cwd: fresh, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(pull.stdout)).toMatchObject({ tag: 'mobile' });
    expect(JSON.parse(await readFile(join(fresh, 'locales/de.json'), 'utf8'))).toEqual(MOBILE_DE);
    expect(JSON.parse(await readFile(join(fresh, 'locales/en.json'), 'utf8'))).toEqual(MOBILE_EN);
    // Without --tag, every key.
    const all = await runTms(['pull'], { cwd: fresh, apiKey: p.apiKey });
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(fresh, 'locales/de.json'), 'utf8'))).toEqual({ home: { title: 'Willkommen', banner: 'Probier die Web-App' }, push: { optIn: 'Mitteilungen erlauben' } });
  });

  it('a {group} mapping pulls one file per group that has keys with the tag', async () => {
    const p = await newProject();
    await withWebKeys(p);
    const mobile = await repository({ 'locales/en.json': json(MOBILE_EN) });
    expect((await runTms(['push', '--tag', 'mobile', '--language', 'en'], { cwd: mobile, apiKey: p.apiKey })).code).toBe(0);
    // Only web's keys in group "web".
    const res = await app.t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=approved&tag=web', JSON.stringify({ 'web.only': 'Nur Web' }), { 'Content-Type': 'application/octet-stream' });
    expect(res.status).toBe(200);
    const grouped = await repository({}, [{ path: 'public/{language}/{group}.json', format: 'json' }]);
    const pull = await runTms(['pull', '--tag', 'mobile', '--language', 'en'], { cwd: grouped, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect((await readdir(join(grouped, 'public/en'))).sort()).toEqual(['home.json', 'push.json']);
    expect(JSON.parse(await readFile(join(grouped, 'public/en/home.json'), 'utf8'))).toEqual({ title: 'Welcome' });
  });

  it("pull --tag reads only its own project's keys", async () => {
    const p = await newProject();
    const other = await newProject();
    for (const q of [p, other]) {
      const res = await app.t.call(q.apiKey, 'POST', '/v1/import/de?format=json&status=approved&tag=mobile', JSON.stringify({ [q === p ? 'mine' : 'theirs']: 'x' }), { 'Content-Type': 'application/octet-stream' });
      expect(res.status).toBe(200);
    }
    const dir = await repository({}, [{ path: 'l/{language}.json', format: 'json' }]);
    const pull = await runTms(['pull', '--tag', 'mobile'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'l/de.json'), 'utf8'))).toEqual({ mine: 'x' });
  });

  it('--remove-unused with --tag removes only keys with the tag', async () => {
    const p = await newProject();
    await withWebKeys(p);
    const mobile = await repository({ 'locales/en.json': json(MOBILE_EN) });
    expect((await runTms(['push', '--tag', 'mobile', '--language', 'en'], { cwd: mobile, apiKey: p.apiKey })).code).toBe(0);
    // The mobile app drops push.optIn; home.banner (web's, same group as home.title) is not its to remove.
    await writeFile(join(mobile, 'locales/en.json'), json({ home: { title: 'Welcome' }, push: { later: 'Later' } }));
    const run = await runTms(['push', '--tag', 'mobile', '--language', 'en', '--remove-unused'], { cwd: mobile, apiKey: p.apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/removed 1 unused key \(restorable\): push\.optIn/);
    expect(Object.keys(await tagsOf(p)).sort()).toEqual(['home.banner', 'home.title', 'push.later']);
  });
});

describe('bad --tag values and tags the server cannot use', () => {
  const bad: [string[], RegExp][] = [
    [['push', '--tag', ''], /--tag "": a tag is not empty/],
    [['push', '--tag', '   '], /--tag " {3}": a tag is not empty/],
    [['push', '--tag', 'mobile,web'], /--tag "mobile,web": one tag, without commas/],
    [['pull', '--tag', 'tab\there'], /--tag "tab\\there": a tag has no control characters/],
    [['pull', '--tag', 'x'.repeat(101)], /--tag "x{20}.*": a tag is at most 100 characters/],
    [['push', '--tag', 'a', '--tag', 'b'], /--tag given twice \("a", "b"\)/],
    [['pull', '--tag'], /--tag.*argument missing/],
    [['status', '--tag', 'x'], /Unknown option '--tag'/],
  ];
  it.each(bad)('%j is exit 2, one line naming the flag, and nothing is sent or written', async (args, says) => {
    const p = await newProject();
    const dir = await repository({ 'locales/en.json': json(MOBILE_EN) });
    const run = await runTms(args, { cwd: dir, apiKey: p.apiKey });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(says);
    expect(run.stderr.split('\n')[0]).toMatch(/^tms (push|pull|status): /);
    expect(await tagsOf(p)).toEqual({});
    expect((await readdir(join(dir, 'locales'))).sort()).toEqual(['en.json']);
  });

  it('pull --tag naming a tag no key has is refused (exit 2) and writes nothing, naming the tags there are', async () => {
    const p = await newProject();
    await withWebKeys(p);
    const dir = await repository({ 'locales/de.json': json({ home: { title: 'Alt' } }) });
    const run = await runTms(['pull', '--tag', 'moblie'], { cwd: dir, apiKey: p.apiKey });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--tag "moblie": no key of this project has this tag \(its tags: web\); nothing was written/);
    expect(JSON.parse(await readFile(join(dir, 'locales/de.json'), 'utf8'))).toEqual({ home: { title: 'Alt' } });
  });

  it('a server without tags (it would ignore tag) is refused before anything is sent', async () => {
    const requests: string[] = [];
    const old: Server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/v1/languages') return res.end(JSON.stringify({ project_id: '00000000-0000-4000-8000-000000000000', languages: [{ code: 'en' }] }));
      // An older server reads /v1/keys/tags as a key id that is no UUID.
      res.statusCode = req.url === '/v1/keys/tags' ? 422 : 404;
      res.end(JSON.stringify({ error: { code: 'validation', message: 'no' } }));
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', () => r()));
    try {
      const dir = await repository({ 'locales/en.json': json(MOBILE_EN) }, undefined, `http://127.0.0.1:${(old.address() as AddressInfo).port}`);
      for (const command of ['push', 'pull']) {
        const run = await runTms([command, '--tag', 'mobile', '--language', 'en'], { cwd: dir, apiKey: 'key_live_x' });
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toMatch(/--tag: this server has no key tags/);
      }
      expect(requests.filter((r) => !r.startsWith('GET'))).toEqual([]);
      expect(requests.some((r) => r.startsWith('GET /v1/export'))).toBe(false);
    } finally {
      await new Promise<void>((r) => old.close(() => r()));
    }
  });
});
