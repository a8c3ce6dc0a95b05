// Every command of the tms CLI, and every flag it takes, given malformed values, as a user or a CI
// script gets them wrong: unknown flags, a flag without its value, numbers that are not numbers,
// unknown statuses and languages, paths that do not exist or are directories, config files that
// are not JSON or have wrong types, server URLs that are not URLs, flags that contradict each other.
// Each run is a child process (`node cli/bin/tms.js`, CI=true, no terminal) against a real server
// over HTTP, in a repository whose files a push would import and a pull would rewrite. For each:
// the documented exit code (2 for usage, 1 for a file that cannot be read or written), one line on
// stderr that names the flag or the value, no stack trace, nothing on stdout (the JSON error
// document with --json), the project's languages, keys and values as they were, and the
// repository byte for byte as it was (no file written, half-written or left behind).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { EXIT } from '../../cli/src/errors.ts';

const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'tms.js');

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

type Run = { code: number; stdout: string; stderr: string };

/** The CLI as CI runs it; stdin closed at once, so that a `tms mcp` that did start ends. */
function tms(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const EN = { home: { title: 'Welcome', intro: 'Hello' } };
const DE = { home: { title: 'Willkommen' } };

/** A project with en and de and approved values, and a repository whose files differ from them. */
async function fixture(): Promise<{ p: TestProject; dir: string }> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const [language, file] of [['en', EN], ['de', DE]] as const) {
    const res = await t.call(p.apiKey, 'POST', `/v1/import/${language}?format=i18next&status=approved`, JSON.stringify(file), { 'Content-Type': 'application/octet-stream' });
    expect(res.status).toBe(200);
  }
  const dir = await mkdtemp(join(tmpdir(), 'tms-flags-'));
  dirs.push(dir);
  await files(dir, {
    'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'locales/{language}/translation.json', format: 'i18next' }] }),
    // A push would create home.outro and change both languages; a pull would rewrite de's file.
    'locales/en/translation.json': JSON.stringify({ home: { title: 'Welcome!', intro: 'Hello', outro: 'Bye' } }),
    'locales/de/translation.json': JSON.stringify({ home: { title: 'Hallo', intro: 'Hallo' } }),
  });
  return { p, dir };
}

async function files(dir: string, contents: Record<string, string | Buffer>) {
  for (const [path, body] of Object.entries(contents)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
}

/** Every file and folder under `dir`, with its bytes: a refused command leaves it as it was. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = relative(dir, join(entry.parentPath, entry.name));
    out[path] = entry.isDirectory() ? '<dir>' : (await readFile(join(dir, path))).toString('base64');
  }
  return out;
}

/** What the project holds: languages, keys, every value with its status, and the cache's state. */
async function project(p: TestProject): Promise<unknown> {
  const get = async (path: string) => {
    const res = await t.call(p.apiKey, 'GET', path);
    return { status: res.status, body: await res.json() };
  };
  return {
    languages: await get('/v1/languages'),
    keys: await get('/v1/keys'),
    en: await get('/v1/translations/en?status=all'),
    de: await get('/v1/translations/de?status=all'),
    cache: await get('/v1/cache/status'),
  };
}

type Case = {
  /** The arguments after `tms`. */
  args: string[];
  /** What stderr's first line must say: the flag or value at fault, and why. */
  says: RegExp;
  /** Default: 2, the CLI's usage exit code. */
  exit?: number;
  env?: Record<string, string>;
  /** Without TMS_API_KEY. */
  noKey?: boolean;
  /** Changes the repository first (a broken config, a folder where a file goes). */
  setup?: (dir: string) => Promise<void>;
  /** `tms init`'s cases run in an empty folder. */
  empty?: boolean;
};

const config = (value: unknown) => (dir: string) => files(dir, { 'tms.config.json': typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value) });
const INIT_OK = ['--server', 'http://127.0.0.1:3000', '--source-language', 'en', '--file', 'locales/{language}.json:json'];
/** `tms init` with good flags but these. */
const init = (flags: { server?: string; 'source-language'?: string; file?: string }, ...more: string[]) => [
  'init',
  ...['server', 'source-language', 'file'].flatMap((name) => [`--${name}`, flags[name as keyof typeof flags] ?? INIT_OK[INIT_OK.indexOf(`--${name}`) + 1]!]),
  ...more,
];
const withServer = (server: unknown) => async (dir: string) => {
  const current = JSON.parse(await readFile(join(dir, 'tms.config.json'), 'utf8'));
  await config({ ...current, server })(dir);
};

