// `tms glossary pull <file>` and `tms glossary push <file>` (docs/cli.md, "Glossary files"): the
// project's glossary as a CSV or TBX file. The CLI runs as a child process against a real server
// over HTTP on the test's database.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles, type Run } from './support/run-tms.ts';
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

/** A project with en (its source language) and de. */
async function newProject(): Promise<TestProject> {
  const p = await served.t.newProject('team');
  for (const code of ['en', 'de']) expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

/** A repository with a tms.config.json for `server` (the test server's by default) and `files`. */
async function repository(files: Record<string, string> = {}, server = served.base): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-glossary-'));
  dirs.push(dir);
  await writeFiles(dir, { ...files, 'tms.config.json': JSON.stringify({ server, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }] }) });
  return dir;
}

const tms = (dir: string, args: string[], apiKey?: string): Promise<Run> => runTms(args, { cwd: dir, ...(apiKey ? { apiKey } : {}) });

/**
 * A glossary as a spreadsheet or a Lokalise / Tolgee glossary export gives it: the header
 * term,description,translatable,case_sensitive,de; a quoted description with a comma, one with a
 * line break, an empty cell (no translation), and CRLF line ends.
 */
const SPREADSHEET =
  [
    'term,description,translatable,case_sensitive,de',
    'Dashboard,The start page after sign-in,yes,no,Übersicht',
    'Acme Cloud,"Our product, never translated",no,yes,',
    'Workspace,"A team\'s space.',
    'Shared by its members.",true,false,Arbeitsbereich',
  ].join('\r\n') + '\r\n';

type Term = { term: string; description: string; translatable: boolean; case_sensitive: boolean; translations: Record<string, string> };

/** What the server holds: GET /v1/glossary, without ids and times. */
async function glossaryOf(p: TestProject): Promise<Term[]> {
  const res = await served.t.call(p.apiKey, 'GET', '/v1/glossary');
  expect(res.status).toBe(200);
  return ((await res.json()) as { terms: Term[] }).terms.map(({ term, description, translatable, case_sensitive, translations }) => ({ term, description, translatable, case_sensitive, translations }));
}

const SPREADSHEET_TERMS: Term[] = [
  { term: 'Acme Cloud', description: 'Our product, never translated', translatable: false, case_sensitive: true, translations: {} },
  { term: 'Dashboard', description: 'The start page after sign-in', translatable: true, case_sensitive: false, translations: { de: 'Übersicht' } },
  { term: 'Workspace', description: "A team's space.\r\nShared by its members.", translatable: true, case_sensitive: false, translations: { de: 'Arbeitsbereich' } },
];

const exported = async (p: TestProject, format: 'csv' | 'tbx') => Buffer.from(await (await served.t.call(p.apiKey, 'GET', `/v1/glossary/export?format=${format}`)).arrayBuffer());

