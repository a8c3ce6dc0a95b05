// gettext: po/de.po as msgmerge leaves it, po/en.po as msginit/msgen writes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, keys, noChange, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const header = (lang: string, team: string, plural: string) => `msgid ""
msgstr ""
"Project-Id-Version: notes 1.4\\n"
"Report-Msgid-Bugs-To: bugs@example.com\\n"
"POT-Creation-Date: 2026-11-01 12:00+0100\\n"
"PO-Revision-Date: 2026-11-10 09:30+0100\\n"
"Last-Translator: Anna Schmidt <anna@example.com>\\n"
"Language-Team: ${team}\\n"
"Language: ${lang}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: ${plural}\\n"
`;

const DE = `# German translations for notes package.
# Copyright (C) 2026 Notes Inc.
# This file is distributed under the same license as the notes package.
# Anna Schmidt <anna@example.com>, 2026.
#
${header('de', 'German <de@li.org>', 'nplurals=2; plural=(n != 1);')}
#. TRANSLATORS: Title of the main window
#: src/main.c:42
msgid "Notes"
msgstr "Notizen"

#: src/main.c:57 src/dialog.c:12
#, c-format
msgid "Hello, %s!"
msgstr "Hallo, %s!"

#. Menu entry
#: src/menu.c:8
msgctxt "menu"
msgid "Open"
msgstr "Öffnen"

#: src/file.c:20
msgctxt "dialog title"
msgid "Open"
msgstr "Datei öffnen"

#: src/list.c:88
#, c-format
msgid "%d note"
msgid_plural "%d notes"
msgstr[0] "%d Notiz"
msgstr[1] "%d Notizen"

#: src/help.c:10
msgid ""
"This is a long help text that xgettext wraps over several lines because it "
"is longer than seventy-nine characters."
msgstr ""
"Dies ist ein langer Hilfetext, den xgettext über mehrere Zeilen umbricht, "
"weil er länger als neunundsiebzig Zeichen ist."

#: src/quote.c:5
msgid "Say \\"hi\\" to %s"
msgstr "Sag \\"hallo\\" zu %s"

#: src/progress.c:14
#, c-format
msgid "100%% done"
msgstr "100%% erledigt"

#: src/about.c:3
msgid "Version %s\\n"
msgstr "Version %s\\n"

# Translator's own note: check with the team
#: src/save.c:7
#, fuzzy
#| msgid "Save file"
msgid "Save files"
msgstr "Datei speichern"

#: src/x.c:1
msgid "Untranslated"
msgstr ""

#~ msgid "Old string"
#~ msgstr "Alter Text"
`;

const EN = `# English translations for notes package.
# Copyright (C) 2026 Notes Inc.
# This file is distributed under the same license as the notes package.
# Automatically generated, 2026.
#
${header('en', 'none', 'nplurals=2; plural=(n != 1);')}
#. TRANSLATORS: Title of the main window
#: src/main.c:42
msgid "Notes"
msgstr "Notes"

#: src/main.c:57 src/dialog.c:12
#, c-format
msgid "Hello, %s!"
msgstr "Hello, %s!"

#. Menu entry
#: src/menu.c:8
msgctxt "menu"
msgid "Open"
msgstr "Open"

#: src/file.c:20
msgctxt "dialog title"
msgid "Open"
msgstr "Open"

#: src/list.c:88
#, c-format
msgid "%d note"
msgid_plural "%d notes"
msgstr[0] "%d note"
msgstr[1] "%d notes"

#: src/help.c:10
msgid ""
"This is a long help text that xgettext wraps over several lines because it "
"is longer than seventy-nine characters."
msgstr ""
"This is a long help text that xgettext wraps over several lines because it "
"is longer than seventy-nine characters."

#: src/quote.c:5
msgid "Say \\"hi\\" to %s"
msgstr "Say \\"hi\\" to %s"

#: src/progress.c:14
#, c-format
msgid "100%% done"
msgstr "100%% done"

#: src/about.c:3
msgid "Version %s\\n"
msgstr "Version %s\\n"

#: src/save.c:7
msgid "Save files"
msgstr "Save files"

#: src/x.c:1
msgid "Untranslated"
msgstr "Untranslated"
`;

const FILES = { 'po/en.po': EN, 'po/de.po': DE };
let app: ServedApp;
let s: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s = await scenario(app, [{ path: 'po/{language}.po', format: 'po' }], FILES);
}, 120_000);
afterAll(() => cleanup(app));

describe('gettext PO', () => {
  it('pushes and pulls', () => {
    expect(s.pushEn.code).toBe(0);
    expect(s.pushDe.code).toBe(0);
    expect(s.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s.push2);
    noChange(s.push2Overwrite);
  });
  it('diff: header fields, #: references, #, flags, translator comments, fuzzy/untranslated/obsolete messages and wrapping go (documented)', () => {
    const de = s.pulled['po/de.po']!.toString('utf8');
    for (const gone of ['Project-Id-Version', 'Last-Translator', 'PO-Revision-Date', '#: src/', '#, c-format', '# Translator', 'Save files', 'Untranslated', '#~ msgid', '# Copyright']) expect(de, gone).not.toContain(gone);
    expect(de).toContain('msgid "This is a long help text that xgettext wraps over several lines because it is longer than seventy-nine characters."');
  });
  it('documented, arguably wrong: msgid_plural repeats the msgid ("%d notes" becomes "%d note")', () => {
    const de = s.pulled['po/de.po']!.toString('utf8');
    expect(de).toContain('msgid "%d note"\nmsgid_plural "%d note"\n');
  });
  it('documented: a msgid ending in \\n ("Version %s\\n", common in C) is skipped and lost from the pulled file', () => {
    expect(s.pulled['po/de.po']!.toString('utf8')).not.toContain('Version %s');
  });
});
