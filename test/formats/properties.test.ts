// Java .properties (core/formats/codecs/properties.ts): the file an IntelliJ / Spring Boot project
// keeps, read to exact entries; the round trip over hostile entries; the corners of
// java.util.Properties.load's grammar, malformed input and encodings; and Java itself
// (Properties.load and PropertyResourceBundle, test/formats/support/ReadProperties.java) reading the
// fixture, those corners and what tms writes, which must be what tms reads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertiesCodec } from '../../core/formats/codecs/properties.ts';
import { FormatError } from '../../core/formats/format-error.ts';
import type { Entry } from '../../core/formats/types.ts';
import { propertiesKeys } from '../../cli/src/file-keys/properties.ts';
import { byKey, description, isValidKey, key, value } from './support/arbitraries.ts';
import { hasJava, readWithJava, type JavaRead } from './support/java.ts';
import { refusalOf } from './support/refusal.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'formats', 'messages_de.properties');

const utf8 = (text: string) => new TextEncoder().encode(text);
const parse = (body: string | Uint8Array) => propertiesCodec.parse(typeof body === 'string' ? utf8(body) : body, { language: 'de' });
const write = (entries: readonly Entry[]) => new TextDecoder('utf-8', { fatal: true }).decode(propertiesCodec.serialize(entries, { language: 'de' }));
const pairs = (entries: readonly Entry[]) => Object.fromEntries(entries.map((e) => [e.key, e.value]));
/** Bytes as ISO-8859-1 text: each byte the character of its code point. */
const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** The FormatError a parse throws; anything else fails the test. */
const refusal = (body: string | Uint8Array): FormatError => refusalOf(() => parse(body));

