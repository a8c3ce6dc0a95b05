// .NET .resx (core/formats/codecs/resx.ts), and the CLI's reader of its keys
// (cli/src/file-keys/resx.ts). No .NET runtime runs here: the fixture, in the shape Visual Studio
// 2022 writes (UTF-8 with a byte order mark, CRLF, the schema comment and block, the four
// resheaders, an <assembly> and a file reference), is the check against the real tool, and an
// export must start with its header byte for byte and write each string as it writes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resxCodec } from '../../core/formats/codecs/resx.ts';
import { FormatError } from '../../core/formats/format-error.ts';
import type { Entry } from '../../core/formats/types.ts';
import { resxKeys } from '../../cli/src/file-keys/resx.ts';
import { byKey, description, isValidKey, key, value } from './support/arbitraries.ts';
import { refusalOf } from './support/refusal.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

const FIXTURE = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'formats', 'Strings.de.resx'));
const RUNS = wholeNumberFromEnv('FORMAT_RUNS', 300);
const TIMEOUT = Math.max(30_000, RUNS * 200);

const enc = (s: string) => new TextEncoder().encode(s);
const text = (body: Uint8Array) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
const parse = (body: string | Uint8Array) => resxCodec.parse(typeof body === 'string' ? enc(body) : body, { language: 'de' });
const serialize = (entries: readonly Entry[]) => resxCodec.serialize(entries, { language: 'de' });
/** A .resx whose <root> holds `inner` (line 3 is its first line). */
const resx = (inner: string) => `<?xml version="1.0" encoding="utf-8"?>\n<root>\n${inner}\n</root>\n`;
const data = (name: string, inner: string, attrs = ' xml:space="preserve"') => `  <data name="${name}"${attrs}>${inner}</data>`;

/** The FormatError parsing throws; anything else (or nothing) fails the test. */
const refusal = (body: string | Uint8Array, read: (body: string | Uint8Array) => unknown = parse): FormatError => refusalOf(() => read(body));
const exportRefusal = (entries: Entry[]) => refusal('', () => serialize(entries));