describe('tms glossary push and pull', () => {
  it('pushes a spreadsheet\'s CSV, pulls it back as CSV and TBX (the server\'s files, byte for byte), and each pushes back unchanged', async () => {
    const p = await newProject();
    const dir = await repository({ 'glossary.csv': SPREADSHEET });

    const push = await tms(dir, ['glossary', 'push', 'glossary.csv'], p.apiKey);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toBe('glossary.csv: 3 terms added, 0 changed, 0 unchanged; 2 translations written (de)\n');
    const held = await glossaryOf(p);
    // The description's line break is kept as the file has it.
    expect(held).toEqual(SPREADSHEET_TERMS);

    const csv = await tms(dir, ['glossary', 'pull', 'out/glossary.csv'], p.apiKey);
    expect(csv.code, csv.stderr).toBe(0);
    // Three terms, though the file has four lines after its header: one description holds a line break.
    expect(csv.stdout).toBe('out/glossary.csv: 3 terms written\n');
    const pulled = await readFile(join(dir, 'out/glossary.csv'));
    expect(pulled).toEqual(await exported(p, 'csv'));
    expect(pulled.toString('utf8').split(/\r?\n/)[0]).toBe('term,description,translatable,case_sensitive,forbidden,de');
    expect(pulled.toString('utf8')).toContain('Dashboard,The start page after sign-in,true,false,false,Übersicht');
    // No temporary left beside it.
    expect(await readdir(join(dir, 'out'))).toEqual(['glossary.csv']);

    const tbx = await tms(dir, ['glossary', 'pull', 'glossary.tbx', '--json'], p.apiKey);
    expect(tbx.code, tbx.stderr).toBe(0);
    expect(JSON.parse(tbx.stdout)).toEqual({ path: 'glossary.tbx', format: 'tbx', terms: 3, state: 'created' });
    expect(await readFile(join(dir, 'glossary.tbx'))).toEqual(await exported(p, 'tbx'));
    expect(await readFile(join(dir, 'glossary.tbx'), 'utf8')).toMatch(/<martif[\s\S]*<term>Übersicht<\/term>/);

    // A file whose content the server already has: pulled again, it is not touched.
    const before = (await stat(join(dir, 'out/glossary.csv'))).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const again = await tms(dir, ['glossary', 'pull', 'out/glossary.csv'], p.apiKey);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('out/glossary.csv: unchanged (3 terms)\n');
    expect((await stat(join(dir, 'out/glossary.csv'))).mtimeMs).toBe(before);

    // Either file pushes back as what the server holds.
    const back = await tms(dir, ['glossary', 'push', 'out/glossary.csv', '--json'], p.apiKey);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ path: 'out/glossary.csv', format: 'csv', dry_run: false, terms_created: 0, terms_updated: 0, terms_unchanged: 3, translations_written: 0, warnings: [] });
    const other = await newProject();
    const fromTbx = await tms(dir, ['glossary', 'push', 'glossary.tbx'], other.apiKey);
    expect(fromTbx.code, fromTbx.stderr).toBe(0);
    expect(fromTbx.stdout).toBe('glossary.tbx: 3 terms added, 0 changed, 0 unchanged; 2 translations written (de)\n');
    // The description's line break included.
    expect(await glossaryOf(other)).toEqual(held);
  });

  it('--format names the format of a file whose extension does not (a .xml TBX, a .txt CSV)', async () => {
    const p = await newProject();
    const dir = await repository({ 'terms.txt': SPREADSHEET });
    const push = await tms(dir, ['glossary', 'push', 'terms.txt', '--format', 'csv'], p.apiKey);
    expect(push.code, push.stderr).toBe(0);
    const pull = await tms(dir, ['glossary', 'pull', '--format', 'tbx', 'terms.xml'], p.apiKey);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stdout).toBe('terms.xml: 3 terms written\n');
    expect(await readFile(join(dir, 'terms.xml'))).toEqual(await exported(p, 'tbx'));
  });

  it('--dry-run says what the import would do, warnings included, and writes nothing', async () => {
    const p = await newProject();
    // A Lokalise-like export: a column the import has no use for, and a language the project lacks.
    const file = 'term,description,translatable,case_sensitive,de,fr,tags\nDashboard,Start page,yes,no,Übersicht,Tableau de bord,ui\n';
    const dir = await repository({ 'glossary.csv': file });
    const dry = await tms(dir, ['glossary', 'push', 'glossary.csv', '--dry-run'], p.apiKey);
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.split('\n');
    expect(lines[0]).toBe('glossary.csv (dry run): would add 1 term, change 0, leave 0 unchanged; would write 1 translation (de); nothing was written');
    expect(lines.slice(1, -1)).toEqual([expect.stringMatching(/^ {2}warning: column fr: not a language of the project/), '  warning: columns ignored: tags']);
    expect(await glossaryOf(p)).toEqual([]);

    const json = await tms(dir, ['glossary', 'push', 'glossary.csv', '--dry-run', '--json'], p.apiKey);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ path: 'glossary.csv', dry_run: true, terms_created: 1, translations_written: 1, languages: ['de'] });
    expect(await glossaryOf(p)).toEqual([]);

    // The same push for real writes what the dry run said.
    const real = await tms(dir, ['glossary', 'push', 'glossary.csv'], p.apiKey);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout.split('\n')[0]).toBe('glossary.csv: 1 term added, 0 changed, 0 unchanged; 1 translation written (de)');
    expect((await glossaryOf(p)).map((t) => t.term)).toEqual(['Dashboard']);
  });

  it('a file the server cannot take: exit 1, each refusal with its line, nothing imported', async () => {
    const p = await newProject();
    const bad = 'term,description,translatable,case_sensitive,de\nDashboard,Start page,yes,no,Übersicht\nWorkspace,,maybe,no,Arbeitsbereich\ndashboard,again,yes,no,\n';
    const dir = await repository({ 'bad.csv': bad, 'short.csv': 'term,de\nDashboard\n' });
    const r = await tms(dir, ['glossary', 'push', 'bad.csv'], p.apiKey);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tms glossary push: bad\.csv was refused \(422\); nothing was imported:\n/);
    expect(r.stderr).toMatch(/\n {2}bad\.csv line 3: translatable must be yes or no[^\n]*'maybe'\n/);
    expect(r.stderr).toMatch(/\n {2}bad\.csv line 4: term 'dashboard' appears twice \(lines 2 and 4/);
    expect(await glossaryOf(p)).toEqual([]);

    const json = await tms(dir, ['glossary', 'push', 'short.csv', '--json'], p.apiKey);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ exit_code: 1, path: 'short.csv', issues: [{ line: 2, message: expect.stringMatching(/^short\.csv line 2: expected 2 fields/) }] });
    expect(await glossaryOf(p)).toEqual([]);
  });

  it('a pull that fails (a refused key, a server that is not there) writes nothing: no file, no temporary, the old file as it was', async () => {
    const p = await newProject();
    const dir = await repository({ 'kept.csv': 'term\nOld\n' });
    const refused = await tms(dir, ['glossary', 'pull', 'new/glossary.csv'], 'key_live_wrong');
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/the API key was refused \(401\)/);
    const overwrite = await tms(dir, ['glossary', 'pull', 'kept.csv', '--json'], 'key_live_wrong');
    expect(overwrite.code).toBe(4);
    expect(JSON.parse(overwrite.stdout)).toMatchObject({ exit_code: 4 });
    expect((await readdir(dir)).sort()).toEqual(['kept.csv', 'tms.config.json']);
    expect(await readFile(join(dir, 'kept.csv'), 'utf8')).toBe('term\nOld\n');

    // A server that is gone.
    const gone = await repository({ 'kept.csv': 'term\nOld\n' }, 'http://127.0.0.1:9');
    const lost = await tms(gone, ['glossary', 'pull', 'kept.csv'], p.apiKey);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    expect((await readdir(gone)).sort()).toEqual(['kept.csv', 'tms.config.json']);
    expect(await readFile(join(gone, 'kept.csv'), 'utf8')).toBe('term\nOld\n');
  });
});

