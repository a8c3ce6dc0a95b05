// Xcode: en.lproj/Localizable.strings (+ .stringsdict), de.lproj likewise; de's .strings in UTF-16 LE with a BOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, keys, noChange, report, scenario, serveTestApp, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const EN_STRINGS = `/* 
  Localizable.strings
  Notes

  Created by Anna Schmidt on 01.11.26.
  
*/

/* Title of the main screen */
"home.title" = "Welcome";

/* Greeting with the user's name */
"greeting" = "Hello, %@!";

/* No comment provided by engineer. */
"quote" = "He said \\"hello\\"";

// Two lines on the empty screen
"multiline" = "First line\\nSecond line";
"tab" = "Name:\\tValue";
"path" = "C:\\\\Users";
"unicode" = "Caf\\U00E9";
"positional" = "%1$@ sent you %2$d messages";
"percent" = "100%% done";
"Cancel" = "Cancel";
`;

const DE_STRINGS = `/* 
  Localizable.strings
  Notes

  Created by Anna Schmidt on 01.11.26.
  
*/

/* Title of the main screen */
"home.title" = "Willkommen";

/* Greeting with the user's name */
"greeting" = "Hallo, %@!";

/* No comment provided by engineer. */
"quote" = "Er sagte \\"hallo\\"";

// Two lines on the empty screen
"multiline" = "Erste Zeile\\nZweite Zeile";
"tab" = "Name:\\tWert";
"path" = "C:\\\\Benutzer";
"unicode" = "Caf\\U00E9 au lait";
"positional" = "%1$@ hat dir %2$d Nachrichten gesendet";
"percent" = "100%% erledigt";
"Cancel" = "Abbrechen";
`;

const dict = (name: string, fmt: string, vars: [string, Record<string, string>][]) => `	<key>${name}</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>${fmt}</string>
${vars
  .map(
    ([v, forms]) => `		<key>${v}</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
${Object.entries(forms)
  .map(([k, t]) => `			<key>${k}</key>\n			<string>${t}</string>`)
  .join('\n')}
		</dict>`,
  )
  .join('\n')}
	</dict>`;

const plist = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
${body}
</dict>
</plist>
`;

const EN_DICT = plist(
  [
    dict('notes_count', '%#@notes@', [['notes', { zero: 'No notes', one: '%d note', other: '%d notes' }]]),
    dict('files_in_folders', '%#@files@ in %#@folders@', [
      ['files', { one: '%d file', other: '%d files' }],
      ['folders', { one: '%d folder', other: '%d folders' }],
    ]),
  ].join('\n'),
);
const DE_DICT = plist(
  [
    dict('notes_count', '%#@notes@', [['notes', { zero: 'Keine Notizen', one: '%d Notiz', other: '%d Notizen' }]]),
    dict('files_in_folders', '%#@files@ in %#@folders@', [
      ['files', { one: '%d Datei', other: '%d Dateien' }],
      ['folders', { one: '%d Ordner', other: '%d Ordnern' }],
    ]),
  ].join('\n'),
);

const FILES: Record<string, string | Buffer> = {
  'Notes/en.lproj/Localizable.strings': EN_STRINGS,
  'Notes/de.lproj/Localizable.strings': utf16le(DE_STRINGS),
  'Notes/en.lproj/Localizable.stringsdict': EN_DICT,
  'Notes/de.lproj/Localizable.stringsdict': DE_DICT,
};
let app: ServedApp;
let s: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s = await scenario(
    app,
    [
      { path: 'Notes/{language}.lproj/Localizable.strings', format: 'ios-strings' },
      { path: 'Notes/{language}.lproj/Localizable.stringsdict', format: 'ios-stringsdict' },
    ],
    FILES,
  );
}, 180_000);
afterAll(() => cleanup(app));

describe('Xcode Localizable.strings / .stringsdict', () => {
  it('pushes and pulls', () => {
    expect(s.pushEn.code).toBe(0);
    expect(s.pushDe.code).toBe(0);
    expect(s.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s.push2);
    noChange(s.push2Overwrite);
  });
  it('diff: UTF-16 becomes UTF-8, the file header comment and blank lines go, // comments become /* */, \\U00E9 becomes é', () => {
    const de = s.pulled['Notes/de.lproj/Localizable.strings']!;
    expect([...de.subarray(0, 2)]).not.toEqual([0xff, 0xfe]);
    const text = de.toString('utf8');
    expect(text).not.toContain('Created by');
    expect(text).toContain('/* Two lines on the empty screen */');
    expect(text).toContain('"unicode" = "Café au lait";');
  });
  it('documented: the .stringsdict count becomes %lld with NSStringFormatValueTypeKey lld', () => {
    const de = s.pulled['Notes/de.lproj/Localizable.stringsdict']!.toString('utf8');
    expect(de).toContain('<string>%lld Notiz</string>');
    expect(de).not.toContain('<string>d</string>');
  });
});
