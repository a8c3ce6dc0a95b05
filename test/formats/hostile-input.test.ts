// Whatever bytes arrive, a codec either reads them or throws a FormatError that says where: never
// another exception (which the import endpoint would answer as a 500). Random bytes, and valid
// files cut short or with a byte changed, for every format; files cut or garbled at a known place
// name that line; a key twice is refused in every format, naming both places; and files built to
// exhaust the machine (deep nesting, alias bombs) are refused at once. Large files: large-files.test.ts.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';
import { entriesFor } from './support/arbitraries.ts';
import { tableWorkbook, workbookOf } from './support/workbook-parts.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

const RUNS = wholeNumberFromEnv('FORMAT_RUNS', 100);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT = Math.max(30_000, RUNS * 500);
const FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytesOf = (file: string | Uint8Array) => (typeof file === 'string' ? utf8(file) : file);
/** At most this many lines: readers end a line at LF, CRLF or a lone CR (XML and CSV do). A workbook's lines are its sheet's rows, at most Excel's 1,048,576. */
const linesIn = (format: FormatId, body: Uint8Array) => (format === 'xlsx' ? 1_048_576 : body.reduce((n, b) => n + (b === 0x0a || b === 0x0d ? 1 : 0), 1));

/** The FormatError a parse throws, or undefined if the body was read; anything else fails the test. */
function formatErrorOf(format: FormatId, body: Uint8Array): FormatError | undefined {
  try {
    FORMATS[format].parse(body, { language: 'de' });
    return undefined;
  } catch (error) {
    if (!(error instanceof FormatError)) throw new Error(`${format} threw ${String(error)} instead of a FormatError`, { cause: error });
    return error;
  }
}

/** Read, or refused with a location inside the file: a line that exists, or a path of names. */
function readsOrSaysWhere(format: FormatId, body: Uint8Array): void {
  const error = formatErrorOf(format, body);
  if (error === undefined) return;
  expect(error.loc[0]).toBe('body');
  expect(error.msg.length).toBeGreaterThan(0);
  if (error.loc[1] === 'line') {
    expect(error.loc).toHaveLength(3);
    expect(error.loc[2]).toBeGreaterThanOrEqual(1);
    expect(error.loc[2]).toBeLessThanOrEqual(linesIn(format, body));
  }
}

