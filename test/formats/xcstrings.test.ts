// Apple String Catalogs (.xcstrings): one language read out of a catalog holding all of them, one
// language written back in the bytes Xcode writes, so that `tms pull` over an Xcode-made catalog
// changes only what changed. test/fixtures/formats/Localizable.xcstrings is in Xcode's layout: the
// source language implicit (no `en` for keys that are their own text), plurals, substitutions, a
// device variation, `shouldTranslate: false`, an untranslated (`new`, empty) value, comments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as cli from '../../cli/src/xcstrings-catalog.ts';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import { catalogText, compareCatalogKeys, readCatalog, writeCatalog, type CatalogObject } from '../../core/formats/xcstrings/catalog-json.ts';

const codec = FORMATS.xcstrings;
const FIXTURE = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'formats', 'Localizable.xcstrings'));
const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b);
const parse = (body: Uint8Array | string, language: string) => codec.parse(typeof body === 'string' ? utf8(body) : body, { language });

function formatError(body: string, language = 'de'): FormatError {
  try {
    parse(body, language);
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('parsed without a FormatError');
}

/** A catalog of one key whose `de` localization is `localization`. */
const oneKey = (localization: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ sourceLanguage: 'en', strings: { k: { ...extra, localizations: { de: localization } } }, version: '1.0' });