// XML 1.0 cannot hold these (xml/escape-xml.ts): FORMAT_LIMITS names this limit `xmlChars`.
const xmlChars = (s: string) => !/[\u0001-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(s);

describe('a file as Visual Studio writes it', () => {
  const expected: Entry[] = [
    { key: 'Greeting', value: 'Hallo {0}, willkommen zurück!', description: "{0} is the user's first name." },
    { key: 'Home.Title', value: 'Startseite' },
    { key: 'Terms', value: 'Nutzungsbedingungen & Datenschutz: Dateien < 10 MB' },
    // Written with CRLF, as Visual Studio writes every line break: XML reads it as LF.
    { key: 'Help.Text', value: 'Erste Zeile.\nZweite Zeile mit "Anführungszeichen".' },
    { key: 'Save', value: 'Speichern', description: 'Button label; keep it short.' },
    { key: 'Suffix', value: '' },
  ];

  it('reads to these entries, in file order, and skips the file reference with a warning', () => {
    const parsed = parse(FIXTURE);
    expect(parsed.entries).toEqual(expected);
    expect(parsed.warnings).toEqual(['1 resource that is not a string was skipped (files, images and other typed resources; tms stores text): Logo']);
  });

  it('what export writes from them reads back the same', () => {
    const written = serialize(parse(FIXTURE).entries);
    expect(parse(written)).toEqual({ entries: byKey(expected), warnings: [] });
  });

  // The fixture on disk has a byte order mark and CRLF line ends (what Visual Studio writes on
  // Windows); export writes UTF-8 without a mark and LF, as every tms export. Up to the first
  // <data>, the rest is the same byte for byte.
  it('export writes the header of the fixture: the schema comment and block, and the four resheaders', () => {
    const vs = text(FIXTURE).replace(/^\uFEFF/, '').replaceAll('\r\n', '\n');
    const upToFirstData = (s: string) => s.slice(0, s.indexOf('\n  <data '));
    const header = upToFirstData(vs);
    expect(header).toContain('<xsd:schema id="root" xmlns=""');
    expect(header.endsWith('PublicKeyToken=b77a5c561934e089</value>\n  </resheader>')).toBe(true);
    expect(upToFirstData(text(serialize(expected)))).toBe(header);
    expect(text(serialize([]))).toBe(`${header}\n</root>\n`);
  });

  it('export writes each string <data> as Visual Studio wrote it', () => {
    const blocks = (s: string) => [...s.replaceAll('\r\n', '\n').matchAll(/^ {2}<data name="[^"]*" xml:space="preserve">[\s\S]*?<\/data>$/gm)].map((m) => m[0]).sort();
    const written = blocks(text(serialize(expected)));
    expect(written).toHaveLength(expected.length);
    expect(written).toEqual(blocks(text(FIXTURE)));
  });

  it('export ends with </root> and a newline, and the empty file is a valid .resx', () => {
    expect(text(serialize(expected)).endsWith('  </data>\n</root>\n')).toBe(true);
    expect(parse(serialize([]))).toEqual({ entries: [], warnings: [] });
  });

  it('the CLI reads its keys in file order, the file reference too', () => {
    expect(resxKeys(FIXTURE)).toEqual([...expected.map((e) => e.key), 'Logo']);
  });
});

describe('round trip', () => {
  const entries = fc
    .uniqueArray(
      fc.record({
        key: key.filter((k) => isValidKey(k) && xmlChars(k)),
        value: value.filter(xmlChars),
        description: description.filter((d) => d === undefined || (xmlChars(d) && d !== '')),
      }),
      // .NET's names ignore case: Title and title cannot both be written.
      { maxLength: 12, selector: (e) => e.key.toUpperCase() },
    )
    .map((list) => list.map(({ key: k, value: v, description: d }): Entry => (d === undefined ? { key: k, value: v } : { key: k, value: v, description: d })));

  it('parse(serialize(entries)) gives back the entries; writing them again gives the same bytes; the CLI reads the same keys', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const body = serialize(list);
        const parsed = parse(body);
        expect(byKey(parsed.entries)).toEqual(byKey(list));
        expect(parsed.warnings).toEqual([]);
        expect(text(serialize([...list].reverse()))).toBe(text(body));
        expect(text(serialize(parsed.entries))).toBe(text(body));
        expect(resxKeys(body)).toEqual(byKey(list).map((e) => e.key));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('whitespace, line breaks and CRs come back exactly, in values and descriptions', () => {
    const list: Entry[] = [
      { key: 'a', value: ' lead and trail ', description: '  indented\n  note ' },
      { key: 'b', value: 'CR\rCRLF\r\nLF\n', description: 'x\r\ny' },
      { key: 'c', value: '\n\t ', description: ' ' },
      { key: 'd', value: '\r' },
    ];
    const body = text(serialize(list));
    expect(parse(body).entries).toEqual(list);
    expect(body).toContain('<value>CR&#13;CRLF&#13;\nLF\n</value>');
    // Whitespace alone is CDATA: MSBuild on .NET drops whitespace-only text (dotnet/msbuild#7074).
    expect(body).toContain('<value><![CDATA[\n\t ]]></value>');
    expect(body).toContain('<comment><![CDATA[ ]]></comment>');
    expect(body).toContain('<value>&#13;</value>');
  });

  it('markup and entities in a value are text, escaped on export', () => {
    const list: Entry[] = [{ key: 'm', value: '<b>fett</b> &amp; ]]> "q" \'a\'', description: '<!-- c -->' }];
    const body = text(serialize(list));
    expect(body).toContain('<value>&lt;b&gt;fett&lt;/b&gt; &amp;amp; ]]&gt; "q" \'a\'</value>');
    expect(parse(body).entries).toEqual(list);
  });

  it('a key or value with a character XML cannot hold refuses the export, naming the key; a description drops it', () => {
    expect(exportRefusal([{ key: 'bell', value: 'ding\u0007' }]).loc).toEqual(['body', 'bell']);
    expect(exportRefusal([{ key: 'k\uFFFE', value: 'x' }]).msg).toMatch(/key contains U\+FFFE/);
    const written = serialize([{ key: 'n', value: 'x', description: 'note\u0001' }, { key: 'o', value: 'y', description: '\u001b' }]);
    expect(parse(written).entries).toEqual([{ key: 'n', value: 'x', description: 'note' }, { key: 'o', value: 'y' }]);
  });

  it('an empty description is written as none', () => {
    expect(text(serialize([{ key: 'e', value: 'x', description: '' }]))).toMatch(/<data name="e" xml:space="preserve">\n {4}<value>x<\/value>\n {2}<\/data>/);
    expect(parse(serialize([{ key: 'e', value: 'x', description: '' }])).entries).toEqual([{ key: 'e', value: 'x' }]);
  });
});

describe(".NET's names ignore case (found by review)", () => {
  it('a file with Title and title is refused, naming both lines, as a name twice is', () => {
    const error = refusal(resx([data('Title', '<value>Titel</value>'), data('title', '<value>Überschrift</value>')].join('\n')));
    expect(error.loc).toEqual(['body', 'line', 4]);
    expect(error.msg).toBe('Title and title are one resource to .NET, whose names ignore case (lines 3 and 4)');
    // Upper-cased one character at a time, as OrdinalIgnoreCase: "straße" and "STRASSE" are two names.
    expect(parse(resx([data('straße', '<value>a</value>'), data('STRASSE', '<value>b</value>')].join('\n'))).entries).toHaveLength(2);
  });

  it('export refuses keys that differ only in case, naming them', () => {
    const error = exportRefusal([
      { key: 'Home.Title', value: 'Titel' },
      { key: 'home.title', value: 'Überschrift' },
    ]);
    expect(error.loc).toEqual(['body', 'home.title']);
    expect(error.msg).toMatch(/^Home\.Title and home\.title are one resource to \.NET/);
  });
});

describe('hostile and malformed files', () => {
  it('not XML, or no root element: refused at line 1', () => {
    expect(refusal('Greeting=Hallo').loc).toEqual(['body', 'line', 1]);
    expect(refusal('').loc).toEqual(['body', 'line', 1]);
  });

  it('a DTD with an entity is refused, naming its line', () => {
    const error = refusal('<?xml version="1.0"?>\n<!DOCTYPE root [<!ENTITY app "Notes">]>\n<root><data name="a"><value>&app;</value></data></root>');
    expect(error.loc).toEqual(['body', 'line', 2]);
    expect(error.msg).toMatch(/DTD/);
  });

  it('a root other than <root> is refused, naming it', () => {
    const error = refusal('<?xml version="1.0"?>\n<resources>\n  <string name="a">x</string>\n</resources>');
    expect(error.loc).toEqual(['body', 'line', 2]);
    expect(error.msg).toBe('expected a .resx <root>, found <resources>');
  });

  it('a name twice is refused, naming both lines, strings or not', () => {
    const error = refusal(resx([data('a', '<value>1</value>'), data('b', '<value>2</value>'), data('a', '<value>3</value>')].join('\n')));
    expect(error.loc).toEqual(['body', 'line', 5]);
    expect(error.msg).toBe('a appears twice (lines 3 and 5)');
    // Visual Studio's Resource Explorer writes a ResXNullRef for an untranslated value; a tool that then adds the string makes a duplicate.
    const nullRef = refusal(resx([data('Id', '<value />', ' type="System.Resources.ResXNullRef, System.Windows.Forms"'), data('Id', '<value>Id</value>')].join('\n')));
    expect(nullRef.msg).toBe('Id appears twice (lines 3 and 4)');
  });

  it('a <data> without a name (or with an empty one) is refused, naming its line', () => {
    expect(refusal(resx('  <data name="a"><value>1</value></data>\n  <data><value>2</value></data>'))).toMatchObject({ loc: ['body', 'line', 4], msg: '<data> has no name' });
    expect(refusal(resx('  <data name=""><value>2</value></data>')).loc).toEqual(['body', 'line', 3]);
  });

  it('resources that are not strings are skipped with one warning naming them; System.String in any spelling is text', () => {
    const body = resx(
      [
        data('Logo', '<value>..\\logo.png;System.Drawing.Bitmap, System.Drawing</value>', ' type="System.Resources.ResXFileRef, System.Windows.Forms"'),
        data('Icon', '<value>AAABAAEAEBA=</value>', ' type="System.Drawing.Icon, System.Drawing" mimetype="application/x-microsoft.net.object.bytearray.base64"'),
        data('Blob', '<value>AAEAAAD/////</value>', ' mimetype="application/x-microsoft.net.object.binary.base64"'),
        data('Missing', '<value />', ' type="System.Resources.ResXNullRef, System.Windows.Forms"'),
        data('Color', 'Blue', ' type="System.Drawing.Color, System.Drawing"'),
        data('Plain', '<value>a</value>', ' type="System.String"'),
        data('Qualified', '<value>b</value>', ' type="System.String, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089"'),
        data('Core', '<value>c</value>', ' type="System.String, System.Private.CoreLib"'),
        data('Stringy', '<value>d</value>', ' type="System.StringComparer, mscorlib"'),
      ].join('\n'),
    );
    const parsed = parse(body);
    expect(parsed.entries).toEqual([
      { key: 'Plain', value: 'a' },
      { key: 'Qualified', value: 'b' },
      { key: 'Core', value: 'c' },
    ]);
    expect(parsed.warnings).toEqual(['6 resources that are not strings were skipped (files, images and other typed resources; tms stores text): Logo, Icon, Blob, Missing, Color, Stringy']);
    expect(resxKeys(enc(body))).toEqual(['Logo', 'Icon', 'Blob', 'Missing', 'Color', 'Plain', 'Qualified', 'Core', 'Stringy']);
  });

  it('a long list of skipped resources names ten of them, each clipped, and counts the rest', () => {
    const names = Array.from({ length: 12 }, (_, i) => `image${i}${'x'.repeat(i === 0 ? 100 : 0)}`);
    const [warning] = parse(resx(names.map((n) => data(n, '<value>AA==</value>', ' mimetype="application/x-microsoft.net.object.binary.base64"')).join('\n'))).warnings;
    expect(warning).toMatch(/^12 resources that are not strings were skipped .*: image0x+…, image1, .*, image9 and 2 more$/);
    expect(warning?.includes('x'.repeat(60))).toBe(false);
  });

  it('line breaks: CRLF is read as LF, a CR written &#13; is kept', () => {
    const body = resx(['  <data name="crlf" xml:space="preserve">\r\n    <value>eins\r\nzwei</value>\r\n  </data>', data('cr', '<value>eins&#13;&#10;zwei&#13;</value>')].join('\n'));
    expect(parse(body).entries).toEqual([
      { key: 'crlf', value: 'eins\nzwei' },
      { key: 'cr', value: 'eins\r\nzwei\r' },
    ]);
  });

  it('a NUL refuses the file at its line, written or as a reference', () => {
    expect(refusal(resx(`${data('a', '<value>ok</value>')}\n${data('b', '<value>x\u0000y</value>')}`)).loc).toEqual(['body', 'line', 4]);
    expect(refusal(resx(data('a', '<value>x&#0;y</value>'))).loc).toEqual(['body', 'line', 3]);
  });

  it('a name with a control character is skipped with a warning naming it and its line; the CLI still counts it', () => {
    const body = resx([data('tab&#9;bed', '<value>x</value>'), data('ok', '<value>y</value>'), data('new&#10;line', '<value>z</value>')].join('\n'));
    const parsed = parse(body);
    expect(parsed.entries).toEqual([{ key: 'ok', value: 'y' }]);
    expect(parsed.warnings).toEqual(['2 resources were skipped because tms keys cannot contain line breaks, tabs or other control characters: "tab\\tbed" (line 3), "new\\nline" (line 5)']);
    expect(resxKeys(enc(body))).toEqual(['tab\tbed', 'ok', 'new\nline']);
  });

  it('values are read as written, with or without xml:space="preserve"; CDATA is text; comments inside are not', () => {
    const body = resx(
      [
        data('spaces', '<value>  two  </value>', ''),
        data('only', '<value> </value>'),
        data('cdata', '<value><![CDATA[<b>&amp;</b>]]> und <!-- not text -->mehr</value>'),
        data('missing', '\n    <comment>no value</comment>\n  '),
        '  <data name="self" xml:space="preserve" />',
      ].join('\n'),
    );
    expect(parse(body).entries).toEqual([
      { key: 'spaces', value: '  two  ' },
      { key: 'only', value: ' ' },
      { key: 'cdata', value: '<b>&amp;</b> und mehr' },
      { key: 'missing', value: '', description: 'no value' },
      { key: 'self', value: '' },
    ]);
  });

  it('an empty <comment> is no description', () => {
    const body = resx([data('a', '<value>x</value><comment></comment>'), data('b', '<value>y</value><comment/>')].join('\n'));
    expect(parse(body).entries).toEqual([
      { key: 'a', value: 'x' },
      { key: 'b', value: 'y' },
    ]);
  });

  it('<resheader>, <assembly>, <metadata>, the schema and elements nested elsewhere are not resources', () => {
    const body = resx(
      [
        '  <xsd:schema id="root"><xsd:element name="data"><data name="inSchema"/></xsd:element></xsd:schema>',
        '  <resheader name="resmimetype"><value>text/microsoft-resx</value></resheader>',
        '  <assembly alias="System.Windows.Forms" name="System.Windows.Forms, Version=4.0.0.0" />',
        '  <metadata name="toolTip1.TrayLocation" type="System.Drawing.Point, System.Drawing"><value>17, 17</value></metadata>',
        '  <!-- <data name="commented"><value>x</value></data> -->',
        data('real', "<value><![CDATA[<data name='inCdata'/>]]></value>"),
      ].join('\n'),
    );
    expect(parse(body)).toEqual({ entries: [{ key: 'real', value: "<data name='inCdata'/>" }], warnings: [] });
    expect(resxKeys(enc(body))).toEqual(['real']);
  });

  it('text outside <value>, a second <value> and other elements in a string <data> are refused at their line', () => {
    // .NET Framework trims such text and .NET's MSBuild does not: no one reading is the app's.
    expect(refusal(resx(data('a', 'Hallo'))).msg).toBe('<data name="a"> has text outside <value>; write it inside <value>…</value>');
    expect(refusal(resx(data('a', '<value>1</value>\n<value>2</value>'))).loc).toEqual(['body', 'line', 4]);
    expect(refusal(resx(data('a', '<value>1</value><note>x</note>'))).msg).toMatch(/may hold only <value> and <comment>, found <note>/);
    expect(refusal(resx(data('a', '<value>1<b>x</b></value>'))).msg).toMatch(/must contain only text/);
  });

  it('random bytes, and exported files cut short or with a byte changed: read, or a FormatError at a line of the file', () => {
    const lines = (body: Uint8Array) => body.reduce((n, b) => n + (b === 0x0a || b === 0x0d ? 1 : 0), 1);
    const check = (body: Uint8Array) => {
      try {
        parse(body);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
        expect(error.loc[0]).toBe('body');
        if (error.loc[1] === 'line') expect(error.loc[2]).toBeLessThanOrEqual(lines(body));
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), check), { numRuns: 200 });
    const file = text(serialize(parse(FIXTURE).entries));
    fc.assert(
      fc.property(fc.nat({ max: file.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.boolean(), (at, byte, cut) => {
        const body = enc(file);
        check(cut ? body.subarray(0, at) : body.map((b, i) => (i === at ? byte : b)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the CLI reader', () => {
  it('reads names as XML does: entities, references, single quotes, attributes in any order, > inside quotes', () => {
    const body = resx(
      [
        `  <data xml:space='preserve' name='a&amp;b'><value>1</value></data>`,
        '  <data type="System.String, mscorlib" name="x&#x2014;y"><value>2</value></data>',
        '  <data note="a > b" name="quoted"><value>3</value></data>',
        '  <data name="empty"/>',
        '  <data name="  spaced  "\n    xml:space="preserve"><value>4</value></data>',
      ].join('\n'),
    );
    const server = parse(body).entries.map((e) => e.key);
    expect(server).toEqual(['a&b', 'x—y', 'quoted', 'empty', '  spaced  ']);
    expect(resxKeys(enc(body))).toEqual(server);
  });

  it('reads a file with a byte order mark and CRLF, and refuses one cut inside a comment', () => {
    expect(resxKeys(enc(`\uFEFF${resx(data('a', '<value>x</value>')).replaceAll('\n', '\r\n')}`))).toEqual(['a']);
    expect(() => resxKeys(enc('<root><!-- <data name="a">'))).toThrow(/unterminated/);
  });
});
