// An Apple String Catalog (Localizable.xcstrings) holds every language in one file that Xcode also
// writes. push sends it once per language; pull merges each language's texts into it and keeps what
// the server does not hold (other languages, keys Xcode extracted, extraction states, device
// variations), in Xcode's layout. The CLI runs as a child process against a real server over HTTP.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';
import { runTms, writeFiles } from './support/run-tms.ts';
import * as server from '../../core/formats/xcstrings/catalog-json.ts';
import * as cli from '../../cli/src/xcstrings-catalog.ts';

let t: Awaited<ReturnType<typeof startTestApp>>;
let http: ServerType;
let base: string;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  http = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => http.once('listening', () => r()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => http?.close(() => r()));
  await t?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const unit = (value: string) => ({ stringUnit: { state: 'translated', value } });
const plural = (forms: Record<string, string>) => ({ variations: { plural: Object.fromEntries(Object.entries(forms).map(([c, v]) => [c, unit(v)])) } });

// As Xcode keeps an app's catalog: keys are source texts, English implicit where it equals the key.
const CATALOG = {
  sourceLanguage: 'en',
  strings: {
    Hello: { comment: 'Greeting on the home screen', localizations: { de: unit('Hallo') } },
    '%lld items': { localizations: { de: plural({ one: '%lld Artikel', other: '%lld Artikel' }), en: plural({ one: '%lld item', other: '%lld items' }) } },
    Settings: { localizations: { de: unit('Einstellungen') } },
    'Tap to continue': { extractionState: 'stale' },
    'Version %@': { localizations: { de: { variations: { device: { mac: unit('Version %@ (Mac)'), other: unit('Version %@') } } } } },
    Acme: { shouldTranslate: false },
  },
  version: '1.0',
};
const catalogBytes = (catalog: object) => Buffer.from(server.writeCatalog(catalog as never));

async function project() {
  const p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const dir = await mkdtemp(join(tmpdir(), 'tms-xcstrings-'));
  dirs.push(dir);
  return { p, dir };
}

const values = async (apiKey: string, language: string) => (await (await t.call(apiKey, 'GET', `/v1/export/${language}?format=json&status=all`)).json()) as Record<string, string>;