describe('reading one language of an Xcode catalog', () => {
  it('the source language: a key without its own localization is its own text', () => {
    const { entries, warnings } = parse(FIXTURE, 'en');
    expect(entries).toEqual([
      { key: '%lld files in %lld folders', value: '{files, plural, one {# file} other {# files}} in {folders, plural, one {# folder} other {# folders}}' },
      { key: '%lld notes', value: '{count, plural, =0 {No notes} one {# note} other {# notes}}', description: 'Number of notes in the list header' },
      // shouldTranslate: false still has its source text.
      { key: 'Acme', value: 'Acme', description: 'The company name' },
      { key: 'Hello, %@!', value: 'Hello, %@!', description: 'Greeting on the home screen' },
      { key: 'home.title', value: 'Home', description: 'Title of the home screen' },
      { key: 'Key2', value: 'Key 2' },
      { key: 'Key10', value: 'Key 10' },
      { key: 'Old text', value: 'Old text' },
      { key: 'Shared with %lld people by %@', value: 'Shared with %lld people by %@' },
    ]);
    expect(warnings).toEqual([
      'Tap to open: the value varies by device, which tms cannot store; the key was skipped',
      'the empty key ("") was skipped: tms keys have at least one character',
      expect.stringMatching(/^1 key was skipped because tms keys cannot contain line breaks.*"Two\\nlines" \(line \d+\)$/),
    ]);
  });

  it('a translation: plurals, substitutions, stale and comments; device, positional and shouldTranslate false skipped', () => {
    const { entries, warnings } = parse(FIXTURE, 'de');
    expect(entries).toEqual([
      { key: '%lld files in %lld folders', value: '{files, plural, one {# Datei} other {# Dateien}} in {folders, plural, one {# Ordner} other {# Ordnern}}' },
      { key: '%lld notes', value: '{count, plural, one {# Notiz} other {# Notizen}}', description: 'Number of notes in the list header' },
      { key: 'Hello, %@!', value: 'Hallo, %@!', description: 'Greeting on the home screen' },
      { key: 'home.title', value: 'Startseite', description: 'Title of the home screen' },
      { key: 'Key2', value: 'Schlüssel 2' },
      { key: 'Key10', value: 'Schlüssel 10' },
      // A stale key's (and a stale stringUnit's) text imports; the import's status decides tms's.
      { key: 'Old text', value: 'Alter Text' },
    ]);
    expect(warnings).toEqual([
      'Shared with %lld people by %@: positional substitutions (%1$#@name@) are not supported; the key was skipped',
      'Tap to open: the value varies by device, which tms cannot store; the key was skipped',
      expect.stringMatching(/"Two\\nlines"/),
      '1 key marked "shouldTranslate": false was skipped (only the source language\'s text of such a key is imported): "Acme"',
    ]);
  });

  it('needs_review imports its text, new and empty is untranslated, and a region code is a language of its own', () => {
    expect(parse(FIXTURE, 'fr')).toEqual({ entries: [{ key: 'Hello, %@!', value: 'Bonjour, %@ !', description: 'Greeting on the home screen' }], warnings: [] });
    expect(parse(FIXTURE, 'zh-HK').entries).toEqual([{ key: 'Hello, %@!', value: '你好，%@！', description: 'Greeting on the home screen' }]);
    // A code written in another letter case is the same language.
    expect(parse(FIXTURE, 'zh-hant').entries.map((e) => e.key)).toEqual(['Hello, %@!']);
  });

  it('a language the catalog has no text in gives no entries', () => {
    expect(parse(FIXTURE, 'ja')).toEqual({ entries: [], warnings: [] });
    expect(parse('{"sourceLanguage" : "en", "strings" : {}, "version" : "1.0"}', 'de')).toEqual({ entries: [], warnings: [] });
  });

  it('plural forms: %d and %ld are the count too, zero is =0 unless the language has a zero category, a missing other is filled', () => {
    const forms = (f: Record<string, string>) => ({ variations: { plural: Object.fromEntries(Object.entries(f).map(([c, v]) => [c, { stringUnit: { state: 'translated', value: v } }])) } });
    expect(parse(oneKey(forms({ zero: 'Keine', one: '%d Datei', other: '%ld Dateien' })), 'de').entries[0]?.value).toBe('{count, plural, =0 {Keine} one {# Datei} other {# Dateien}}');
    const ar = JSON.stringify({ sourceLanguage: 'en', strings: { k: { localizations: { ar: forms({ zero: 'لا', other: '%lld' }) } } } });
    expect(parse(ar, 'ar').entries[0]?.value).toBe('{count, plural, zero {لا} other {#}}');
    const { entries, warnings } = parse(oneKey(forms({ one: '%lld Datei' })), 'de');
    expect(entries[0]?.value).toBe('{count, plural, one {# Datei} other {# Datei}}');
    expect(warnings).toEqual(['k: the value has no "other" form, so the "one" text was used for it']);
  });

  it('a plural whose forms are all new and empty is untranslated', () => {
    const untranslated = { variations: { plural: { one: { stringUnit: { state: 'new', value: '' } }, other: { stringUnit: { state: 'new', value: '' } } } } };
    expect(parse(oneKey(untranslated), 'de')).toEqual({ entries: [], warnings: [] });
  });

  it('a substitution missing for a %#@name@ imports the value as text, with a warning', () => {
    const { entries, warnings } = parse(oneKey({ stringUnit: { state: 'translated', value: '%#@n@ Dateien' }, substitutions: {} }), 'de');
    expect(entries).toEqual([{ key: 'k', value: '%#@n@ Dateien' }]);
    expect(warnings).toEqual(['k: the value names %#@n@ but has no substitution for it, so it was imported as text']);
  });

  it('a substitution name ICU cannot take (Xcode allows dots) skips the key', () => {
    const sub = { argNum: 1, formatSpecifier: 'lld', variations: { plural: { other: { stringUnit: { state: 'translated', value: '%arg' } } } } };
    const { entries, warnings } = parse(oneKey({ stringUnit: { state: 'translated', value: '%#@total.strings@' }, substitutions: { 'total.strings': sub } }), 'de');
    expect(entries).toEqual([]);
    expect(warnings).toEqual(['k: the substitution name "total.strings" cannot be an ICU argument name; the key was skipped']);
  });

  it.each([
    ['not JSON', '{"sourceLanguage": "en", "strings": {', ['body', 'line', 1]],
    ['not an object', '["en"]', ['body']],
    ['no sourceLanguage', '{"strings": {}}', ['body', 'sourceLanguage']],
    ['strings not an object', '{"sourceLanguage": "en", "strings": []}', ['body', 'strings']],
    ['an entry not an object', '{"sourceLanguage": "en", "strings": {"k": "v"}}', ['body', 'strings', 'k']],
    ['localizations not an object', '{"sourceLanguage": "en", "strings": {"k": {"localizations": 1}}}', ['body', 'strings', 'k', 'localizations']],
    ['a stringUnit without a string value', oneKey({ stringUnit: { state: 'translated', value: 3 } }), ['body', 'strings', 'k', 'localizations', 'de', 'stringUnit', 'value']],
    ['a stringUnit without a value', oneKey({ stringUnit: { state: 'translated' } }), ['body', 'strings', 'k', 'localizations', 'de', 'stringUnit', 'value']],
    ['an unknown plural category', oneKey({ variations: { plural: { several: { stringUnit: { state: 'translated', value: 'x' } } } } }), ['body', 'strings', 'k', 'localizations', 'de', 'variations', 'plural', 'several']],
    ['a comment that is no string', '{"sourceLanguage": "en", "strings": {"k": {"comment": 1}}}', ['body', 'strings', 'k', 'comment']],
    ['a key twice', '{"sourceLanguage": "en", "strings": {"k": {},\n"k": {}}}', ['body', 'strings', 'k']],
  ])('%s is a FormatError', (_name, body, loc) => {
    const error = formatError(body);
    expect(error.loc).toEqual(loc);
    expect(error.msg.length).toBeGreaterThan(10);
  });

  it('bytes that are not UTF-8 are a FormatError naming the line', () => {
    const body = utf8('{\n"sourceLanguage" : "e?"}');
    body[body.length - 3] = 0xff;
    expect(() => codec.parse(body, { language: 'de' })).toThrow(FormatError);
  });
});