const CASES: Record<string, Case> = {
  // The command line itself.
  'an option before the command': { args: ['--json', 'push'], says: /"--json".*options come after the command/ },
  'an unknown command': { args: ['pusj'], says: /unknown command "pusj"/ },
  ...Object.fromEntries(
    ['init', 'push', 'pull', 'status', 'publish', 'mcp'].flatMap((command) => [
      [`${command}: an unknown flag`, { args: [command, '--bogus'], says: /Unknown option '--bogus'/, empty: command === 'init' }],
      [`${command}: an unknown short flag`, { args: [command, '-x'], says: /Unknown option '-x'/, empty: command === 'init' }],
      [`${command}: a positional argument`, { args: [command, 'extra'], says: /Unexpected argument 'extra'/, empty: command === 'init' }],
    ]),
  ),
  // The options of every command, once each (one parser reads them for all).
  'status: --config without its value': { args: ['status', '--config'], says: /--config.*argument missing/ },
  'push: --api-key without its value': { args: ['push', '--api-key'], says: /--api-key.*argument missing/ },
  'pull: --json with a value': { args: ['pull', '--json=yes'], says: /--json.*does not take an argument/ },
  'push: --wait-for-quota with a value': { args: ['push', '--wait-for-quota=1'], says: /--wait-for-quota.*does not take an argument/ },

  // init: a config file is written only from good flags, and never over one without --force.
  'init: --server without its value': { args: ['init', '--source-language', 'en', '--server'], says: /--server.*argument missing/, empty: true },
  'init: --source-language without its value': { args: ['init', '--source-language'], says: /--source-language.*argument missing/, empty: true },
  'init: --file without its value': { args: ['init', '--file'], says: /--file.*argument missing/, empty: true },
  'init: --force with a value': { args: ['init', ...INIT_OK, '--force=no'], says: /--force.*does not take an argument/, empty: true },
  'init: --server not a URL': { args: init({ server: 'localhost:3000' }), says: /server: an http\(s\) URL/, empty: true },
  'init: --server an ftp URL': { args: init({ server: 'ftp://example.com' }), says: /server: an http\(s\) URL/, empty: true },
  'init: --server a URL that does not parse': { args: init({ server: 'http://[' }), says: /server: an http\(s\) URL/, empty: true },
  'init: --server with a query': { args: init({ server: 'http://example.com/?a=1' }), says: /server: an http\(s\) URL/, empty: true },
  'init: --server given twice, differently': { args: ['init', ...INIT_OK, '--server', 'http://127.0.0.1:4000'], says: /--server given twice/, empty: true },
  'init: --source-language not a language': { args: init({ 'source-language': 'e_n' }), says: /sourceLanguage: a language code/, empty: true },
  'init: --source-language empty': { args: init({ 'source-language': '' }), says: /sourceLanguage: a language code/, empty: true },
  'init: --file without a format': { args: init({ file: 'locales/{language}.json' }), says: /--file locales\/\{language\}\.json: expected PATH:FORMAT/, empty: true },
  'init: --file without a path': { args: init({ file: ':json' }), says: /--file :json: expected PATH:FORMAT/, empty: true },
  'init: --file with an unknown format': { args: init({ file: 'l/{language}.json:jsn' }), says: /files\[0\]\.format: one of json/, empty: true },
  'init: --file without {language}': { args: init({ file: 'l/en.json:json' }), says: /files\[0\]\.path: a path containing \{language\}/, empty: true },
  'init: two --file on one path': { args: ['init', ...INIT_OK, '--file', 'locales/{language}.json:i18next'], says: /files\[1\]\.path: the same file as files\[0\]\.path/, empty: true },
  'init: --config, which init does not read': { args: ['init', ...INIT_OK, '--config', 'ci/tms.config.json'], says: /--config.*init/, empty: true },
  'init: over an existing config without --force': { args: ['init', ...INIT_OK], says: /tms\.config\.json exists; pass --force/ },
  'init --force: tms.config.json is a folder': { args: ['init', ...INIT_OK, '--force'], says: /tms\.config\.json.*is a folder/, empty: true, exit: EXIT.failed, setup: (dir) => mkdir(join(dir, 'tms.config.json')) },

  // push
  'push: --status unknown': { args: ['push', '--status', 'published'], says: /--status must be one of draft, review, approved/ },
  'push: --status empty': { args: ['push', '--status', ''], says: /--status must be one of/ },
  'push: --status in capitals': { args: ['push', '--status', 'APPROVED'], says: /--status must be one of/ },
  'push: --status all (pull\'s, not push\'s)': { args: ['push', '--status', 'all'], says: /--status must be one of draft, review, approved/ },
  'push: --status without its value': { args: ['push', '--status'], says: /--status.*argument missing/ },
  'push: --status given twice, differently': { args: ['push', '--status', 'draft', '--status', 'approved'], says: /--status given twice/ },
  'push: --conflict unknown': { args: ['push', '--conflict', 'sometimes'], says: /--conflict must be one of overwrite, keep, fail/ },
  'push: --conflict without its value': { args: ['push', '--conflict'], says: /--conflict.*argument missing/ },
  'push: --dry-run with a value': { args: ['push', '--dry-run=false'], says: /--dry-run.*does not take an argument/ },
  'push: --remove-unused with a value': { args: ['push', '--remove-unused=1'], says: /--remove-unused.*does not take an argument/ },
  'push: --language without its value': { args: ['push', '--language'], says: /--language.*argument missing/ },
  'push: --language empty': { args: ['push', '--language', ''], says: /--language "": a language code/ },
  'push: --language as a list': { args: ['push', '--language', 'en,de'], says: /--language "en,de": a language code/ },
  'push: --language a path': { args: ['push', '--language', '../de'], says: /--language "\.\.\/de": a language code/ },
  'push: --language overlong': { args: ['push', '--language', 'd'.repeat(5000)], says: /--language "d{20}.*": a language code/ },
  'push: --language the project does not have, after one it has': { args: ['push', '--language', 'de', '--language', 'fr'], says: /--language fr: not a language of this project \(it has en, de\)/, setup: (dir) => files(dir, { 'locales/fr/translation.json': '{"home": {"title": "Bienvenue"}}' }) },
  'push: --remove-unused without the source language': { args: ['push', '--remove-unused', '--language', 'de'], says: /--remove-unused needs the source language's files/ },
  'push: --tag empty': { args: ['push', '--tag', ''], says: /--tag "": a tag is not empty/ },
  'push: --tag as a list': { args: ['push', '--tag', 'mobile,web'], says: /--tag "mobile,web": one tag, without commas/ },
  'push: --tag given twice, differently': { args: ['push', '--tag', 'mobile', '--tag', 'web'], says: /--tag given twice/ },
  'push: --tag overlong': { args: ['push', '--tag', 't'.repeat(101)], says: /--tag "t{60}…": a tag is at most 100 characters/ },
  'push: --tag without its value': { args: ['push', '--tag'], says: /--tag.*argument missing/ },
  'push --json: a bad flag value is the error document': { args: ['push', '--json', '--conflict', 'x'], says: /--conflict must be one of/ },
  'push: a mapped file that is a folder': { args: ['push'], says: /cannot read locales\/de\/translation\.json: it is a folder/, exit: EXIT.failed, setup: async (dir) => {
    await rm(join(dir, 'locales/de/translation.json'));
    await mkdir(join(dir, 'locales/de/translation.json'));
  } },

  // pull
  'pull: --status unknown': { args: ['pull', '--status', 'published'], says: /--status must be one of approved, review, draft, all/ },
  'pull: --status empty': { args: ['pull', '--status', ''], says: /--status must be one of/ },
  'pull: --status given twice, differently': { args: ['pull', '--status', 'draft', '--status', 'all'], says: /--status given twice/ },
  'pull: --tag blank': { args: ['pull', '--tag', '  '], says: /--tag " {2}": a tag is not empty/ },
  'pull: --tag with a line break': { args: ['pull', '--tag', 'mo\nbile'], says: /--tag "mo\\nbile": a tag has no control characters/ },
  'pull: --tag no key of the project has': { args: ['pull', '--tag', 'moblie'], says: /--tag "moblie": no key of this project has this tag \(it has none\); nothing was written/ },
  'pull: --include-source with a value': { args: ['pull', '--include-source=no'], says: /--include-source.*does not take an argument/ },
  'pull: --language empty': { args: ['pull', '--language', ''], says: /--language "": a language code/ },
  'pull: --language a path out of the repository': { args: ['pull', '--language', 'de/../../../tmp/x'], says: /--language "de\/\.\.\/\.\.\/\.\.\/tmp\/x": a language code/ },
  'pull: --language the project does not have': { args: ['pull', '--language', 'de', '--language', 'fr'], says: /--language fr: not a language of this project/ },
  'pull: a file to write is a folder, after one that could be written': {
    args: ['pull', '--language', 'en', '--language', 'de'],
    says: /cannot write locales\/de\/translation\.json: .*folder/,
    exit: EXIT.failed,
    setup: async (dir) => {
      await rm(join(dir, 'locales/de/translation.json'));
      await mkdir(join(dir, 'locales/de/translation.json'));
    },
  },
  'pull: a folder to create is a file': {
    args: ['pull', '--include-source'],
    says: /cannot write locales\/de\/translation\.json: .*locales\/de.*not a folder/,
    exit: EXIT.failed,
    setup: async (dir) => {
      await rm(join(dir, 'locales/de'), { recursive: true });
      await writeFile(join(dir, 'locales/de'), 'a file where a folder goes');
    },
  },

  // status
  'status: a flag of another command': { args: ['status', '--language', 'de'], says: /Unknown option '--language'/ },

  // publish: --timeout is whole seconds, and only with --wait.
  ...Object.fromEntries(
    [['0', '0'], ['negative', '=-5'], ['hexadecimal', '0x10'], ['exponent', '1e3'], ['empty', ''], ['padded', ' 5'], ['fraction', '1.5'], ['huge', '99999999999999999999'], ['a word', 'soon'], ['Infinity', 'Infinity'], ['over a day', '86401']].map(([name, value]) => [
      `publish: --timeout ${name}`,
      { args: ['publish', '--wait', value!.startsWith('=') ? `--timeout${value}` : '--timeout', ...(value!.startsWith('=') ? [] : [value!])], says: new RegExp(`--timeout "${value!.replace(/^=/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}": a whole number of seconds`) },
    ]),
  ),
  'publish: --timeout a negative number, spaced': { args: ['publish', '--wait', '--timeout', '-5'], says: /--timeout "-5": a value that starts with "-" is taken for an option; write --timeout=-5 if it is the value/ },
  'push: --language a dash, spaced': { args: ['push', '--language', '-x'], says: /--language "-x": a value that starts with "-" is taken for an option/ },
  'publish: --timeout without --wait': { args: ['publish', '--timeout', '30'], says: /--timeout.*only with --wait/ },
  'publish: --wait with a value': { args: ['publish', '--wait=30'], says: /--wait.*does not take an argument/ },

  // mcp
  'mcp: --server not a URL': { args: ['mcp', '--server', 'localhost:3000'], says: /--server: an http\(s\) URL.*"localhost:3000"/ },
  'mcp: --server empty': { args: ['mcp', '--server', ''], says: /--server: an http\(s\) URL.*""/ },
  'mcp: --server a URL that does not parse': { args: ['mcp', '--server', 'http://['], says: /--server: an http\(s\) URL.*"http:\/\/\["/ },
  'mcp: --server with a user and password': { args: ['mcp', '--server', 'http://me:secret@127.0.0.1:3000'], says: /--server: an http\(s\) URL/ },
  'mcp: --server and --config': { args: ['mcp', '--server', 'http://127.0.0.1:3000', '--config', 'tms.config.json'], says: /--server and --config/ },

  // The API key, from --api-key or TMS_API_KEY.
  'an empty --api-key': { args: ['status', '--api-key', ''], says: /--api-key is empty/ },
  'no API key at all': { args: ['status'], says: /no API key: set TMS_API_KEY or pass --api-key/, noKey: true },
  'an --api-key with characters no header carries': { args: ['status', '--api-key', 'ключ'], says: /--api-key: not an API key/ },
  'an --api-key with a line break inside': { args: ['push', '--api-key', 'key_live_a\nb'], says: /--api-key: not an API key/ },
  'a TMS_API_KEY with characters no header carries': { args: ['pull'], says: /TMS_API_KEY: not an API key/, noKey: true, env: { TMS_API_KEY: 'key_live_é' } },

  // The server's URL, from the config or TMS_SERVER.
  'TMS_SERVER not a URL': { args: ['push'], says: /TMS_SERVER: an http\(s\) URL.*"127\.0\.0\.1:3000"/, env: { TMS_SERVER: '127.0.0.1:3000' } },
  'TMS_SERVER that does not parse': { args: ['pull'], says: /TMS_SERVER: an http\(s\) URL.*"http:\/\/\["/, env: { TMS_SERVER: 'http://[' } },
  'TMS_SERVER with a fragment': { args: ['status'], says: /TMS_SERVER: an http\(s\) URL/, env: { TMS_SERVER: 'http://127.0.0.1:3000/#x' } },
  'a config server with a user and password': { args: ['push'], says: /not a usable tms config:\n {2}server: an http\(s\) URL/, setup: withServer('http://me:secret@127.0.0.1:3000') },
  'a config server with a port out of range': { args: ['push'], says: /not a usable tms config:\n {2}server: an http\(s\) URL/, setup: withServer('http://127.0.0.1:99999') },

  // --config and the file it names.
  '--config that does not exist': { args: ['push', '--config', 'nowhere.json'], says: /nowhere\.json not found: run `tms init` first/ },
  '--config a folder': { args: ['push', '--config', 'locales'], says: /locales is a folder, not a config file/ },
  '--config empty': { args: ['pull', '--config', ''], says: /--config is empty/ },
  '--config given twice, differently': { args: ['status', '--config', 'a.json', '--config', 'b.json'], says: /--config given twice/ },
  'a config that is not JSON': { args: ['push'], says: /tms\.config\.json is not valid JSON/, setup: config('{"server": "http://x",') },
  'a config in YAML': { args: ['pull'], says: /tms\.config\.json is not valid JSON/, setup: config('server: http://127.0.0.1:3000\nsourceLanguage: en\n') },
  'an empty config': { args: ['push'], says: /tms\.config\.json is not valid JSON/, setup: config('') },
  'a config in UTF-16, as PowerShell writes it': { args: ['push'], says: /tms\.config\.json is not UTF-8/, setup: (dir) => config(Buffer.from(`\ufeff${JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] })}`, 'utf16le'))(dir) },
  'a config in Latin-1': { args: ['pull'], says: /tms\.config\.json is not UTF-8/, setup: (dir) => config(Buffer.from(JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'übersetzung/{language}.json', format: 'json' }] }), 'latin1'))(dir) },
  'a config that is null': { args: ['push'], says: /not a usable tms config:\n {2}the file must hold a JSON object/, setup: config('null') },
  'a config that is a list': { args: ['push'], says: /not a usable tms config:\n {2}the file must hold a JSON object/, setup: config([]) },
  'a config with wrong types': { args: ['push'], says: /not a usable tms config:\n {2}server: an http\(s\) URL[^]*\n {2}sourceLanguage: a language code[^]*\n {2}files: a non-empty list/, setup: config({ server: 3000, sourceLanguage: ['en'], files: 'locales/{language}.json' }) },
  'a config with a file entry of wrong types': { args: ['pull'], says: /not a usable tms config:\n {2}files\[0\]\.path: a path containing \{language\}\n {2}files\[0\]\.languagePaths: an object/, setup: config({ server: 'http://127.0.0.1:3000', sourceLanguage: 'en', files: [{ path: 5, format: 'json', languagePaths: ['en'] }] }) },
  'a config with an unknown format': { args: ['push'], says: /not a usable tms config:\n {2}files\[0\]\.format: one of json, json-nested/, setup: config({ server: 'http://127.0.0.1:3000', sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'jsn' }] }) },
  'a config path with a NUL': { args: ['push'], says: /not a usable tms config:\n {2}files\[0\]\.path: a path without NUL characters/, setup: config({ server: 'http://127.0.0.1:3000', sourceLanguage: 'en', files: [{ path: 'l/{language}\u0000.json', format: 'json' }] }) },
};