describe('a String Catalog with the CLI', () => {
  it('init maps it without {language}; push imports each language; pull merges the server into it and keeps the rest', async () => {
    const { p, dir } = await project();
    const init = await runTms(['init', '--server', base, '--source-language', 'en', '--file', 'App/Localizable.xcstrings:xcstrings'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'tms.config.json'), 'utf8')).files).toEqual([{ path: 'App/Localizable.xcstrings', format: 'xcstrings' }]);
    const file = join(dir, 'App/Localizable.xcstrings');
    await writeFiles(dir, { 'App/Localizable.xcstrings': catalogBytes(CATALOG).toString('utf8') });

    const push = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('App/Localizable.xcstrings (en, xcstrings): created 6 keys, 6 values');
    expect(push.stdout).toContain('App/Localizable.xcstrings (de, xcstrings): created 0 keys, 3 values');
    expect(await values(p.apiKey, 'en')).toEqual({
      Hello: 'Hello',
      '%lld items': '{count, plural, one {# item} other {# items}}',
      Settings: 'Settings',
      'Tap to continue': 'Tap to continue',
      'Version %@': 'Version %@',
      Acme: 'Acme',
    });
    // The device variation has no place in tms: skipped for German, with a warning.
    expect(await values(p.apiKey, 'de')).toEqual({ Hello: 'Hallo', '%lld items': '{count, plural, one {# Artikel} other {# Artikel}}', Settings: 'Einstellungen' });
    expect(push.stdout).toMatch(/Version %@/);
    // Keys are texts: new ones go to Default, not to a group named after their first sentence.
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys?limit=100')).json()).keys as { id: string; key: string; group_name: string }[];
    expect(new Set(keys.map((k) => k.group_name))).toEqual(new Set(['Default']));
    const id = (key: string) => keys.find((k) => k.key === key)!.id;

    // On the server: French is translated, a German text is withdrawn, a key is added.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id('Hello')}/translations/fr`, { value: 'Bonjour', status: 'approved' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id('Settings')}/translations/de`)).status).toBe(204);
    const created = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'Sign out', description: 'Menu item' })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/de`, { value: 'Abmelden', status: 'approved' })).status).toBe(200);

    const before = await readFile(file);
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stdout).toContain('App/Localizable.xcstrings (de, xcstrings): written');
    expect(pull.stdout).toContain('App/Localizable.xcstrings (fr, xcstrings): written');
    expect(pull.stdout).toContain('App/Localizable.xcstrings (en, xcstrings): skipped (source language');
    const after = await readFile(file);
    // Xcode's layout: what the server's writer (checked against Xcode's files) makes of it.
    expect(after.equals(catalogBytes(server.readCatalog(after)))).toBe(true);
    const merged = server.readCatalog(after).strings as Record<string, { comment?: string; extractionState?: string; shouldTranslate?: boolean; localizations?: Record<string, unknown> }>;
    expect(merged.Hello).toEqual({ comment: 'Greeting on the home screen', localizations: { de: unit('Hallo'), fr: unit('Bonjour') } });
    // Withdrawn on the server: gone from the file, as from a per-language file.
    expect(merged.Settings).toEqual({});
    expect(merged['Sign out']).toEqual({ comment: 'Menu item', extractionState: 'manual', localizations: { de: unit('Abmelden') } });
    // What the server does not hold stays as Xcode wrote it.
    expect(merged['%lld items']).toEqual(CATALOG.strings['%lld items']);
    expect(merged['Tap to continue']).toEqual({ extractionState: 'stale' });
    expect(merged['Version %@']).toEqual(CATALOG.strings['Version %@']);
    expect(merged.Acme).toEqual({ shouldTranslate: false });
    expect(after.equals(before)).toBe(false);

    // Nothing new: not a byte (nor the mtime) changes.
    const mtime = (await stat(file)).mtimeMs;
    const again = await runTms(['pull', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout).files as { state: string }[]).map((f) => f.state)).toEqual(['unchanged', 'unchanged']);
    expect((await readFile(file)).equals(after)).toBe(true);
    expect((await stat(file)).mtimeMs).toBe(mtime);

    // Pushed back as pulled, no value changes.
    const pushed = await runTms(['push', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(pushed.code, pushed.stderr).toBe(0);
    const files = JSON.parse(pushed.stdout).files as { language: string; values_created: number; values_updated: number; keys_created: number }[];
    for (const f of files.filter((f) => f.language !== 'en')) expect(f.values_created + f.values_updated + f.keys_created, f.language).toBe(0);
    // The key made on the server gets its English text from the catalog: the key itself.
    expect(files.find((f) => f.language === 'en')).toMatchObject({ keys_created: 0, values_created: 1, values_updated: 0 });

    // --include-source writes English too, leaving texts equal to their keys implicit.
    expect((await runTms(['pull', '--include-source'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    const withSource = server.readCatalog(await readFile(file)).strings as typeof merged;
    expect(withSource.Hello!.localizations!.en).toBeUndefined();
    expect(withSource['%lld items']!.localizations!.en).toEqual(plural({ one: '%lld item', other: '%lld items' }));
  });

  it("push then pull leaves an Xcode catalog byte for byte: what the server does not read, Xcode's states, %d, a code's case", async () => {
    const config = JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'Localizable.xcstrings', format: 'xcstrings' }] });
    // The format's fixture: positional substitutions, `needs_review` and `stale` states, untranslated
    // units, keys with line breaks, device variations: texts the server skips or reads differently.
    const fixture = await readFile(join(import.meta.dirname, '../fixtures/formats/Localizable.xcstrings'), 'utf8');
    const spelled = catalogBytes({
      sourceLanguage: 'en',
      strings: {
        '%d files': { localizations: { de: plural({ one: '%d Datei', other: '%d Dateien' }), en: plural({ one: '%d file', other: '%d files' }) } },
        Hello: { localizations: { 'DE': unit('Hallo'), fr: { stringUnit: { state: 'needs_review', value: 'Salut' } } } },
      },
      version: '1.1',
    }).toString('utf8');
    let last: Awaited<ReturnType<typeof project>> | undefined;
    for (const original of [fixture, spelled]) {
      last = await project();
      const { p, dir } = last;
      await writeFiles(dir, { 'tms.config.json': config, 'Localizable.xcstrings': original });
      const push = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
      expect(push.code, push.stderr).toBe(0);
      const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
      expect(pull.code, pull.stderr).toBe(0);
      expect(await readFile(join(dir, 'Localizable.xcstrings'), 'utf8')).toBe(original);
    }
    // A text changed on the server replaces the file's, state and all.
    const { p, dir } = last!;
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys?search=Hello')).json()).keys as { id: string; key: string }[];
    const hello = keys.find((k) => k.key === 'Hello')!.id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${hello}/translations/fr`, { value: 'Bonjour', status: 'approved' })).status).toBe(200);
    expect((await runTms(['pull'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    const after = server.readCatalog(await readFile(join(dir, 'Localizable.xcstrings'))).strings as Record<string, { localizations: Record<string, unknown> }>;
    expect(after.Hello!.localizations).toEqual({ DE: unit('Hallo'), fr: unit('Bonjour') });
  });

  it("refuses a catalog whose sourceLanguage is not the config's (exit 2), nothing sent or written", async () => {
    const { p, dir } = await project();
    const original = catalogBytes({ sourceLanguage: 'en-US', strings: { Hello: { localizations: { de: unit('Hallo') } } }, version: '1.0' }).toString('utf8');
    await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'L.xcstrings', format: 'xcstrings' }] }), 'L.xcstrings': original });
    for (const command of ['push', 'pull']) {
      const run = await runTms([command], { cwd: dir, apiKey: p.apiKey });
      expect(run.code, command).toBe(2);
      expect(run.stderr).toContain('sourceLanguage is "en-US"');
    }
    expect(await values(p.apiKey, 'de')).toEqual({});
    expect(await readFile(join(dir, 'L.xcstrings'), 'utf8')).toBe(original);
  });

  it('a file that is no catalog stops the pull with nothing written; a pull into no file creates the catalog', async () => {
    const { p, dir } = await project();
    await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'Localizable.xcstrings', format: 'xcstrings' }] }) });
    const created = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'Done' })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/de`, { value: 'Fertig', status: 'approved' })).status).toBe(200);

    const fresh = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('Localizable.xcstrings (de, xcstrings): created');
    const catalog = server.readCatalog(await readFile(join(dir, 'Localizable.xcstrings')));
    expect(catalog.sourceLanguage).toBe('en');
    expect(catalog.strings).toEqual({ Done: { extractionState: 'manual', localizations: { de: unit('Fertig') } } });

    await writeFile(join(dir, 'Localizable.xcstrings'), '{"strings": {}');
    const broken = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('Localizable.xcstrings');
    expect(broken.stderr).toContain('nothing was written');
    expect(await readFile(join(dir, 'Localizable.xcstrings'), 'utf8')).toBe('{"strings": {}');
  });

  it('refuses a catalog path with {language}, languagePaths on it, or the catalog mapped twice (exit 2)', async () => {
    const { p, dir } = await project();
    const cases: [object[], string][] = [
      [[{ path: '{language}.lproj/Localizable.xcstrings', format: 'xcstrings' }], 'holds every language'],
      [[{ path: 'Localizable.xcstrings', format: 'xcstrings', languagePaths: { de: 'de.xcstrings' } }], 'languagePaths'],
      [[{ path: 'Localizable.xcstrings', format: 'xcstrings' }, { path: 'Localizable.xcstrings', format: 'xcstrings' }], 'the same file'],
    ];
    for (const [files, said] of cases) {
      await writeFiles(dir, { 'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files }) });
      const run = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
      expect(run.code, JSON.stringify(files)).toBe(2);
      expect(run.stderr).toContain(said);
    }
  });

  it("the CLI writes a catalog byte for byte as the server's export does", async () => {
    const { p } = await project();
    const texts = ['Zoom', 'zoom in', 'Key10', 'Key2', '%@ of %@', '© 2026', '$5', '360°', 'Ärger', 'a/b "quoted"', 'baidu.com', 'Baidu', 'Before'];
    for (const key of texts) {
      const made = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key, description: key.length % 2 ? `About ${key}` : undefined })).json()) as { id: string };
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${made.id}/translations/de`, { value: `${key}\t(de)\n` })).status).toBe(200);
    }
    const exported = Buffer.from(await (await t.call(p.apiKey, 'GET', '/v1/export/de?format=xcstrings&source=en&status=all')).arrayBuffer());
    expect(Object.keys(server.readCatalog(exported).strings)).toHaveLength(texts.length);
    expect(Buffer.from(cli.writeCatalog(cli.readCatalog(exported))).equals(exported)).toBe(true);
  });
});
