// Android Studio: res/values/strings.xml (source) and res/values-de/strings.xml.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, exportFile, keys, noChange, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const EN = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:tools="http://schemas.android.com/tools"
    xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- App name shown under the launcher icon -->
    <string name="app_name" translatable="false">Notes</string>
    <string name="welcome">Welcome, %1$s!</string>

    <!-- Shown when the user leaves with unsaved changes -->
    <string name="unsaved">You\\'ve got unsaved changes</string>
    <string name="quote">He said \\"hello\\"</string>
    <string name="html_intro"><![CDATA[<b>Bold</b> intro with a <a href="https://example.com">link</a>]]></string>
    <string name="styled">Tap <b>Save</b> to keep it</string>
    <string name="greeting">Hello <xliff:g id="user" example="Bob">%1$s</xliff:g>, you have %2$d messages</string>
    <string name="only_en" tools:ignore="MissingTranslation">Only in English</string>
    <string name="loading" tools:ignore="TypographyEllipsis">Loading...</string>
    <string name="multi_line">First line\\nSecond line</string>
    <string name="percent">100%% done</string>
    <string name="handle">\\@handle</string>
    <string name="date_format" formatted="false">%s of %s</string>
    <string name="spaced">"  two leading spaces"</string>
    <string name="ellipsis">Wait\\u2026</string>
    <string name="html_link"><![CDATA[Read the <a href=\\"https://example.com/terms\\">terms</a>]]></string>
    <string name="terms">Terms &amp; Conditions</string>
    <string name="apostrophe_quoted">"It's done"</string>

    <plurals name="notes_count">
        <item quantity="one">%d note</item>
        <item quantity="other">%d notes</item>
    </plurals>
    <plurals name="notes_in_folder">
        <item quantity="zero">No notes in %2$s</item>
        <item quantity="one">%1$d note in %2$s</item>
        <item quantity="other">%1$d notes in %2$s</item>
    </plurals>
    <!-- Planets for the picker -->
    <string-array name="planets">
        <item>Mercury</item>
        <item>Venus</item>
        <item>Earth</item>
    </string-array>
    <string-array name="sizes" translatable="false">
        <item>S</item>
        <item>M</item>
    </string-array>
</resources>
`;

const DE = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:tools="http://schemas.android.com/tools"
    xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"
    tools:ignore="MissingTranslation">
    <string name="welcome">Willkommen, %1$s!</string>

    <!-- Shown when the user leaves with unsaved changes -->
    <string name="unsaved">Du hast ungespeicherte Änderungen</string>
    <string name="quote">Er sagte \\"hallo\\"</string>
    <string name="html_intro"><![CDATA[<b>Fett</b> Einleitung mit einem <a href="https://example.com">Link</a>]]></string>
    <string name="styled">Tippe auf <b>Speichern</b>, um es zu behalten</string>
    <string name="greeting">Hallo <xliff:g id="user" example="Bob">%1$s</xliff:g>, du hast %2$d Nachrichten</string>
    <string name="loading" tools:ignore="TypographyEllipsis">Laden...</string>
    <string name="multi_line">Erste Zeile\\nZweite Zeile</string>
    <string name="percent">100%% erledigt</string>
    <string name="handle">\\@konto</string>
    <string name="date_format" formatted="false">%s von %s</string>
    <string name="spaced">"  zwei Leerzeichen vorne"</string>
    <string name="ellipsis">Warte\\u2026</string>
    <string name="html_link"><![CDATA[Lies die <a href=\\"https://example.com/terms\\">Bedingungen</a>]]></string>
    <string name="terms">AGB &amp; Datenschutz</string>
    <string name="apostrophe_quoted">"Es ist's"</string>
    <string name="app_s_name">Jemand\\'s App</string>

    <plurals name="notes_count">
        <item quantity="one">%d Notiz</item>
        <item quantity="other">%d Notizen</item>
    </plurals>
    <plurals name="notes_in_folder">
        <item quantity="one">%1$d Notiz in %2$s</item>
        <item quantity="other">%1$d Notizen in %2$s</item>
    </plurals>
    <string-array name="planets">
        <item>Merkur</item>
        <item>Venus</item>
        <item>Erde</item>
    </string-array>
</resources>
`;

const FILES = { 'app/src/main/res/values/strings.xml': EN, 'app/src/main/res/values-de/strings.xml': DE };
let app: ServedApp;
let s: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s = await scenario(app, [{ path: 'app/src/main/res/values-{language}/strings.xml', format: 'android', languagePaths: { en: 'app/src/main/res/values/strings.xml' } }], FILES);
}, 120_000);
afterAll(() => cleanup(app));

describe('Android strings.xml', () => {
  it('pushes and pulls', () => {
    expect(s.pushEn.code).toBe(0);
    expect(s.pushDe.code).toBe(0);
    expect(s.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s.push2);
    noChange(s.push2Overwrite);
  });
  it('diff: tools: attributes and namespace, blank lines, order and \\u escapes change (noise); an array comment is repeated on every item', () => {
    const de = s.pulled['app/src/main/res/values-de/strings.xml']!.toString('utf8');
    expect(de).not.toContain('tools:ignore="MissingTranslation"');
    expect(de).not.toContain('xmlns:tools');
    expect(de).toContain('<string name="ellipsis">Warte…</string>');
    expect(de).toContain('<string name="apostrophe_quoted">Es ist\\\'s</string>');
    expect(de.match(/<!-- Planets for the picker -->/g)).toHaveLength(3);
    // A plural item's positional count %1$d comes back as %d beside %2$s (same output in Java's Formatter).
    expect(de).toContain('<item quantity="one">%d Notiz in %2$s</item>');
    // CDATA markup comes back as real markup (documented limit: getString now strips the link).
    expect(de).toContain('<string name="html_link">Lies die <a href="https://example.com/terms">Bedingungen</a></string>');
  });

  it('a strings.xml with an internal DTD entity (<!ENTITY appname ...>, which aapt2 builds) is refused with a 422 naming it (docs/formats.md)', async () => {
    const p = s.project;
    const body = `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE resources [\n    <!ENTITY appname "Notizen">\n]>\n<resources>\n    <string name="about">Über &appname;</string>\n</resources>\n`;
    const res = await app.t.app.request('/v1/import/de?format=android&dry_run=true', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body });
    const answer = await res.text();
    expect(res.status, answer).toBe(422);
    expect(answer).toMatch(/DTD/);
  });
});