/**
 * The message on stderr: one line `tms <command>: ...`, or for a config file one such line and
 * then one indented line per field at fault (docs/cli.md); the usage may follow, after a blank line.
 */
function check(name: string, c: Case, run: Run) {
  const message = run.stderr.split('\n\n')[0]!;
  const [first = '', ...more] = message.replace(/\n$/, '').split('\n');
  expect(run.code, `${name}: exit code (stderr: ${run.stderr})`).toBe(c.exit ?? EXIT.usage);
  expect(first, `${name}: stderr's first line`).toMatch(/^tms( [a-z]+)?: \S/);
  for (const line of more) expect(line, `${name}: a further line of the message`).toMatch(/^ {2}\S|^\(.*\)$/);
  expect(message, `${name}: the message (all of stderr: ${run.stderr})`).toMatch(c.says);
  // No stack trace, no internal error names or codes, no "unexpected error" (a bug said politely).
  expect(run.stderr, `${name}: no stack trace`).not.toMatch(/^\s+at .+(:\d+:\d+|\(native\))/m);
  expect(run.stderr, `${name}: no internals`).not.toMatch(/unexpected error|TypeError|RangeError|ReferenceError|ERR_[A-Z_]+|\[object /);
  const command = ['init', 'push', 'pull', 'status', 'publish', 'mcp'].includes(c.args[0] ?? '');
  if (command && c.args.includes('--json')) expect(JSON.parse(run.stdout), `${name}: the --json error document`).toMatchObject({ error: message.replace(/^tms \w+: /, '').replace(/\n$/, ''), exit_code: c.exit ?? EXIT.usage });
  else expect(run.stdout, `${name}: stdout`).toBe('');
}

describe('malformed CLI flags, config files and environment', () => {
  it.concurrent.each(Object.entries(CASES))('%s', async (name, c) => {
    const { p, dir: repo } = await fixture();
    let cwd = repo;
    if (c.empty) {
      cwd = await mkdtemp(join(tmpdir(), 'tms-flags-init-'));
      dirs.push(cwd);
    }
    await c.setup?.(cwd);
    const [serverBefore, filesBefore] = [await project(p), await tree(cwd)];
    const run = await tms(c.args, cwd, { ...(c.noKey ? {} : { TMS_API_KEY: p.apiKey }), ...c.env });
    check(name, c, run);
    expect(await project(p), `${name}: the project changed`).toEqual(serverBefore);
    expect(await tree(cwd), `${name}: the repository changed`).toEqual(filesBefore);
  }, 60_000);
});