describe('tms glossary usage errors (exit 2, before any request)', () => {
  it('the format: an extension --format contradicts, an unknown one without --format, a --format that is none', async () => {
    // The config names a server nobody listens on: a request would be exit 1 ("cannot reach"), not 2.
    const dir = await repository({ 'glossary.csv': SPREADSHEET, 'glossary.txt': SPREADSHEET }, 'http://127.0.0.1:9');
    const cases: [string[], RegExp][] = [
      [['glossary', 'pull', 'glossary.csv', '--format', 'tbx'], /^tms glossary pull: --format tbx, but glossary\.csv is named as a csv file \(\.csv\)/],
      [['glossary', 'push', 'glossary.csv', '--format', 'tbx'], /^tms glossary push: --format tbx, but glossary\.csv is named as a csv file/],
      [['glossary', 'pull', 'out.tbx', '--format', 'csv'], /--format csv, but out\.tbx is named as a tbx file/],
      [['glossary', 'pull', 'glossary.txt'], /^tms glossary pull: glossary\.txt: the format cannot be told from the extension "\.txt": name it \.csv or \.tbx, or give --format/],
      [['glossary', 'push', 'glossary.txt'], /^tms glossary push: glossary\.txt: the format cannot be told from the extension "\.txt"/],
      [['glossary', 'pull', 'glossary'], /the format cannot be told from a name without an extension/],
      [['glossary', 'pull', 'glossary.csv', '--format', 'xlsx'], /^tms glossary pull: --format "xlsx": csv or tbx/],
      [['glossary', 'push', 'missing.csv'], /^tms glossary push: missing\.csv not found/],
      [['glossary', 'push', 'missing.csv', '--dry-run'], /^tms glossary push: missing\.csv not found/],
      [['glossary', 'push'], /^tms glossary push: name the file: tms glossary push glossary\.csv/],
      [['glossary', 'pull', 'a.csv', 'b.csv'], /^tms glossary pull: one file, not 2/],
      [['glossary', 'pull', 'glossary.csv', '--dry-run'], /^tms glossary pull: Unknown option '--dry-run'/],
      [['glossary', 'frob', 'glossary.csv'], /^tms glossary: unknown command "glossary frob": glossary pull or glossary push/],
      [['glossary'], /^$/],
    ];
    const runs = await Promise.all(cases.map(([args]) => tms(dir, args, 'key_live_x')));
    runs.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    });
    expect(await readdir(dir)).toEqual(expect.not.arrayContaining(['out.tbx', 'glossary']));

    // --json: the usage error as a document too.
    const json = await tms(dir, ['glossary', 'push', 'missing.csv', '--json'], 'key_live_x');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: 'missing.csv not found (paths are relative to the current folder)', exit_code: 2 });
  });

  it('help: tms --help names the commands, tms glossary --help and each one\'s --help their options', async () => {
    const dir = await repository();
    const [top, glossary, pull, push] = await Promise.all([tms(dir, ['--help']), tms(dir, ['glossary', '--help']), tms(dir, ['glossary', 'pull', '--help']), tms(dir, ['glossary', 'push', '-h'])]);
    for (const r of [top, glossary, pull, push]) expect(r.code).toBe(0);
    expect(top.stdout).toContain('`tms glossary pull <file>` writes it');
    expect(top.stdout).toContain('`tms glossary push <file>` imports one');
    expect(glossary.stdout).toContain('tms glossary pull <file> [--format csv|tbx]');
    expect(glossary.stdout).toContain('tms glossary push <file> [--format csv|tbx] [--dry-run]');
    expect(pull.stdout).toMatch(/^tms glossary pull <file> \[--format csv\|tbx\] \[--json\]/);
    expect(push.stdout).toMatch(/^tms glossary push <file> \[--format csv\|tbx\] \[--dry-run\] \[--json\]/);
    expect(push.stdout).toContain('term,description,translatable,case_sensitive,forbidden,de');
  });
});