describe("writing one language in Xcode's layout", () => {
  const source = { language: 'en', values: new Map<string, string>() };

  it('a plain value, a comment, a plural and text around plurals, as Xcode writes them', () => {
    const body = codec.serialize(
      [
        { key: 'greeting', value: 'Hallo, %@!', description: 'On the home screen' },
        { key: 'notes', value: '{count, plural, =0 {Keine Notizen} one {# Notiz} other {# Notizen}}' },
        { key: 'summary', value: '%@ hat {files, plural, one {# Datei} other {# Dateien}} in {folders, plural, other {# Ordnern}}' },
      ],
      { language: 'de', source },
    );
    const de = (value: CatalogObject) => ({ extractionState: 'manual', localizations: { de: value } });
    const unit = (value: string) => ({ stringUnit: { state: 'translated', value } });
    const expected = {
      sourceLanguage: 'en',
      strings: {
        greeting: { comment: 'On the home screen', ...de(unit('Hallo, %@!')) },
        notes: de({ variations: { plural: { one: unit('%lld Notiz'), other: unit('%lld Notizen'), zero: unit('Keine Notizen') } } }),
        summary: de({
          ...unit('%@ hat %#@files@ in %#@folders@'),
          substitutions: {
            // %@ is argument 1: the plurals are 2 and 3.
            files: { argNum: 2, formatSpecifier: 'lld', variations: { plural: { one: unit('%arg Datei'), other: unit('%arg Dateien') } } },
            folders: { argNum: 3, formatSpecifier: 'lld', variations: { plural: { other: unit('%arg Ordnern') } } },
          },
        }),
      },
      version: '1.0',
    };
    expect(text(body)).toBe(catalogText(expected));
    expect(readCatalog(body)).toEqual(expected);
  });

  it("the catalog's source language is the source given, else the language exported", () => {
    expect(readCatalog(codec.serialize([], { language: 'de', source })).sourceLanguage).toBe('en');
    expect(text(codec.serialize([], { language: 'de' }))).toBe('{\n  "sourceLanguage" : "de",\n  "strings" : {\n\n  },\n  "version" : "1.0"\n}');
  });

  it('what a catalog cannot express (select, ordinal, a nested plural, =1) is written as its ICU text, which reads back unchanged', () => {
    const values = [
      '{gender, select, female {Sie} other {Er}}',
      '{n, selectordinal, one {#.} other {#.}}',
      '{count, plural, =1 {Eine} other {# Dateien}}',
      '{a, plural, other {{b, plural, other {# x}}}}',
      'Text {n, plural, other {# Mal}} und {g, select, other {x}}',
    ];
    const entries = values.map((value, i) => ({ key: `k${i}`, value }));
    const body = codec.serialize(entries, { language: 'de' });
    for (const [i, value] of values.entries()) {
      expect((readCatalog(body).strings[`k${i}`] as CatalogObject).localizations).toEqual({ de: { stringUnit: { state: 'translated', value } } });
    }
    expect(parse(body, 'de').entries).toEqual(entries);
  });

  it('ends at its closing brace, with no newline, as Xcode writes it; the same entries give the same bytes', () => {
    const entries = [
      { key: 'b', value: 'B' },
      { key: 'a', value: 'A' },
    ];
    const body = codec.serialize(entries, { language: 'de' });
    expect(body.at(-1)).toBe('}'.charCodeAt(0));
    expect(text(codec.serialize([...entries].reverse(), { language: 'de' }))).toBe(text(body));
  });
});

