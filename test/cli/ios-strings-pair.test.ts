// An iOS app keeps each language's plurals in Localizable.stringsdict and its other strings in
// Localizable.strings, side by side in its .lproj folder. Mapped together, push imports each file's
// own keys and pull gives each file its share (the export's plurals=only and plurals=none), decided
// by that language's value; a .strings file without a .stringsdict in its folder still gets every
// key. The CLI runs as a
// child process against a real server over HTTP on the test's database.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';
import { runTms, writeFiles } from './support/run-tms.ts';

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const strings = (entries: [string, string, string?][]) =>
  entries.map(([key, value, comment]) => `${comment ? `/* ${comment} */\n` : ''}"${key}" = "${value}";\n`).join('\n');

// As Xcode writes a plural rule: one variable, the count as %d.
const stringsdict = (key: string, one: string, other: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>${key}</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@messages@</string>
		<key>messages</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
			<key>one</key>
			<string>${one}</string>
			<key>other</key>
			<string>${other}</string>
		</dict>
	</dict>
</dict>
</plist>
`;

const LPROJ = 'ios/App/{language}.lproj';
const PAIR = [
  { path: `${LPROJ}/Localizable.strings`, format: 'ios-strings' },
  { path: `${LPROJ}/Localizable.stringsdict`, format: 'ios-stringsdict' },
];

describe('Localizable.strings beside Localizable.stringsdict', () => {
  it('push imports both; pull writes the plurals to .stringsdict and the other strings to .strings', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    dir = await mkdtemp(join(tmpdir(), 'tms-ios-'));
    await writeFiles(dir, {
      'ios/App/en.lproj/Localizable.strings': strings([
        ['home.title', 'Welcome', 'Title of the home screen'],
        ['inbox.empty', 'Nothing here'],
      ]),
      'ios/App/en.lproj/Localizable.stringsdict': stringsdict('inbox.messages', '%d message', '%d messages'),
      'ios/App/de.lproj/Localizable.strings': strings([
        ['home.title', 'Willkommen'],
        ['inbox.empty', 'Nichts hier'],
      ]),
      'ios/App/de.lproj/Localizable.stringsdict': stringsdict('inbox.messages', '%d Nachricht', '%d Nachrichten'),
      'tms.config.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: PAIR }),
    });
    const push = await runTms(['push', '--status', 'approved'], { cwd: dir, apiKey: p.apiKey });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('ios/App/en.lproj/Localizable.strings (en, ios-strings): created 2 keys, 2 values');
    expect(push.stdout).toContain('ios/App/en.lproj/Localizable.stringsdict (en, ios-stringsdict): created 1 key, 1 value');

    // A translator edits German on the server; pull rewrites each file with its own keys only.
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { id: string; key: string }[];
    const id = (name: string) => keys.find((k) => k.key === name)!.id;
    const put = (name: string, value: string) => t.call(p.apiKey, 'PUT', `/v1/keys/${id(name)}/translations/de`, { value, status: 'approved' });
    expect((await put('home.title', 'Hallo')).status).toBe(200);
    expect((await put('inbox.messages', '{messages, plural, one {# neue Nachricht} other {# neue Nachrichten}}')).status).toBe(200);
    const pull = await runTms(['pull'], { cwd: dir, apiKey: p.apiKey });
    expect(pull.code, pull.stderr).toBe(0);
    const deStrings = await readFile(join(dir, 'ios/App/de.lproj/Localizable.strings'), 'utf8');
    const deDict = await readFile(join(dir, 'ios/App/de.lproj/Localizable.stringsdict'), 'utf8');
    expect(deStrings).toContain('"home.title" = "Hallo";');
    expect(deStrings).toContain('"inbox.empty" = "Nichts hier";');
    expect(deStrings).not.toContain('inbox.messages');
    expect(deDict).toContain('<key>inbox.messages</key>');
    expect(deDict).toContain('<string>%lld neue Nachrichten</string>');
    expect(deDict).not.toContain('home.title');
    expect(deDict).not.toContain('inbox.empty');

    // The split follows each language's own value: a German text without a plural goes to .strings.
    expect((await put('inbox.messages', 'Neue Nachrichten')).status).toBe(200);
    expect((await runTms(['pull'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    expect(await readFile(join(dir, 'ios/App/de.lproj/Localizable.strings'), 'utf8')).toContain('"inbox.messages" = "Neue Nachrichten";');
    expect(await readFile(join(dir, 'ios/App/de.lproj/Localizable.stringsdict'), 'utf8')).not.toContain('inbox.messages');

    // Pushed back as pulled, nothing changes: each file holds what the server split into it.
    const again = await runTms(['push', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(again.code, again.stderr).toBe(0);
    for (const f of JSON.parse(again.stdout).files as { values_created: number; values_updated: number }[]) expect(f.values_created + f.values_updated).toBe(0);

    // A .strings file mapped alone (an app without a .stringsdict) still gets every key.
    await writeFiles(dir, { 'alone.json': JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'alone/{language}.strings', format: 'ios-strings' }] }) });
    expect((await runTms(['pull', '--config', 'alone.json'], { cwd: dir, apiKey: p.apiKey })).code).toBe(0);
    const alone = await readFile(join(dir, 'alone/de.strings'), 'utf8');
    for (const key of ['home.title', 'inbox.empty', 'inbox.messages']) expect(alone).toContain(`"${key}"`);

    // Only files in one folder pair up: beside the app's pair, a widget extension's own .strings
    // (no .stringsdict in its bundle) gets every key, and so does a .stringsdict mapped alone.
    expect((await put('inbox.messages', '{messages, plural, one {# neue Nachricht} other {# neue Nachrichten}}')).status).toBe(200);
    await writeFiles(dir, {
      'targets.json': JSON.stringify({
        server: base,
        sourceLanguage: 'en',
        files: [...PAIR, { path: 'ios/Widget/{language}.lproj/Localizable.strings', format: 'ios-strings' }, { path: 'ios/Dict/{language}.lproj/Localizable.stringsdict', format: 'ios-stringsdict' }],
      }),
    });
    const targets = await runTms(['pull', '--config', 'targets.json', '--language', 'de'], { cwd: dir, apiKey: p.apiKey });
    expect(targets.code, targets.stderr).toBe(0);
    expect(await readFile(join(dir, 'ios/App/de.lproj/Localizable.strings'), 'utf8')).not.toContain('inbox.messages');
    const widget = await readFile(join(dir, 'ios/Widget/de.lproj/Localizable.strings'), 'utf8');
    for (const key of ['home.title', 'inbox.empty', 'inbox.messages']) expect(widget).toContain(`"${key}"`);
    const dictAlone = await readFile(join(dir, 'ios/Dict/de.lproj/Localizable.stringsdict'), 'utf8');
    for (const key of ['home.title', 'inbox.empty', 'inbox.messages']) expect(dictAlone).toContain(`<key>${key}</key>`);
  });

  it('GET /v1/export takes plurals=only|none and refuses another value with 422', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' })).status).toBe(201);
    for (const [key, value] of [
      ['a.plain', 'Plain'],
      ['b.count', '{n, plural, one {# file} other {# files}}'],
      ['c.mixed', 'You have {n, plural, one {# file} other {# files}} left'],
      ['d.select', '{g, select, female {She} other {They}}'],
    ]) {
      const created = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'Default' })).json();
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${created.id}/translations/en`, { value, status: 'approved' })).status).toBe(200);
    }
    const keysIn = async (plurals: string) => Object.keys(await (await t.call(p.apiKey, 'GET', `/v1/export/en?format=json&plurals=${plurals}`)).json());
    expect(await keysIn('only')).toEqual(['b.count', 'c.mixed']);
    expect(await keysIn('none')).toEqual(['a.plain', 'd.select']);
    expect(await keysIn('all')).toEqual(['a.plain', 'b.count', 'c.mixed', 'd.select']);
    const refused = await t.call(p.apiKey, 'GET', '/v1/export/en?plurals=some');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain('plurals');
  });
});
