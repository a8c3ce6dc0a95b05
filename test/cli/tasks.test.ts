// `tms task create|list|show|close` (docs/cli.md, "Tasks"): tasks made from CI, one per language,
// over the keys a filter built from the flags matches, less those already done. The CLI runs as a
// child process against a real server over HTTP on the test's database; what it did is checked
// through the API.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles, type Run } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
const dirs: string[] = [];
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

const sql = () => served.t.runtime.deps.sql;

type Project = TestProject & { keys: Record<string, string> };

/**
 * A project with en (the config's source language), de and fr, and four keys with English text:
 * home.title and home.intro in group home, menu.open and menu.close in group menu, the menu's
 * tagged mobile. German: home.title approved (done for a translate task), home.intro a draft.
 */
async function newProject(): Promise<Project> {
  const p = await served.t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const keys: Record<string, string> = {};
  for (const [key, group_name] of [['home.title', 'home'], ['home.intro', 'home'], ['menu.open', 'menu'], ['menu.close', 'menu']] as const) {
    const res = await served.t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name, ...(group_name === 'menu' ? { tags: ['mobile'] } : {}) });
    expect(res.status).toBe(201);
    keys[key] = ((await res.json()) as { id: string }).id;
    await put(p.apiKey, keys[key]!, 'en', `Source of ${key}`, 'approved');
  }
  const project = { ...p, keys };
  await put(p.apiKey, keys['home.title']!, 'de', 'Willkommen', 'approved');
  await put(p.apiKey, keys['home.intro']!, 'de', 'Hallo', 'draft');
  return project;
}

async function put(apiKey: string, keyId: string, language: string, value: string, status: string) {
  const res = await served.t.call(apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status });
  expect(res.status).toBe(200);
}

async function keyId(p: TestProject, key: string): Promise<string> {
  const res = await served.t.call(p.apiKey, 'GET', `/v1/keys?search=${encodeURIComponent(key)}`);
  return ((await res.json()) as { keys: { id: string; key: string }[] }).keys.find((k) => k.key === key)!.id;
}