describe('round trip of an Xcode-made catalog', () => {
  it("writeCatalog(readCatalog(file)) is the file, byte for byte", () => {
    expect(text(writeCatalog(readCatalog(FIXTURE)))).toBe(text(FIXTURE));
  });

  it('each language read and written back gives its localizations as they were, merged into the same bytes', () => {
    const merged = readCatalog(FIXTURE);
    for (const language of ['en', 'de', 'fr', 'zh-Hant', 'zh-HK']) {
      const written = readCatalog(codec.serialize(parse(FIXTURE, language).entries, { language, source: { language: 'en', values: new Map() } }));
      for (const [key, entry] of Object.entries(written.strings)) {
        const target = merged.strings[key] as CatalogObject;
        const localizations = target.localizations as CatalogObject | undefined;
        // The source language's text that Xcode leaves implicit (the key itself) stays so: the merge's rule (tms pull).
        if (localizations?.[language] === undefined) continue;
        localizations[language] = ((entry as CatalogObject).localizations as CatalogObject)[language]!;
      }
    }
    // Every state tms writes is "translated" (its own status is the import's): the fixture's needs_review and stale aside, the same bytes.
    const expected = text(FIXTURE).replaceAll('"state" : "needs_review"', '"state" : "translated"').replaceAll('"state" : "stale"', '"state" : "translated"');
    expect(text(writeCatalog(merged))).toBe(expected);
  });
});

describe("Xcode's order of names (Foundation's localizedStandardCompare)", () => {
  // Orders seen in catalogs Xcode wrote (.scratch/decisions-xcstrings.md).
  it.each([
    [['', '%@', '© Cizzuk', '${toggle} Emoji Search', '360 Search', 'Add New Search Engine']],
    [['Baidu', 'baidu.com', 'Before you can start', 'bing.com', 'Change App Icon', 'cse', 'CSE Settings', 'Disable Checker', 'Disable CSE']],
    [['Key1', 'Key2', 'Key9', 'Key10']],
    [['product.type.1_1', 'product.type.2_1', 'product.type.11_1', 'product.type.12_1']],
    [['ar', 'de', 'zh-Hans', 'zh-Hant', 'zh-HK']],
    [['comment', 'extractionState', 'isCommentAutoGenerated', 'localizations', 'shouldTranslate']],
    [['argNum', 'formatSpecifier', 'variations']],
    [['few', 'many', 'one', 'other', 'two', 'zero']],
  ])('%j', (names) => {
    expect([...names].reverse().sort(compareCatalogKeys)).toEqual(names);
  });

  it('is total: names equal but for case or width are ordered, always the same way', () => {
    const names = ['ok', 'OK', 'Ok', 'ＯＫ'];
    const sorted = [...names].sort(compareCatalogKeys);
    expect([...names].reverse().sort(compareCatalogKeys)).toEqual(sorted);
    expect(new Set(sorted.map((n, i) => compareCatalogKeys(n, sorted[i + 1] ?? 'zzz')))).toEqual(new Set([-1]));
  });

  it('the layout: `"name" : value`, two spaces, an empty object as an empty line, escapes as Foundation writes them', () => {
    expect(catalogText({ b: { c: [] }, a: 'x/y "q" \\ \n\t\u0001 é', e: {}, d: [1, true, null] })).toBe(
      '{\n  "a" : "x/y \\"q\\" \\\\ \\n\\t\\u0001 é",\n  "b" : {\n    "c" : [\n\n    ]\n  },\n  "d" : [\n    1,\n    true,\n    null\n  ],\n  "e" : {\n\n  }\n}',
    );
  });

  it('any JSON value: bytes that JSON.parse reads back as the value, the same as the CLI writes (shapes kept in order from one object to the next)', () => {
    // Objects of the same names in other orders, a name that holds U+0000 (the kept orders join
    // names with it), control characters, astral and non-ASCII text, a buffer that has to grow.
    const name = fc.oneof(fc.constantFrom('a', 'b', 'a\u0000b', 'b\u0000', 'A', 'é', 'k2', 'k10', ''), fc.string({ unit: 'binary', maxLength: 6 }));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(name, tie('value'), { maxKeys: 5 }),
      ),
    }));
    fc.assert(
      fc.property(fc.array(fc.dictionary(name, value, { maxKeys: 6 }), { maxLength: 8 }), (objects) => {
        const catalog = { sourceLanguage: 'en', strings: Object.fromEntries(objects.map((o, i) => [`k${i}`, o])), version: '1.0', big: 'x'.repeat(70_000) } as CatalogObject;
        const bytes = writeCatalog(catalog);
        expect(JSON.parse(text(bytes))).toEqual(catalog);
        expect(Buffer.from(bytes).equals(Buffer.from(cli.writeCatalog(catalog as cli.Catalog)))).toBe(true);
      }),
      { seed: 20261203, numRuns: 300 },
    );
  });

  it('readCatalog refuses what is no catalog', () => {
    expect(() => readCatalog('[]')).toThrow(/JSON object/);
    expect(() => readCatalog('{"strings": {}}')).toThrow(/sourceLanguage/);
    expect(() => readCatalog('{"sourceLanguage": "en", "strings": 1}')).toThrow(/strings/);
    expect(() => readCatalog('{')).toThrow(/not valid JSON/);
  });
});
