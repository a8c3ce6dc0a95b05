// `genstrings` writes every NSLocalizedString key into Localizable.strings, plural keys included,
// and iOS takes a key's Localizable.stringsdict entry over its .strings one. `tms push` pairs the
// two files of one .lproj folder as pull does, and leaves the .stringsdict's keys out of the .strings
// upload: in every language the plural is what the server gets, and a pull gives it back. Once both
// files were pushed as they were: a translation's .strings text was stored and the plural "kept"
// against it, the source language's last file won, and the next pull took the German plural out of
// the .stringsdict. The CLI runs as a child process against a real server over HTTP.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrings } from '../../core/formats/codecs/ios-strings.ts';
import { stringsWithout } from '../../cli/src/file-keys/strings.ts';
import { runTms, writeFiles, type Run } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let app: ServedApp;
const dirs: string[] = [];

beforeAll(async () => {
  app = await serveTestApp();
});
afterAll(async () => {
  await app?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'tms-ios-pair-'));
  dirs.push(d);
  return d;
}

async function project() {
  const p = await app.t.newProject('team');
  for (const code of ['en', 'de']) expect((await app.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

// As Xcode writes a plural rule: one variable, the count as %d.
const stringsdict = (key: string, forms: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>${key}</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@notes@</string>
		<key>notes</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
${Object.entries(forms)
  .map(([k, t]) => `			<key>${k}</key>\n			<string>${t}</string>`)
  .join('\n')}
		</dict>
	</dict>
</dict>
</plist>
`;

const PAIR = [
  { path: 'Notes/{language}.lproj/Localizable.strings', format: 'ios-strings' },
  { path: 'Notes/{language}.lproj/Localizable.stringsdict', format: 'ios-stringsdict' },
];

// What genstrings leaves: notes_count in both files of each .lproj.
const FILES = {
  'Notes/en.lproj/Localizable.strings': '/* Fallback when the plural rule is missing */\n"notes_count" = "%d notes";\n\n/* Title of the notes list */\n"title" = "Notes";\n',
  'Notes/de.lproj/Localizable.strings': '/* Fallback when the plural rule is missing */\n"notes_count" = "%d Notizen";\n\n/* Title of the notes list */\n"title" = "Notizen";\n',
  'Notes/en.lproj/Localizable.stringsdict': stringsdict('notes_count', { zero: 'No notes', one: '%d note', other: '%d notes' }),
  'Notes/de.lproj/Localizable.stringsdict': stringsdict('notes_count', { zero: 'Keine Notizen', one: '%d Notiz', other: '%d Notizen' }),
};

const LINE = '  1 key also in Localizable.stringsdict: its plurals are used (notes_count)';

const json = (run: Run) => {
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return JSON.parse(run.stdout) as { dry_run: boolean; files: Record<string, any>[]; skipped: string[] };
};

async function values(apiKey: string, language: string): Promise<Record<string, string>> {
  const body = (await (await app.t.call(apiKey, 'GET', `/v1/translations/${language}?status=all`)).json()) as { translations: Record<string, { value: string }> };
  return Object.fromEntries(Object.entries(body.translations).map(([k, v]) => [k, v.value]));
}

/** A push --json that changed nothing on the server. */
function noChange(run: Run) {
  for (const f of json(run).files) {
    expect({ path: f.path, k: f.keys_created, c: f.values_created, u: f.values_updated, kept: f.values_kept, d: f.descriptions_updated }).toEqual({ path: f.path, k: 0, c: 0, u: 0, kept: 0, d: 0 });
  }
}

describe('tms push: a key in both files of an iOS pair', () => {
  it('pushes the .stringsdict plural in the source and the translations, says so, and pulls it back', async () => {
    const p = await project();
    const repo = await tempDir();
    await writeFiles(repo, { ...FILES, 'tms.config.json': JSON.stringify({ server: app.base, sourceLanguage: 'en', files: PAIR }) });
    const tms = (args: string[], cwd = repo) => runTms(args, { cwd, apiKey: p.apiKey });

    // Dry run: the same answer and the same line, nothing written.
    const dry = await tms(['push', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    for (const language of ['en', 'de']) {
      expect(dry.stdout).toContain(`Notes/${language}.lproj/Localizable.strings (${language}, ios-strings): would create 1 key, 1 value;`);
      expect(dry.stdout).toMatch(new RegExp(`Localizable\\.strings \\(${language}, ios-strings\\): [^\\n]*\\n${LINE.replace(/[()]/g, '\\$&')}\\n`));
    }
    const dryJson = json(await tms(['push', '--dry-run', '--json']));
    expect(dryJson.dry_run).toBe(true);
    for (const language of ['en', 'de']) {
      const strings = dryJson.files.find((f) => f.path === `Notes/${language}.lproj/Localizable.strings`)!;
      expect(strings.also_in_stringsdict).toEqual([{ path: `Notes/${language}.lproj/Localizable.stringsdict`, keys: ['notes_count'] }]);
      expect(strings.values_created).toBe(1);
      expect(dryJson.files.find((f) => f.path === `Notes/${language}.lproj/Localizable.stringsdict`)).not.toHaveProperty('also_in_stringsdict');
    }
    expect(((await (await app.t.call(p.apiKey, 'GET', '/v1/keys')).json()) as { keys: unknown[] }).keys).toEqual([]);

    // The push: the plural in both languages; the key only in .strings is pushed as before.
    const push = await tms(['push']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout.split('\n').filter((l) => l === LINE)).toHaveLength(2);
    expect(push.stdout).not.toContain('kept');
    const en = await values(p.apiKey, 'en');
    const de = await values(p.apiKey, 'de');
    expect(en.notes_count).toMatch(/^\{notes, plural, .*# notes\}\}$/);
    expect(de.notes_count).toMatch(/^\{notes, plural, .*# Notizen\}\}$/);
    expect(en.title).toBe('Notes');
    expect(de.title).toBe('Notizen');
    const keys = ((await (await app.t.call(p.apiKey, 'GET', '/v1/keys')).json()) as { keys: { key: string; description: string | null }[] }).keys;
    expect(keys.find((k) => k.key === 'title')?.description).toBe('Title of the notes list');

    // Pushed again as they are: nothing changes (and the same is said).
    const again = await tms(['push', '--json']);
    noChange(again);
    expect(json(again).files.filter((f) => f.also_in_stringsdict).map((f) => f.path)).toEqual(['Notes/en.lproj/Localizable.strings', 'Notes/de.lproj/Localizable.strings']);

    // Pulled into a clean checkout: the German plural is in the .stringsdict, and pushing it back
    // changes nothing.
    const clean = await tempDir();
    await writeFile(join(clean, 'tms.config.json'), JSON.stringify({ server: app.base, sourceLanguage: 'en', files: PAIR }));
    const pull = await tms(['pull', '--include-source'], clean);
    expect(pull.code, pull.stderr).toBe(0);
    const deDict = await readFile(join(clean, 'Notes/de.lproj/Localizable.stringsdict'), 'utf8');
    expect(deDict).toContain('<key>notes_count</key>');
    expect(deDict).toContain('<string>%lld Notizen</string>');
    expect(deDict).toContain('<string>Keine Notizen</string>');
    const deStrings = await readFile(join(clean, 'Notes/de.lproj/Localizable.strings'), 'utf8');
    expect(deStrings).toContain('"title" = "Notizen";');
    expect(deStrings).not.toContain('notes_count');
    const back = await tms(['push', '--json'], clean);
    noChange(back);
    expect(json(back).files.some((f) => f.also_in_stringsdict)).toBe(false);
    noChange(await tms(['push', '--json', '--dry-run', '--conflict', 'overwrite'], clean));
  });

  it('--conflict fail no longer finds the two files of a pair at odds; a .strings of only such keys is pushed empty', async () => {
    const p = await project();
    const repo = await tempDir();
    await writeFiles(repo, { ...FILES, 'tms.config.json': JSON.stringify({ server: app.base, sourceLanguage: 'en', files: PAIR }) });
    const push = await runTms(['push', '--conflict', 'fail'], { cwd: repo, apiKey: p.apiKey });
    expect(push.code, push.stderr + push.stdout).toBe(0);
    expect((await values(p.apiKey, 'de')).notes_count).toMatch(/plural/);

    await writeFiles(repo, { 'Notes/de.lproj/Localizable.strings': '"notes_count" = "%d Notizen";\n' });
    const only = await runTms(['push', '--language', 'de', '--json'], { cwd: repo, apiKey: p.apiKey });
    const strings = json(only).files.find((f) => f.path === 'Notes/de.lproj/Localizable.strings')!;
    expect(strings.also_in_stringsdict).toEqual([{ path: 'Notes/de.lproj/Localizable.stringsdict', keys: ['notes_count'] }]);
    expect(strings.values_unchanged + strings.values_created + strings.values_updated).toBe(0);
    noChange(only);
  });

  it('a .strings file without a .stringsdict in its folder still pushes every key', async () => {
    const p = await project();
    const repo = await tempDir();
    const files = [PAIR[0], { path: 'Dict/{language}.lproj/Localizable.stringsdict', format: 'ios-stringsdict' }];
    await writeFiles(repo, {
      'Notes/de.lproj/Localizable.strings': FILES['Notes/de.lproj/Localizable.strings'],
      'Dict/de.lproj/Localizable.stringsdict': FILES['Notes/de.lproj/Localizable.stringsdict'],
      'tms.config.json': JSON.stringify({ server: app.base, sourceLanguage: 'en', files }),
    });
    const dry = json(await runTms(['push', '--dry-run', '--json', '--language', 'de'], { cwd: repo, apiKey: p.apiKey }));
    const strings = dry.files.find((f) => f.path === 'Notes/de.lproj/Localizable.strings')!;
    expect(strings).not.toHaveProperty('also_in_stringsdict');
    expect(strings.values_created).toBe(2);
  });
});

describe('stringsWithout: the rest of the file reads as before', () => {
  const read = (body: Uint8Array) => parseStrings(new TextDecoder().decode(body)).entries;
  const expected = (text: string, drop: Set<string>) => parseStrings(text).entries.filter((e) => !drop.has(e.key));

  it('keeps descriptions and line numbers; UTF-16 comes out as UTF-8', () => {
    const text = '/* header */\n\n/* a */\n"a" = "A";\n/* dup */\n"dup" = "D";\n/* b */\n"b" = "B";\n"c" = "C\\nD"; // trails c\n"dup2" = "x";\n"d" = "D";\n';
    const drop = new Set(['dup', 'dup2']);
    const out = stringsWithout(Buffer.from(text), drop);
    expect(read(out)).toEqual(expected(text, drop));
    expect(out.toString('utf8').split('\n').findIndex((l) => l.startsWith('"b"'))).toBe(text.split('\n').findIndex((l) => l.startsWith('"b"')));
    expect(out.toString('utf8').split('\n').findIndex((l) => l.startsWith('"d"'))).toBe(text.split('\n').findIndex((l) => l.startsWith('"d"')));
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(stringsWithout(utf16, drop).equals(out)).toBe(true);
  });

  it('a comment that trailed a removed entry stays nobody\'s description', () => {
    for (const text of [
      '"dup" = "D"; // old\n"next" = "N";\n',
      '"dup" = "D"; /* old */ // older\n// still\n"next" = "N";\n',
      '"a" = "A";\n"dup" = "D"; /* old */\n"next" = "N";\n',
      '"dup" = "D"; /* old\n */ /* desc */\n"next" = "N";\n',
    ]) {
      const drop = new Set(['dup']);
      expect(read(stringsWithout(Buffer.from(text), drop)), text).toEqual(expected(text, drop));
    }
  });

  it('any file, any keys removed (generated)', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const gap = fc.array(fc.constantFrom(' ', '\n', '\n\n', '\t', '/* c1 */', '/* two\nlines */', '// l1\n', '// l2\n', '\r\n'), { maxLength: 5 }).map((parts) => parts.join(''));
    const file = fc.uniqueArray(key, { maxLength: 6 }).chain((keys) =>
      fc.tuple(fc.array(gap, { minLength: keys.length + 1, maxLength: keys.length + 1 }), fc.constant(keys)).map(([gaps, ks]) =>
        ks.map((k, i) => `${gaps[i]}"${k}" = "${k.toUpperCase()}";`).join('') + gaps[ks.length]!,
      ),
    );
    fc.assert(
      fc.property(file, fc.subarray(['a', 'b', 'c', 'd', 'e', 'f']), (text, dropped) => {
        const drop = new Set(dropped);
        expect(read(stringsWithout(Buffer.from(text), drop))).toEqual(expected(text, drop));
      }),
      { numRuns: 2000 },
    );
  });
});