describe.each(FORMAT_IDS)('%s', (format) => {
  it('random bytes: read, or a FormatError with a location', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => readsOrSaysWhere(format, bytes)), { numRuns: RUNS });
  }, TIMEOUT);

  it('a valid file cut short or with one byte changed: read, or a FormatError with a location', () => {
    const damaged = entriesFor(format, 'de', 6).chain((entries) => {
      const source = { language: 'en', values: new Map(entries.map((e) => [e.key, e.value])) };
      const file = FORMATS[format].serialize(entries, { language: 'de', source });
      return fc.tuple(fc.constant(file), fc.nat({ max: Math.max(0, file.length - 1) }), fc.integer({ min: 0, max: 255 }), fc.boolean());
    });
    fc.assert(
      fc.property(damaged, ([file, at, byte, cut]) => {
        const body = cut ? file.slice(0, at) : Uint8Array.from(file, (b, i) => (i === at ? byte : b));
        readsOrSaysWhere(format, body);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

/**
 * A file of each format with its second entry cut short at the end, and the line that names. A
 * workbook cut short has lost the ZIP directory at its end: it is refused whole, as ['body'].
 */
const CUT: Record<FormatId, [string, number] | [Uint8Array, ['body']]> = {
  json: ['{\n  "a": "x",\n  "b": "y', 3],
  'json-nested': ['{\n  "a": {\n    "b": "y', 3],
  i18next: ['{\n  "a": "x",\n  "b_one": "y', 3],
  arb: ['{\n  "@@locale": "de",\n  "a": "x', 3],
  xliff: ['<xliff version="1.2">\n<file>\n<body>\n<trans-unit id="a', 4],
  xliff2: ['<xliff version="2.0">\n<file>\n<unit id="a">\n<segment><target>x</tar', 4],
  po: ['msgid "a"\nmsgstr "x"\n\nmsgid "b"\nmsgstr "y', 5],
  android: ['<resources>\n    <string name="a">x</string>\n    <string name="b">y</str', 3],
  'ios-strings': ['"a" = "x";\n"b" = "y', 2],
  'ios-stringsdict': ['<plist>\n<dict>\n<key>a</key>\n<string>x</str', 4],
  yaml: ['de:\n  a: x\n  b: "y', 3],
  csv: ['key,value\na,x\nb,"y', 3],
  // A .properties file cut anywhere else still reads (a shorter value): cut inside an escape.
  properties: ['a=x\nb=y\\u00', 2],
  resx: ['<root>\n  <data name="a"><value>x</value></data>\n  <data name="b"><value>y</val', 3],
  xlsx: [FORMATS.xlsx.serialize([{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }], { language: 'de' }).slice(0, -30), ['body']],
  xcstrings: ['{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {},\n    "b" : { "comment" : "y', 5],
};

/** A file of each format with a key twice, and where the refusal points (in a workbook, the sheet's row). */
const DUPLICATE: Record<FormatId, [string | Uint8Array, (string | number)[]]> = {
  json: ['{\n  "a": "x",\n  "a": "y"\n}', ['body', 'a']],
  'json-nested': ['{\n  "a": {\n    "b": "x"\n  },\n  "a.b": "y"\n}', ['body', 'a.b']],
  i18next: ['{\n  "a": {\n    "b": "x",\n    "b": "y"\n  }\n}', ['body', 'a', 'b']],
  arb: ['{\n  "a": "x",\n  "a": "y"\n}', ['body', 'a']],
  xliff: ['<xliff version="1.2"><file><body>\n<trans-unit id="a"><source/><target>x</target></trans-unit>\n<trans-unit id="a"><source/><target>y</target></trans-unit>\n</body></file></xliff>', ['body', 'line', 3]],
  xliff2: ['<xliff version="2.0"><file>\n<unit id="a"><segment><source/><target>x</target></segment></unit>\n<unit id="a"><segment><source/><target>y</target></segment></unit>\n</file></xliff>', ['body', 'line', 3]],
  po: ['msgid "a"\nmsgstr "x"\n\nmsgid "a"\nmsgstr "y"\n', ['body', 'line', 4]],
  android: ['<resources>\n<string name="a">x</string>\n<string name="a">y</string>\n</resources>', ['body', 'line', 3]],
  'ios-strings': ['"a" = "x";\n"a" = "y";\n', ['body', 'line', 2]],
  'ios-stringsdict': ['<plist><dict>\n<key>a</key><string>x</string>\n<key>a</key><string>y</string>\n</dict></plist>', ['body', 'line', 3]],
  yaml: ['de:\n  a: x\n  a: y\n', ['body', 'line', 3]],
  csv: ['key,value\na,x\na,y\n', ['body', 'line', 3]],
  properties: ['a=x\na=y\n', ['body', 'line', 2]],
  resx: ['<root>\n<data name="a"><value>x</value></data>\n<data name="a"><value>y</value></data>\n</root>', ['body', 'line', 3]],
  xlsx: [tableWorkbook([['key', 'value'], ['a', 'x'], ['a', 'y']]), ['body', 'line', 3]],
  xcstrings: ['{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {},\n    "a" : {}\n  }\n}', ['body', 'strings', 'a']],
};

describe.each(FORMAT_IDS)('%s: located refusals', (format) => {
  it('a file cut inside its last entry names that line', () => {
    const [file, where] = CUT[format];
    expect(formatErrorOf(format, bytesOf(file))?.loc).toEqual(typeof where === 'number' ? ['body', 'line', where] : where);
  });

  it('a byte that is not valid in the encoding names its line', () => {
    // Line 2 of a valid file gets a byte (or, in UTF-16, a unit) that cannot be decoded.
    if (format === 'ios-strings') {
      const text = '"a" = "x";\n"b" = "?";\n';
      const body = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => (c === '?' ? [0x00, 0xd8] : [c.charCodeAt(0), 0]))]);
      expect(formatErrorOf(format, body)?.loc).toEqual(['body', 'line', 2]);
      return;
    }
    // Bytes that are not UTF-8 are ISO-8859-1 to Java 9+'s PropertyResourceBundle, so no byte is
    // invalid in a .properties file: 0xFF is ÿ.
    if (format === 'properties') {
      const body = utf8('a=x\nb=y?\n');
      body[body.length - 2] = 0xff;
      expect(FORMATS.properties.parse(body, { language: 'de' }).entries).toEqual([{ key: 'a', value: 'x' }, { key: 'b', value: 'yÿ' }]);
      return;
    }
    // A workbook's parts are UTF-8: a byte that is not is refused naming the part and its line
    // there, which is no line of the file uploaded.
    if (format === 'xlsx') {
      const error = formatErrorOf(format, workbookOf({ 'xl/sharedStrings.xml': new Uint8Array([...utf8('<sst>\n<si><t>'), 0xff, ...utf8('</t></si></sst>')]) }));
      expect(error?.loc).toEqual(['body']);
      expect(error?.msg).toBe('xl/sharedStrings.xml: file is not valid UTF-8 (line 2)');
      return;
    }
    const [text] = DUPLICATE[format] as [string, unknown];
    const at = text.indexOf('\n') + 3;
    const body = utf8(text);
    body[at] = 0xff;
    expect(formatErrorOf(format, body)?.loc).toEqual(['body', 'line', 2]);
  });

  it('a key twice is refused, never resolved silently, with both places named', () => {
    const [file, loc] = DUPLICATE[format];
    const error = formatErrorOf(format, bytesOf(file));
    expect(error?.loc).toEqual(loc);
    expect(error?.msg).toMatch(/\b\d+ and \d+\b/);
  });
});

describe('files built to exhaust the reader', () => {
  const deep = 100_000;
  const NESTED: [FormatId, string][] = [
    ['json', '['.repeat(deep)],
    ['json-nested', '{"a":'.repeat(deep)],
    ['i18next', '{"a":'.repeat(deep)],
    ['arb', '{"a":'.repeat(deep)],
    ['android', `<resources>${'<b>'.repeat(deep)}`],
    ['xliff', `<xliff version="1.2">${'<group>'.repeat(deep)}`],
    ['xliff2', `<xliff version="2.0">${'<group>'.repeat(deep)}`],
    ['ios-stringsdict', `<plist>${'<dict>'.repeat(deep)}`],
    ['resx', `<root>${'<data>'.repeat(deep)}`],
    ['xcstrings', '{"strings":'.repeat(deep)],
    ['yaml', `de: ${'['.repeat(deep)}`],
    ['yaml', `de:\n${Array.from({ length: 600 }, (_, i) => `${' '.repeat(i + 2)}k${i}:`).join('\n')} v\n`],
  ];

  it.each(NESTED)('%s nested 100,000 levels deep is refused with a FormatError, not a stack overflow', (format, text) => {
    expect(formatErrorOf(format, utf8(text))?.msg).toMatch(/nested/);
  });

  it('yaml: aliases that expand to billions of keys are refused at once', () => {
    // Each level names the previous one 8 times: 8^12 keys from 1 KB.
    let levels = '  a0: &a0 {k: v}\n';
    for (let i = 1; i <= 12; i++) levels += `  a${i}: &a${i} {${Array.from({ length: 8 }, (_, j) => `p${j}: *a${i - 1}`).join(', ')}}\n`;
    let merges = '  m0: &m0 {k: v}\n';
    for (let i = 1; i <= 30; i++) merges += `  m${i}: &m${i}\n    <<: [*m${i - 1}, *m${i - 1}]\n    own${i}: v\n`;
    for (const text of [`de:\n${levels}`, `de:\n${merges}`]) {
      const started = performance.now();
      expect(formatErrorOf('yaml', utf8(text))?.msg).toMatch(/aliases expand/);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('yaml: an alias to a mapping that contains it is refused, and an alias with no anchor', () => {
    expect(formatErrorOf('yaml', utf8('de:\n  a: &x\n    b: *x\n'))?.msg).toMatch(/contains it/);
    expect(formatErrorOf('yaml', utf8('de:\n  a: &x\n    <<: *x\n'))?.msg).toMatch(/contains it/);
    expect(formatErrorOf('yaml', utf8('de:\n  a: *nope\n'))?.loc).toEqual(['body', 'line', 2]);
  });

  it('yaml: anchors and merges in reasonable use are followed', () => {
    const text = 'de:\n  base: &b\n    x: X\n    y: Y\n  merged:\n    <<: *b\n    y: Z\n  copy: *b\n';
    const entries = FORMATS.yaml.parse(utf8(text), { language: 'de' }).entries.map((e) => `${e.key}=${e.value}`);
    expect(entries).toEqual(['base.x=X', 'base.y=Y', 'merged.x=X', 'merged.y=Z', 'copy.x=X', 'copy.y=Y']);
  });
});

describe('yaml: several documents', () => {
  it('are refused at the second one, saying the file must hold one YAML document (not the library\'s API)', () => {
    const error = formatErrorOf('yaml', utf8('de:\n  a: x\n---\nde:\n  a: y\n'));
    expect(error?.loc).toEqual(['body', 'line', 3]);
    expect(error?.msg).toBe('invalid YAML: the file must hold one YAML document, and a second one (---) starts here');
    expect(error?.msg).not.toMatch(/parseAllDocuments|YAML\./);
    // A document marker before the one document, or an end marker after it, is one document.
    expect(FORMATS.yaml.parse(utf8('---\nde:\n  a: x\n...\n'), { language: 'de' }).entries).toEqual([{ key: 'a', value: 'x' }]);
  });
});

describe('yaml: nesting never reaches the call stack (security review 2026-11-27)', () => {
  // The yaml library recursed once per level and its stack overflow was caught as a parse error,
  // but an overflow that lands inside V8's regular expression compiler ends the process instead
  // ("FATAL ERROR: RegExpCompiler Allocation failed"): the second import of one of these 100 KB
  // files killed the server. Run in a child process, so that a crash is a failed assertion here.
  it('files nested 100,000 levels deep, read one after the other, are refused and the process lives on', () => {
    const script = [
      "import { FORMATS } from './core/formats/index.ts';",
      "const files = ['['.repeat(1e5), '{'.repeat(1e5), 'de:\\n  ' + '- '.repeat(1e5) + 'x', 'de:\\n  ' + '? '.repeat(1e5) + 'x', 'de: ' + '[{a: '.repeat(3e4)];",
      'for (let round = 0; round < 3; round++) for (const f of files) {',
      "  try { FORMATS.yaml.parse(new TextEncoder().encode(f), { language: 'de' }); console.log('read'); } catch (e) { console.log(e.msg); }",
      '}',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).not.toMatch(/FATAL/);
    expect(run.status).toBe(0);
    const answers = run.stdout.trim().split('\n');
    expect(answers).toHaveLength(15);
    for (const answer of answers) expect(answer).toMatch(/nested more than 512 levels deep/);
  }, 150_000);
});

describe('regular expressions over file content (security review 2026-11-27)', () => {
  it('po: a Plural-Forms header with a long run of spaces is refused at once, not after cubic backtracking', () => {
    // Before the fix, 3,000 spaces took about 9 s and 10,000 several minutes, the event loop held.
    const header = `nplurals=2; plural=n${' '.repeat(20_000)}!x`;
    const text = `msgid ""\nmsgstr ""\n"Plural-Forms: ${header}\\n"\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\n`;
    // A complexity guard: hours before the fix, milliseconds now.
    const started = performance.now();
    expect(formatErrorOf('po', utf8(text))?.msg).toMatch(/Plural-Forms/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('po: a Plural-Forms expression longer than 500 characters is refused before it is compiled', () => {
    const text = `msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=${'('.repeat(100_000)}n;\\n"\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\n`;
    expect(formatErrorOf('po', utf8(text))?.msg).toMatch(/longer than 500 characters/);
  });

  it('po: Plural-Forms still reads with and without the final semicolon, with spaces around it', () => {
    for (const header of ['nplurals=2; plural=(n != 1);', ' nplurals = 2 ;plural = (n != 1) ; ', 'nplurals=2; plural=(n != 1)']) {
      const text = `msgid ""\nmsgstr ""\n"Plural-Forms: ${header}\\n"\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\n`;
      expect(FORMATS.po.parse(utf8(text), { language: 'de' }).entries.map((e) => e.key)).toEqual(['a']);
    }
  });
});