let seq = 0;
/** A portal member of the project's account (as the portal's invitations make them). */
async function member(p: TestProject, role: string, languages: string[] | null = null): Promise<string> {
  const email = `${role}-${seq++}-${Date.now()}@example.com`;
  const [user] = await sql()<{ id: string }[]>`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  await sql()`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${p.accountId}, ${role}, ${languages})`;
  return email;
}

/** A repository with a tms.config.json for `server` (the test server's by default), source language en. */
async function repository(server = served.base): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-tasks-'));
  dirs.push(dir);
  await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }] }) });
  return dir;
}

/**
 * A proxy in front of the test server that passes each request on, unless `intercept` answers it
 * itself: a 503 after the server did the work (its answer lost, as a load balancer's timeout loses
 * it), any other status instead of the server.
 */
async function proxy(intercept: (req: IncomingMessage, body: Buffer) => { status: number; body: unknown } | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const own = intercept(req, body);
    const answer = own !== undefined && own.status !== 503 ? undefined : await fetch(served.base + req.url, { method: req.method!, headers, ...(chunks.length ? { body } : {}) });
    if (own) {
      await answer?.arrayBuffer();
      res.writeHead(own.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(own.body));
      return;
    }
    res.writeHead(answer!.status, { 'Content-Type': answer!.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer!.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const tms = (dir: string, args: string[], apiKey: string, env: Record<string, string> = {}): Promise<Run> => runTms(['task', ...args], { cwd: dir, apiKey, env });

type Task = { number: number; name: string; kind: string; language: string; state: string; due_date: string | null; description: string; assignees: { email: string }[]; keys_total: number; keys_done: number };

async function tasksOf(p: TestProject): Promise<Task[]> {
  const res = await served.t.call(p.apiKey, 'GET', '/v1/tasks');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Task[] }).data.sort((a, b) => a.number - b.number);
}
async function keysOf(p: TestProject, number: number): Promise<string[]> {
  const res = await served.t.call(p.apiKey, 'GET', `/v1/tasks/${number}/keys`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { key: string }[] }).data.map((k) => k.key);
}

// Each test runs the CLI several times (about a second a run, more on a loaded 2-core machine).
describe('tms task create', { timeout: 90_000 }, () => {
  it('makes a task per language over the keys of the filter, leaving out those already done, and says so a line each', async () => {
    const p = await newProject();
    const dir = await repository();
    const ana = await member(p, 'translator');
    const r = await tms(dir, ['create', '--name', 'Release 2.3', '--language', 'de', '--language', 'FR', '--group', 'home', '--assignee', ` ${ana.toUpperCase()} `, '--due', '2026-12-31', '--description', 'The new home screen'], p.apiKey);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `#1 Release 2.3 (de): 1 key to translate, 1 already done left out; assigned to ${ana}; due 2026-12-31\n` +
        `#2 Release 2.3 (fr): 2 keys to translate; assigned to ${ana}; due 2026-12-31\n`,
    );
    const [de, fr, ...more] = await tasksOf(p);
    expect(more).toEqual([]);
    expect(de).toMatchObject({ name: 'Release 2.3', kind: 'translate', language: 'de', state: 'open', due_date: '2026-12-31', description: 'The new home screen', assignees: [{ email: ana }], keys_total: 1, keys_done: 0 });
    expect(fr).toMatchObject({ language: 'fr', keys_total: 2 });
    expect(await keysOf(p, 1)).toEqual(['home.intro']);
    expect(await keysOf(p, 2)).toEqual(['home.intro', 'home.title']);
  });

  it('takes every language but the source without --language; --missing, --tag, --kind review and --include-done build the filter; --json gives the answers', async () => {
    const p = await newProject();
    const dir = await repository();
    // Every language but en (the config's sourceLanguage); --missing: the keys without a value in each.
    const missing = await tms(dir, ['create', '--name', 'Missing', '--missing'], p.apiKey);
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stdout).toBe('#1 Missing (de): 2 keys to translate\n#2 Missing (fr): 4 keys to translate\n');
    expect(await keysOf(p, 1)).toEqual(['menu.close', 'menu.open']);

    const idempotent = (await sql()<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n;
    const review = await tms(dir, ['create', '--name', 'Review mobile', '--kind', 'review', '--tag', 'mobile', '--language', 'de', '--include-done', '--json'], p.apiKey);
    expect(review.code, review.stderr).toBe(0);
    const answer = JSON.parse(review.stdout) as { tasks: (Task & { keys_left_out_done: number })[]; nothing_to_do: unknown[] };
    expect(answer.nothing_to_do).toEqual([]);
    expect(answer.tasks).toHaveLength(1);
    expect(answer.tasks[0]).toMatchObject({ number: 3, name: 'Review mobile', kind: 'review', language: 'de', keys_total: 2, keys_done: 0, keys_left_out_done: 0, due_date: null, assignees: [] });
    expect(answer.tasks[0]).toEqual({ ...(await tasksOf(p))[2], keys_left_out_done: 0, keys_left_out_in_tasks: 0 });
    // Each create carried an Idempotency-Key, whose answer the server keeps.
    expect((await sql()<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n).toBe(idempotent + 1);

    // --include-done keeps the approved home.title; the line says how many of them are done. The
    // menu's keys are German task #1's: left out.
    const all = await tms(dir, ['create', '--name', 'All German', '--language', 'de', '--include-done'], p.apiKey);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe('#4 All German (de): 2 keys to translate (1 already done), 2 in open tasks left out\n');
    expect(await keysOf(p, 4)).toEqual(['home.intro', 'home.title']);
  });

  it('a language with nothing left to do is said on its line, exit 0; with every language so, no task and exit 0', async () => {
    const p = await newProject();
    const dir = await repository();
    await put(p.apiKey, p.keys['home.intro']!, 'de', 'Hallo', 'review');
    const r = await tms(dir, ['create', '--name', 'Home', '--group', 'home'], p.apiKey);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('nothing to translate in de: every matching key is left out: 2 already done in de (--include-done takes them); no task created\n#1 Home (fr): 2 keys to translate\n');
    expect((await tasksOf(p)).map((t) => t.language)).toEqual(['fr']);

    // Nothing missing anywhere once every value is written (drafts: a value all the same).
    for (const key of ['menu.open', 'menu.close']) await put(p.apiKey, p.keys[key]!, 'de', `de ${key}`, 'draft');
    for (const key of Object.keys(p.keys)) await put(p.apiKey, p.keys[key]!, 'fr', `fr ${key}`, 'draft');
    const none = await tms(dir, ['create', '--name', 'Missing', '--missing', '--json'], p.apiKey);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({
      tasks: [],
      nothing_to_do: [
        { language: 'de', keys_left_out_done: 0, keys_left_out_in_tasks: 0 },
        { language: 'fr', keys_left_out_done: 0, keys_left_out_in_tasks: 0 },
      ],
    });
    const plain = await tms(dir, ['create', '--name', 'Missing', '--missing', '--language', 'de'], p.apiKey);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('nothing to translate in de: no key matches (--group, --tag, --missing); no task created\n');
    expect(await tasksOf(p)).toHaveLength(1);
  });

  it('leaves out the keys already in an open task of the same kind and language: run after each push, it hands out each new text once', async () => {
    const p = await newProject();
    const dir = await repository();
    const first = await tms(dir, ['create', '--name', 'Push 1', '--missing', '--language', 'de'], p.apiKey);
    expect(first.stdout).toBe('#1 Push 1 (de): 2 keys to translate\n');
    // The next push brought nothing new: the missing keys are #1's.
    const again = await tms(dir, ['create', '--name', 'Push 2', '--missing', '--language', 'de'], p.apiKey);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('nothing to translate in de: every matching key is left out: 2 in open translate tasks of de (--include-tasked takes them); no task created\n');
    // A new key: the next task has it alone.
    expect((await served.t.call(p.apiKey, 'POST', '/v1/keys', { key: 'menu.help', group_name: 'menu' })).status).toBe(201);
    const third = await tms(dir, ['create', '--name', 'Push 3', '--missing', '--language', 'de', '--json'], p.apiKey);
    expect(third.code, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout).tasks).toMatchObject([{ number: 2, keys_total: 1, keys_left_out_done: 0, keys_left_out_in_tasks: 2 }]);
    expect(await keysOf(p, 2)).toEqual(['menu.help']);
    // A review task is other work; --include-tasked takes them all; a canceled task's keys are free again.
    expect((await tms(dir, ['create', '--name', 'Review', '--missing', '--language', 'de', '--kind', 'review'], p.apiKey)).stdout).toBe('#3 Review (de): 3 keys to review\n');
    expect((await tms(dir, ['create', '--name', 'All', '--missing', '--language', 'de', '--include-tasked'], p.apiKey)).stdout).toBe('#4 All (de): 3 keys to translate\n');
    for (const n of [1, 2, 4]) expect((await served.t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { state: 'canceled' })).status).toBe(200);
    // home.intro's draft: the only German key not done, once the menu's are in review.
    for (const key of ['menu.open', 'menu.close', 'menu.help']) await put(p.apiKey, p.keys[key] ?? (await keyId(p, key)), 'de', `de ${key}`, 'review');
    const rest = await tms(dir, ['create', '--name', 'Rest', '--language', 'de'], p.apiKey);
    expect(rest.stdout).toBe('#5 Rest (de): 1 key to translate, 4 already done left out\n');
  });

  it('refuses bad flags before any request (exit 2, nothing on stdout, no task), and a language, group or tag the project lacks before any task', async () => {
    const p = await newProject();
    const nowhere = await repository(NOWHERE);
    const cases: [string[], RegExp][] = [
      [[], /name the task: tms task create --name/],
      [['--name', '   '], /--name is empty/],
      [['--name', 'a\nb'], /--name "a\\nb": a name has no control characters/],
      [['--name', 'x'.repeat(201)], /--name: a name is at most 200 characters \(this one is 201\)/],
      [['--name', 'x', '--due', '2026-02-30'], /--due "2026-02-30": a day of the calendar as YYYY-MM-DD/],
      [['--name', 'x', '--due', '31.12.2026'], /--due "31\.12\.2026"/],
      [['--name', 'x', '--kind', 'proofread'], /--kind "proofread": translate or review/],
      [['--name', 'x', '--assignee', 'ana'], /--assignee "ana": an email address/],
      [['--name', 'x', '--group', ''], /--group is empty/],
      [['--name', 'x', '--tag', 'a,b'], /--tag "a,b": one tag, without commas/],
      [['--name', 'x', '--language', 'not a code'], /--language "not a code": a language code/],
      [['--name', 'x', '--description', 'd'.repeat(2001)], /--description: at most 2,000 characters/],
      [['--name', 'x', '--name', 'y'], /--name given twice/],
      [['--name', 'x', 'extra'], /Unexpected argument 'extra'/],
      [['--name', 'x', ...Array.from({ length: 21 }, (_, i) => ['--assignee', `a${i}@example.com`]).flat()], /--assignee names 21 people: a task has at most 20/],
    ];
    const runs = await Promise.all(cases.map(([args]) => tms(nowhere, ['create', ...args], p.apiKey)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr).not.toMatch(/cannot reach|at .*\.ts:/);
    }
    const json = await tms(nowhere, ['create', '--name', 'x', '--due', 'tomorrow', '--json'], p.apiKey);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: '--due "tomorrow": a day of the calendar as YYYY-MM-DD (2026-12-31)', exit_code: 2 });

    // What only the server knows, asked before any task is made: still exit 2, no task.
    const dir = await repository();
    const known: [string[], string][] = [
      [['--language', 'de', '--language', 'ja'], '--language ja: not a language of this project (it has en, de, fr)'],
      [['--group', 'hmoe'], '--group "hmoe": no key of this project is in this group (its groups: home, menu); nothing was created'],
      [['--tag', 'moblie'], '--tag "moblie": no key of this project has this tag (its tags: mobile); nothing was created'],
    ];
    for (const [args, message] of known) {
      const r = await tms(dir, ['create', '--name', 'x', ...args], p.apiKey);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`tms task create: ${message}\n`);
    }
    expect(await tasksOf(p)).toEqual([]);
  }, 90_000);

  it('an assignee the server refuses in any language fails the command before any task is made, naming the --assignee', async () => {
    const p = await newProject();
    const dir = await repository();
    // May translate German only: the French task is not theirs to take, and the German one comes first.
    const ana = await member(p, 'translator', ['de']);
    const r = await tms(dir, ['create', '--name', 'Release', '--assignee', ana], p.apiKey);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`tms task create: fr: refused (422); nothing was created:\n  --assignee ${ana}: ${ana} (translator) may not edit values in fr, which a translate task asks\n`);
    // One language: the server's refusal of the create itself; with --json, what was done (nothing).
    const stranger = 'nobody@example.com';
    const one = await tms(dir, ['create', '--name', 'Release', '--language', 'de', '--assignee', ana, '--assignee', stranger, '--json'], p.apiKey);
    expect(one.code).toBe(1);
    expect(JSON.parse(one.stdout)).toEqual({
      tasks: [],
      nothing_to_do: [],
      error: `de: refused (422); nothing was created:\n  --assignee ${stranger}: ${stranger} is not a member of this project's account`,
      exit_code: 1,
    });
    expect(await tasksOf(p)).toEqual([]);
    // Numbers were not taken by the refusals, nor by the questions asked first.
    const ok = await tms(dir, ['create', '--name', 'Release', '--language', 'de', '--assignee', ana], p.apiKey);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^#1 Release \(de\): /);
  });

  it('a 503 after the server made the task: the retry sends the same Idempotency-Key, and one task is made', async () => {
    const p = await newProject();
    let creates = 0;
    const tokens: (string | undefined)[] = [];
    // A load balancer timing out on the first create: the task is made, the CLI is not told.
    // The creates only: each language's dry run before them is let through.
    const { url, close } = await proxy((req, body) => {
      if (req.method !== 'POST' || req.url !== '/v1/tasks' || JSON.parse(body.toString()).dry_run) return undefined;
      tokens.push(req.headers['idempotency-key'] as string | undefined);
      return creates++ === 0 ? { status: 503, body: { detail: 'upstream timed out' } } : undefined;
    });
    try {
      const dir = await repository(url);
      const r = await tms(dir, ['create', '--name', 'Again', '--language', 'de', '--language', 'fr'], p.apiKey, { TMS_RETRY_DELAY_SCALE: '0.01' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('#1 Again (de): 3 keys to translate, 1 already done left out\n#2 Again (fr): 4 keys to translate\n');
      expect(tokens).toHaveLength(3);
      expect(tokens[0]).toMatch(ID);
      expect(tokens[1]).toBe(tokens[0]);
      expect(tokens[2]).toMatch(ID);
      expect(tokens[2]).not.toBe(tokens[0]);
      expect((await tasksOf(p)).map((t) => t.language)).toEqual(['de', 'fr']);
    } finally {
      await close();
    }
  });

  it('a refusal only the create can meet (too many keys) stops there, saying which tasks were made; a rerun makes only the rest', async () => {
    const p = await newProject();
    // The French create is answered as a project with over 10,000 matching keys is.
    const { url, close } = await proxy((req, body) =>
      req.method === 'POST' && req.url === '/v1/tasks' && JSON.parse(body.toString()).language === 'fr' && !JSON.parse(body.toString()).dry_run
        ? { status: 422, body: { detail: [{ loc: ['body', 'filter'], msg: 'more than 10,000 keys match: a task has at most 10,000 (split the work into several tasks, by group or tag)', type: 'value_error' }] } }
        : undefined,
    );
    try {
      const dir = await repository(url);
      const r = await tms(dir, ['create', '--name', 'Big'], p.apiKey);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('#1 Big (de): 3 keys to translate, 1 already done left out\n');
      expect(r.stderr).toBe(
        'tms task create: fr: refused (422); #1 (de) was created before it (a rerun leaves its keys out, as keys in open tasks):\n' +
          '  the keys (--group, --tag, --missing): more than 10,000 keys match: a task has at most 10,000 (split the work into several tasks, by group or tag)\n',
      );
      const json = await tms(dir, ['create', '--name', 'Big', '--language', 'fr', '--json'], p.apiKey);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ tasks: [], nothing_to_do: [], exit_code: 1 });
    } finally {
      await close();
    }
    // Run again without the refusal: German's keys are #1's, French gets its task.
    const dir = await repository();
    const rerun = await tms(dir, ['create', '--name', 'Big'], p.apiKey);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toBe('nothing to translate in de: every matching key is left out: 1 already done in de (--include-done takes them); 3 in open translate tasks of de (--include-tasked takes them); no task created\n#2 Big (fr): 4 keys to translate\n');
  });
});