/** A description as it comes back: carriage returns as line breaks, and none of only whitespace, # and ! (see the codec's header). */
/** A description as it reads back: CRs as line breaks, without the blank lines that frame it; none when nothing is left. */
const asWritten = (d: string | null | undefined) => {
  if (d == null || !/[^\s#!]/.test(d)) return undefined;
  return d.replace(/\r\n?/g, '\n').replace(/^(?:[ \t\f]*\n)+|(?:\n[ \t\f]*)+$/g, '');
};

/** The corners of Properties.load's grammar in one file: separators, escapes, continuations, mixed line ends. */
const CORNERS = 'a = 1\r\nb:2\rc\t\f 3\nd==4\ne = : 5\nf\n\\\nh=x\\\r\n   y\\\n\tz\ni=x\\\n\nj=\\\\\n\\#k=x\n  \t  l = \\ \\ two\nm=\\a\\b\\x\\{\\uD83D\\uDE00\nn=x\\\n#still value\n   ! comment\no=x\\u\\\n  00e4\nz=last\\';
const CORNER_PAIRS = { a: '1', b: '2', c: '3', d: '=4', e: ': 5', f: '', h: 'xyz', i: 'x', j: '\\', '#k': 'x', l: '  two', m: 'abx{😀', n: 'x#still value', o: 'xä', z: 'last' };

const FIXTURE_ENTRIES: Entry[] = [
  // The license header is separated by a blank line: no description.
  { key: 'home.title', value: 'Willkommen bei Notely', description: 'Title of the main screen' },
  // `key = value`, a \u escape; the comment's second line keeps its indent (one space goes with the #).
  { key: 'home.greeting', value: 'Hallo {0}, schön, dass du da bist!', description: "Greeting on the dashboard.\n  {0}: the user's first name" },
  // `key: value`; the line above is a key, so no description.
  { key: 'home.subtitle', value: 'Deine Notizen an einem Ort' },
  // A `!` comment; the continuation line's indent is dropped.
  {
    key: 'editor.unsaved',
    value: 'Du hast Änderungen, die noch nicht gespeichert sind. Möchtest du sie verwerfen?',
    description: 'Shown when the editor is closed with unsaved changes',
  },
  // Raw UTF-8 text.
  { key: 'editor.saved', value: 'Gespeichert – alles in Ordnung' },
  // MessageFormat's doubled apostrophe and placeholders are text, never rewritten.
  { key: 'editor.conflict', value: "Die Notiz ''{0}'' wurde von {1} geändert.", description: 'MessageFormat: a single apostrophe must be doubled' },
  { key: 'notes.count', value: '{0,choice,0#keine Notizen|1#eine Notiz|1<{0,number,integer} Notizen}' },
  { key: 'notes.plural', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
  // The banner lines frame the description and are none of it.
  { key: 'errors.path', value: 'Datei nicht gefunden: C:\\Benutzer\\{0}\\notiz.txt', description: 'Errors' },
  { key: 'errors.multiline', value: 'Erste Zeile\nZweite Zeile' },
  { key: 'login.columns', value: 'Benutzer\tKennwort' },
  { key: 'menu.file.open', value: 'Öffnen…' },
  // A surrogate pair written as two \u escapes is one character.
  { key: 'footer.made', value: 'Mit 💜 gemacht' },
  { key: 'search.empty', value: '' },
  // A key alone: the value is empty.
  { key: 'search.hint', value: '' },
  { key: 'key with spaces', value: 'Schlüssel mit Leerzeichen' },
  { key: 'ratio:percent', value: '50%' },
];

describe('the IntelliJ / Spring Boot fixture', () => {
  const body = readFileSync(FIXTURE);

  it('reads to exactly these entries, in file order, with no warnings', () => {
    expect(parse(body)).toEqual({ entries: FIXTURE_ENTRIES, warnings: [] });
  });

  it('what tms writes from it reads back the same, and writing that again gives the same bytes', () => {
    const written = write(parse(body).entries);
    expect(byKey(parse(written).entries)).toEqual(byKey(FIXTURE_ENTRIES));
    expect(write(parse(written).entries)).toBe(written);
  });

  it('the CLI reads the same keys, in file order', () => {
    expect(propertiesKeys(body)).toEqual(FIXTURE_ENTRIES.map((e) => e.key));
  });
});

describe('writing', () => {
  it('one sorted `key=value` per line, a description as `# ` lines, a blank line around described entries', () => {
    const entries: Entry[] = [
      { key: 'b', value: 'zwei', description: 'Second\n  indented\n\nafter an empty line' },
      { key: 'a', value: 'eins' },
      { key: 'c', value: 'drei' },
      { key: 'd', value: 'vier', description: '#' },
    ];
    expect(write(entries)).toBe('a=eins\n\n# Second\n#   indented\n#\n# after an empty line\nb=zwei\n\nc=drei\nd=vier\n');
  });

  it('escapes keys and values as Java reads them, every character outside printable ASCII as \\uXXXX', () => {
    const entries = [
      { key: 'a b=c:d#e!f\\gh\u00e9', value: ' lead = : # ! \\ \t\n\r\f trail ' },
      { key: '#start', value: 'Grüße 👋 \u0001\u007f\u0085\u2028' },
      { key: '!x', value: '\\' },
    ];
    expect(write(entries)).toBe(
      [
        '\\!x=\\\\',
        '\\#start=Gr\\u00FC\\u00DFe \\uD83D\\uDC4B \\u0001\\u007F\\u0085\\u2028',
        'a\\ b\\=c\\:d\\#e\\!f\\\\gh\\u00E9=\\ lead = : # ! \\\\ \\t\\n\\r\\f trail ',
        '',
      ].join('\n'),
    );
    expect(byKey(parse(write(entries)).entries)).toEqual(byKey(entries));
  });

  it('descriptions: a carriage return comes back as a line break, blank lines around one are dropped, and one of only whitespace, # and ! is written as none', () => {
    const entries = [
      { key: 'crlf', value: 'x', description: 'one\r\ntwo\rthree' },
      { key: 'blank', value: 'x', description: '  \n ' },
      { key: 'hashes', value: 'x', description: '##\n!' },
      { key: 'empty', value: 'x', description: '' },
      { key: 'kept', value: 'x', description: '\n # not a banner\n##x\n' },
    ];
    expect(byKey(parse(write(entries)).entries)).toEqual(
      byKey([
        { key: 'crlf', value: 'x', description: 'one\ntwo\nthree' },
        { key: 'blank', value: 'x' },
        { key: 'hashes', value: 'x' },
        { key: 'empty', value: 'x' },
        { key: 'kept', value: 'x', description: ' # not a banner\n##x' },
      ]),
    );
  });
});

describe('round trip', () => {
  const entries = fc.uniqueArray(fc.record({ key: key.filter(isValidKey), value, description }), {
    maxLength: 12,
    selector: (e) => e.key,
  });

  it('parse(serialize(entries)) gives back every key and value, and the descriptions as written; writing that again gives the same bytes', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const written = write(list);
        const expected = list.map((e): Entry => {
          const d = asWritten(e.description);
          return d === undefined ? { key: e.key, value: e.value } : { key: e.key, value: e.value, description: d };
        });
        expect(parse(written)).toEqual({ entries: byKey(expected), warnings: [] });
        expect(write(parse(written).entries)).toBe(written);
        expect(propertiesKeys(utf8(written))).toEqual(expected.map((e) => e.key).sort());
        // Keys and values are ASCII; only comments may hold other characters.
        for (const line of written.split('\n')) if (!line.startsWith('#')) expect(line).toMatch(/^[\x20-\x7e]*$/);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('comments that are no description (found by review)', () => {
  it('blank comment lines framing a description are not part of it', () => {
    expect(parse('#\n# Title of the main screen\n#   \n!\nhome.title=Willkommen\n').entries).toEqual([
      { key: 'home.title', value: 'Willkommen', description: 'Title of the main screen' },
    ]);
    expect(parse('# one\n#\n# two\nk=v\n').entries[0]?.description).toBe('one\n\ntwo');
  });

  it("Properties.store's header (its comments and date, right above the first pair) is no description", () => {
    expect(parse('#Messages of the app\n#Wed Dec 02 10:16:54 UTC 2026\ngreeting=Hallo\nbye=Tschüss\n').entries).toEqual([
      { key: 'greeting', value: 'Hallo' },
      { key: 'bye', value: 'Tschüss' },
    ]);
    expect(parse('#Tue Jan 07 09:05:00 GMT+01:00 2025\ngreeting=Hallo\n').entries).toEqual([{ key: 'greeting', value: 'Hallo' }]);
  });
});

describe('the grammar of Properties.load', () => {
  it('separators: whitespace, one = or :, whitespace; a second = or : is the value', () => {
    expect(pairs(parse('a = 1\nb:2\nc\t\f 3\nd==4\ne = : 5\nf\ng:\n  h   \n').entries)).toEqual({ a: '1', b: '2', c: '3', d: '=4', e: ': 5', f: '', g: '', h: '' });
  });

  it('escapes: \\t \\n \\r \\f, \\uXXXX in either case, and a backslash before anything else is that character', () => {
    expect(parse('k\\ 1\\=\\:\\#=\\t\\n\\r\\f\\u00e4\\u00C4\\a\\b\\x\\{\\\\\\ \n').entries).toEqual([{ key: 'k 1=:#', value: '\t\n\r\fäÄabx{\\ ' }]);
  });

  it('a surrogate pair written as two \\u escapes is one character', () => {
    expect(parse('a=\\uD83D\\uDE00\n').entries).toEqual([{ key: 'a', value: '😀' }]);
  });

  it('continuation lines: an odd number of backslashes continues, the next line\'s indent is dropped, a blank line ends it', () => {
    const text = 'a=x\\\n   y\\\n\tz\nb=x\\\\\nc=x\\\\\\\n  more\nd=x\\\n\ne=x\\\n# no comment\nf=\\u00\\\n  e4\n';
    // Lines are joined before escapes are read: an escape may span them.
    expect(pairs(parse(text).entries)).toEqual({ a: 'xyz', b: 'x\\', c: 'x\\more', d: 'x', e: 'x# no comment', f: 'ä' });
  });

  it('a continuation at the end of the file ends there, with or without a line break', () => {
    expect(parse('a=abc\\').entries).toEqual([{ key: 'a', value: 'abc' }]);
    expect(parse('a=abc\\\n').entries).toEqual([{ key: 'a', value: 'abc' }]);
    expect(parse('a=abc\\\n   ').entries).toEqual([{ key: 'a', value: 'abc' }]);
  });

  it('all of them in one file, as the CLI reads its keys too', () => {
    const { entries, warnings } = parse(CORNERS);
    expect(warnings).toEqual([]);
    expect(pairs(entries)).toEqual(CORNER_PAIRS);
    // The indented `!` comment is the only description.
    expect(entries.filter((e) => e.description !== undefined)).toEqual([{ key: 'o', value: 'xä', description: 'comment' }]);
    expect(propertiesKeys(utf8(CORNERS))).toEqual(Object.keys(CORNER_PAIRS));
  });

  it('CRLF and CR line ends, mixed, and lines counted as Java counts them', () => {
    const { entries } = parse('# one\r\na=1\rb=2\r\n\r\n! three\rc=3');
    expect(entries).toEqual([{ key: 'a', value: '1', description: 'one' }, { key: 'b', value: '2' }, { key: 'c', value: '3', description: 'three' }]);
    expect(refusal('a=1\rb=2\r\na=3').loc).toEqual(['body', 'line', 3]);
    expect(parse('a=x\\\r\n  y\\\r  z').entries).toEqual([{ key: 'a', value: 'xyz' }]);
  });

  it('comments: # or ! after blanks; only the block directly above a key describes it', () => {
    const text = '# Header\n#\n\n# one\n  ! two\na=1\n#\nb=2\n#   \nc=3\n####\n#\n####\nd=4\n# above a skipped line\n=x\ne=5\n';
    const { entries } = parse(text);
    expect(entries).toEqual([{ key: 'a', value: '1', description: 'one\ntwo' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }, { key: 'd', value: '4' }, { key: 'e', value: '5' }]);
  });
});

describe('refused and skipped', () => {
  it('a malformed \\u escape refuses the file at its line, as Java throws', () => {
    for (const text of ['a=1\nb=\\u00g1\n', 'a=1\nb=x\\u12\n', 'a=1\nb\\u=x\n', 'a=1\nb=x\\u12\\\n\n']) {
      const error = refusal(text);
      expect(error.loc, text).toEqual(['body', 'line', 2]);
      expect(error.msg).toMatch(/malformed \\uxxxx/);
    }
  });

  it('a NUL refuses the file, raw or escaped; so does an escaped unpaired surrogate', () => {
    expect(refusal('a=1\nb=x\u0000\n').msg).toMatch(/NUL/);
    expect(refusal('a=1\nb=x\\u0000\n')).toMatchObject({ loc: ['body', 'line', 2], msg: expect.stringMatching(/NUL/) });
    expect(refusal('a=1\nb\\u0000=x\n').msg).toMatch(/NUL/);
    expect(refusal('a=\\uD800\n').msg).toMatch(/unpaired surrogate/);
    expect(refusal(new Uint8Array([0x61, 0x3d, 0xfc, 0x00])).msg).toMatch(/NUL/);
  });

  it('a key given twice refuses the file, naming both lines', () => {
    const error = refusal('# x\na=1\nb=2\n\na = 3\n');
    expect(error.loc).toEqual(['body', 'line', 5]);
    expect(error.msg).toBe('key "a" appears twice (lines 2 and 5)');
    // Escapes are undone before keys are compared.
    expect(refusal('a\\u0062=1\nab=2\n').msg).toMatch(/lines 1 and 2/);
  });

  it('an empty key, or one with a control character, is skipped with a warning naming its line', () => {
    expect(parse('=value\na=1\n  : x\n\\\nb=2\n\\').warnings).toEqual(['3 entries were skipped because tms keys cannot be empty: lines 1, 3, 6']);
    const { entries, warnings } = parse('a\\tb=x\nc=y\n');
    expect(entries).toEqual([{ key: 'c', value: 'y' }]);
    expect(warnings).toEqual(['1 entry was skipped because tms keys cannot contain line breaks, tabs or other control characters: "a\\tb" (line 1)']);
  });
});

describe('encodings', () => {
  it('bytes that are not UTF-8 are ISO-8859-1 (0x80-0x9F too, which windows-1252 would read otherwise)', () => {
    const body = new Uint8Array([...utf8('gr'), 0xfc, ...utf8('n=Gr'), 0xfc, 0xdf, 0x65, ...utf8('\nquote='), 0x93, 0x78, 0x94, 0x0a]);
    expect(parse(body).entries).toEqual([{ key: 'grün', value: 'Grüße' }, { key: 'quote', value: '\u0093x\u0094' }]);
    expect(propertiesKeys(body)).toEqual(['grün', 'quote']);
  });

  it('a UTF-8 byte order mark is dropped; a UTF-16 file is refused by name', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('a=ä\n')]);
    expect(parse(body).entries).toEqual([{ key: 'a', value: 'ä' }]);
    expect(propertiesKeys(body)).toEqual(['a']);
    expect(refusal(new Uint8Array([0xff, 0xfe, 0x61, 0, 0x3d, 0, 0x31, 0])).msg).toMatch(/UTF-16/);
  });
});

if (!hasJava) console.log('Java .properties tests skipped: no JDK 11+ `java` on the PATH (apt-get install -y openjdk-17-jdk-headless)');

/** Hostile entries the arbitraries give (a fixed seed), and the cases a writer is most likely to get wrong. */
function hostileEntries(): Entry[] {
  const chosen: Entry[] = [
    { key: ' a b=c:d#e!f\\g ', value: ' \t lead, trail \\', description: 'carriage\rreturn\r\nand # hashes' },
    { key: '#not a comment', value: '\\u0041 is no escape' },
    { key: '!bang', value: '=:= x' },
    { key: 'emoji 👋🏽', value: '👨‍👩‍👧 𝄞 \u0085\u2028\u00a0\ufeff', description: '  indented\n\n#\nGrüße 👋' },
    { key: 'control', value: '\u0001\u0007\u001b\u007f\f\r\n\r' },
    { key: 'continued', value: 'ends in a backslash\\\\' },
  ];
  const keys = new Set(chosen.map((e) => e.key));
  const arbitrary = fc.uniqueArray(fc.record({ key: key.filter((k) => isValidKey(k) && !keys.has(k)), value, description }), {
    minLength: 44,
    maxLength: 44,
    selector: (e) => e.key,
  });
  const sampled = fc.sample(arbitrary, { numRuns: 1, seed: 20240611 })[0] ?? [];
  return [...chosen, ...sampled.map((e) => (e.description === undefined ? { key: e.key, value: e.value } : e))];
}

describe.skipIf(!hasJava)('Java reads what tms reads (Properties.load and PropertyResourceBundle)', () => {
  const hostile = hostileEntries();
  const files = {
    fixture: readFileSync(FIXTURE),
    hostile: utf8(write(hostile)),
    corners: utf8(CORNERS),
    latin1: new Uint8Array([...utf8('# Kommentar '), 0xe4, ...utf8('\ngr'), 0xfc, ...utf8('n=Gr'), 0xfc, 0xdf, 0x65, ...utf8('\nquote='), 0x93, 0x78, 0x94, 0x0a]),
  };
  let dir = '';
  let read: Record<string, JavaRead> = {};

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tms-properties-'));
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, `${name}.properties`), body);
    const paths = Object.keys(files).map((name) => join(dir, `${name}.properties`));
    const byPath = readWithJava(paths);
    read = Object.fromEntries(Object.keys(files).map((name) => [name, byPath[join(dir, `${name}.properties`)] as JavaRead]));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the fixture: PropertyResourceBundle (UTF-8) reads the pairs tms reads; Properties.load (ISO-8859-1) the pairs tms reads from its Latin-1 reading', () => {
    expect(read.fixture?.bundle).toEqual(pairs(parse(files.fixture).entries));
    expect(read.fixture?.properties).toEqual(pairs(parse(latin1(files.fixture)).entries));
    // Its raw UTF-8 text is where the two differ.
    expect(read.fixture?.properties['menu.file.open']).toBe('Ã\u0096ffnen\u00e2\u0080¦');
  });

  it('what tms writes from hostile entries: both readers give back exactly the keys and values', () => {
    expect(hostile.length).toBe(50);
    expect(read.hostile?.properties).toEqual(pairs(hostile));
    expect(read.hostile?.bundle).toEqual(pairs(hostile));
  });

  it('the corners of the grammar: both readers read what tms reads', () => {
    expect(read.corners?.properties).toEqual(CORNER_PAIRS);
    expect(read.corners?.bundle).toEqual(CORNER_PAIRS);
  });

  it('a file that is not UTF-8: PropertyResourceBundle falls back to ISO-8859-1, as tms does', () => {
    const expected = { grün: 'Grüße', quote: '\u0093x\u0094' };
    expect(pairs(parse(files.latin1).entries)).toEqual(expected);
    expect(read.latin1?.bundle).toEqual(expected);
    expect(read.latin1?.properties).toEqual(expected);
  });
});