describe('tms task list, show and close', () => {
  it('lists every task with its progress, filtered; shows one with its keys still to do; closes it once every key is done', async () => {
    const p = await newProject();
    const dir = await repository();
    const ana = await member(p, 'reviewer');
    expect((await tms(dir, ['create', '--name', 'German', '--language', 'de', '--assignee', ana, '--due', '2027-01-15'], p.apiKey)).code).toBe(0);
    expect((await tms(dir, ['create', '--name', 'Review French', '--language', 'fr', '--kind', 'review', '--group', 'menu'], p.apiKey)).code).toBe(0);
    await put(p.apiKey, p.keys['home.intro']!, 'de', 'Hallo!', 'review');

    const listed = await tms(dir, ['list'], p.apiKey);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(
      [
        '#   NAME           KIND       LANGUAGE  DONE  STATE  DUE         ASSIGNEES',
        '#2  Review French  review     fr        0/2   open   -           -',
        `#1  German         translate  de        1/3   open   2027-01-15  ${ana}`,
        '2 tasks',
        '',
      ].join('\n'),
    );
    const french = await tms(dir, ['list', '--language', 'fr', '--state', 'open', '--json'], p.apiKey);
    expect(french.code, french.stderr).toBe(0);
    const answer = JSON.parse(french.stdout) as { tasks: Task[]; count: number };
    expect(answer.count).toBe(1);
    expect(answer.tasks[0]).toEqual((await tasksOf(p))[1]);
    const mine = await tms(dir, ['list', '--assignee', ana.toUpperCase(), '--kind', 'translate'], p.apiKey);
    expect(mine.stdout).toMatch(/^#\s+NAME[^\n]*\n#1\s+German [^\n]*\n1 task\n$/);
    const done = await tms(dir, ['list', '--state', 'done'], p.apiKey);
    expect(done.stdout).toBe('no tasks\n');
    for (const [args, message] of [[['--state', 'closed'], /--state "closed": open, done or canceled/], [['--language', 'ja'], /--language ja: not a language of this project/]] as const) {
      const bad = await tms(dir, ['list', ...args], p.apiKey);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(message);
    }

    const shown = await tms(dir, ['show', '1'], p.apiKey);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(
        '^#1 German\\n  translate de, open\\n  progress: 1 of 3 keys done \\(33%\\)\\n  due: 2027-01-15\\n' +
          `  assigned to: ${ana.replace(/[.]/g, '\\.')}\\n  created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ by .+ \\(API key\\)\\n` +
          'still to translate \\(2\\):\\n  menu\\.close  missing\\n  menu\\.open   missing\\n$',
      ),
    );
    const json = JSON.parse((await tms(dir, ['show', '#1', '--json'], p.apiKey)).stdout) as Task & { keys_to_do: { key: string; done: boolean }[] };
    expect(json).toMatchObject({ number: 1, keys_total: 3, keys_done: 1 });
    expect(json.keys_to_do.map((k) => [k.key, k.done])).toEqual([['menu.close', false], ['menu.open', false]]);
    const unknown = await tms(dir, ['show', '9'], p.apiKey);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('tms task show: no task #9 in this project (tms task list shows them)\n');
    const noNumber = await tms(dir, ['show'], p.apiKey);
    expect(noNumber.code).toBe(2);
    expect(noNumber.stderr).toMatch(/name the task: tms task show <number>/);

    // Not done: the server's 409, its message, exit 1, the task still open.
    const early = await tms(dir, ['close', '1'], p.apiKey);
    expect(early.code).toBe(1);
    expect(early.stdout).toBe('');
    expect(early.stderr).toBe('tms task close: Task #1 is not done: 2 of its 3 keys are still to translate (409): tms task show 1 lists them; --cancel closes it anyway\n');
    expect((await tasksOf(p))[0]!.state).toBe('open');
    // The values are written and approved through the API: it closes.
    await put(p.apiKey, p.keys['menu.open']!, 'de', 'Öffnen', 'approved');
    await put(p.apiKey, p.keys['menu.close']!, 'de', 'Schließen', 'approved');
    const closed = await tms(dir, ['close', '1'], p.apiKey);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toBe('#1 German (de): done, 3 of 3 keys done\n');
    expect((await tasksOf(p))[0]).toMatchObject({ state: 'done' });
    const again = await tms(dir, ['close', '1', '--json'], p.apiKey);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ number: 1, state: 'done' });
    // --cancel closes whatever is left.
    const canceled = await tms(dir, ['close', '2', '--cancel'], p.apiKey);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(canceled.stdout).toBe('#2 Review French (fr): canceled, 0 of 2 keys done\n');
    expect((await tms(dir, ['list', '--state', 'canceled'], p.apiKey)).stdout).toMatch(/^#\s+NAME[^\n]*\n#2\s+Review French [^\n]* canceled [^\n]*\n1 task\n$/);
    const missing = await tms(dir, ['close', '7', '--cancel'], p.apiKey);
    expect(missing.code).toBe(2);
  }, 120_000);

  it('tms --help and tms task --help list the commands; an unknown subcommand is exit 2', async () => {
    const dir = await repository(NOWHERE);
    const help = await runTms(['--help'], { cwd: dir });
    expect(help.stdout).toContain('tms task');
    const own = await runTms(['task', '--help'], { cwd: dir });
    expect(own.code).toBe(0);
    for (const flag of ['--name', '--language', '--kind', '--group', '--tag', '--missing', '--include-done', '--assignee', '--due', '--description', '--state', '--cancel']) expect(own.stdout, flag).toContain(flag);
    const create = await runTms(['task', 'create', '--help'], { cwd: dir });
    expect(create.stdout).toMatch(/^tms task create --name N/);
    const wrong = await runTms(['task', 'open', '3'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^tms task: unknown command "task open": task create, task list, task show or task close\n/);
  });
});
