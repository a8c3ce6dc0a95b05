// Excel workbooks (core/formats/codecs/xlsx.ts), and the CLI's reader of their keys
// (cli/src/file-keys/xlsx.ts). A real tool writes and reads: openpyxl (Debian's python3-openpyxl,
// for /usr/bin/python3) writes a workbook the way a team keeps one, which must read to exact
// entries, and reads what tms writes from hostile entries, which must be their exact texts (skipped
// with one line where openpyxl is not installed). No Excel runs here: a workbook in the shape
// Excel 2016 writes it is built from its XML parts. Then the round trip, the writer's promises,
// files built to break the reader (zip bombs among them), and the file through HTTP.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { xlsxCodec } from '../../core/formats/codecs/xlsx.ts';
import { FormatError } from '../../core/formats/format-error.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';
import type { Entry } from '../../core/formats/types.ts';
import { encodeXstring } from '../../core/formats/xlsx/xstring.ts';
import { crc32 } from '../../core/formats/zip/crc32.ts';
import { zipEntries } from '../../core/formats/zip/read-zip.ts';
import { xlsxKeys } from '../../cli/src/file-keys/xlsx.ts';
import { byKey, description, entriesFor, groupName, key, value } from './support/arbitraries.ts';
import { BASE_PARTS, deflatedZeros, MAIN, RELATIONSHIPS, rawZip, sheetOf, tableWorkbook, workbookOf } from './support/workbook-parts.ts';
import { refusalOf } from './support/refusal.ts';
import { useTestApp } from '../support/test-app.ts';
import { body as json, project } from '../translations/helpers.ts';

const RUNS = wholeNumberFromEnv('FORMAT_RUNS', 200);
const TIMEOUT = Math.max(30_000, RUNS * 200);
const PYTHON = '/usr/bin/python3';
const CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const t = useTestApp();
const enc = (s: string) => new TextEncoder().encode(s);
const parse = (body: Uint8Array) => xlsxCodec.parse(body, { language: 'de' });
const serialize = (entries: readonly Entry[], language = 'de') => xlsxCodec.serialize(entries, { language });
const base64 = (body: Uint8Array) => Buffer.from(body).toString('base64');
/** A part of a workbook as text. */
const partOf = (body: Uint8Array, name: string) => new TextDecoder().decode(unzipSync(body)[name]);

/** The FormatError a parse throws; anything else (or nothing) fails the test. */
const refusal = (body: Uint8Array, read: (body: Uint8Array) => unknown = parse): FormatError => refusalOf(() => read(body));

const hasOpenpyxl = spawnSync(PYTHON, ['-c', 'import openpyxl']).status === 0;
if (!hasOpenpyxl) console.log(`openpyxl writing and reading workbooks skipped: ${PYTHON} cannot import openpyxl (Debian: apt install python3-openpyxl)`);

const work = mkdtempSync(join(tmpdir(), 'tms-xlsx-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a Python script with the workbook path as its argument; its standard output. */
function python(script: string, workbook: string): string {
  const file = join(work, 'script.py');
  writeFileSync(file, script);
  return execFileSync(PYTHON, [file, workbook], { encoding: 'utf8', timeout: 60_000 });
}

describe.skipIf(!hasOpenpyxl)('a workbook a team keeps, written by openpyxl', () => {
  // openpyxl 3.0 writes text as inline strings, a CR as &#13;, and an uncalculated formula as
  // <f> with an empty <v>. It has no rich text: the script puts a cell's runs in afterwards, as
  // Excel writes them, phonetic run included.
  const WRITER = String.raw`
import sys, zipfile
from openpyxl import Workbook
from openpyxl.styles import Font
wb = Workbook()
ws = wb.active
ws.title = 'Übersetzungen'
rows = [
  ['Value', 'Key', 'Notes', 'Description', 'Group'],
  ['Willkommen zurück!', 'home.title', 'Startseite', 'Title of the home page', 'home'],
  ['RICH_TEXT_CELL', 'home.rich', None, None, 'home'],
  [42, 'cart.count', '=LEN(A4)', 'A number cell', None],
  [0.5, 'cart.ratio', None, None, None],
]
for r, row in enumerate(rows, 1):
  for c, v in enumerate(row, 1):
    if v is not None: ws.cell(row=r, column=c, value=v)
# Row 6 is not written at all; row 7 has styled cells and no text: both are no rows.
ws.cell(row=7, column=1).font = Font(bold=True)
ws.cell(row=7, column=2).font = Font(bold=True)
ws.cell(row=8, column=1, value='Zeile eins\nZeile zwei\r\nZeile drei')
ws.cell(row=8, column=2, value='help.lines')
ws.cell(row=9, column=1, value='👋🏽 Hallo, 世界')
ws.cell(row=9, column=2, value='greeting.emoji')
ws.cell(row=9, column=4, value='Emoji: 👨‍👩‍👧')
formula = ws.cell(row=10, column=1)
formula.value = '=SUM(A1:A3)'
formula.data_type = 's'
ws.cell(row=10, column=2, value='formula.text')
ws.cell(row=11, column=1, value=True)
ws.cell(row=11, column=2, value='flag.bool')
ws.cell(row=12, column=1, value='  padded  ')
ws.cell(row=12, column=2, value='space.kept')
other = wb.create_sheet('Alt')
other.append(['key', 'value'])
other.append(['home.title', 'Nicht diese'])
other.append(['only.in.alt', 'x'])
wb.save(sys.argv[1])
rich = '<is><r><rPr><b/></rPr><t>Fett</t></r><r><t xml:space="preserve"> und normal</t></r><rPh sb="0" eb="4"><t>ふと</t></rPh></is>'
with zipfile.ZipFile(sys.argv[1]) as z:
  parts = [(i.filename, z.read(i.filename)) for i in z.infolist()]
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
  for name, data in parts:
    if name == 'xl/worksheets/sheet1.xml':
      data = data.replace(b'<is><t>RICH_TEXT_CELL</t></is>', rich.encode())
    z.writestr(name, data)
`;
  const expected: Entry[] = [
    { key: 'home.title', value: 'Willkommen zurück!', description: 'Title of the home page', group: 'home' },
    { key: 'home.rich', value: 'Fett und normal', group: 'home' },
    { key: 'cart.count', value: '42', description: 'A number cell' },
    { key: 'cart.ratio', value: '0.5' },
    { key: 'help.lines', value: 'Zeile eins\nZeile zwei\r\nZeile drei' },
    { key: 'greeting.emoji', value: '👋🏽 Hallo, 世界', description: 'Emoji: 👨‍👩‍👧' },
    // Stored as text, never a formula.
    { key: 'formula.text', value: '=SUM(A1:A3)' },
    { key: 'flag.bool', value: 'TRUE' },
    { key: 'space.kept', value: '  padded  ' },
  ];

  it('reads the first sheet to exactly these entries, in row order, naming the ignored column once; the CLI reads the same keys and groups', () => {
    const path = join(work, 'team.xlsx');
    python(WRITER, path);
    const body = readFileSync(path);
    // The rich text is in: the test reads what it means to.
    expect(partOf(body, 'xl/worksheets/sheet1.xml')).toContain('<rPh sb="0" eb="4">');
    // The uncalculated formula (=LEN(A4), in the ignored Notes column) does not refuse the file.
    expect(parse(body)).toEqual({ entries: expected, warnings: ['columns ignored: notes'] });
    expect(xlsxKeys(body)).toEqual(expected.map((e) => (e.group ? { key: e.key, group: e.group } : { key: e.key })));
  });

  it('an uncalculated formula in a column the table reads is refused at its row', () => {
    const path = join(work, 'formula.xlsx');
    python("import sys\nfrom openpyxl import Workbook\nwb = Workbook()\nws = wb.active\nws.append(['key', 'value'])\nws.append(['a', 'x'])\nws.append(['b', '=UPPER(B2)'])\nwb.save(sys.argv[1])\n", path);
    expect(refusal(readFileSync(path))).toMatchObject({ loc: ['body', 'line', 3], msg: expect.stringMatching(/^cell B3 holds a formula whose result was never calculated/) });
  });
});

describe.skipIf(!hasOpenpyxl)('openpyxl reads what tms writes', () => {
  const READER = String.raw`
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb.worksheets[0]
rows = [[c.value for c in row] for row in ws.iter_rows()]
types = sorted({c.data_type for row in ws.iter_rows() for c in row if c.value is not None})
widths = [ws.column_dimensions[l].width for l in 'ABCD']
print(json.dumps({'sheets': wb.sheetnames, 'freeze': ws.freeze_panes, 'bold': [c.font.b for c in ws[1]], 'types': types, 'widths': widths, 'rows': rows}, ensure_ascii=True))
`;
  const HAND_PICKED: Entry[] = [
    { key: 'control.bell', value: 'ding\u0007 esc\u001b nul-free \u0001\u000b\u000c', description: 'vertical\u000btab' },
    { key: 'control.nonchars', value: '\ufffe and \uffff' },
    { key: 'escape.literal', value: '_x0041_ is no A, nor _x005F_, nor _X0041_, nor _x00e9_', description: '_x000D_' },
    { key: 'escape.partial', value: 'a_x00 _x12345_ __x0041__' },
    { key: 'lines.cr', value: 'CR\rCRLF\r\nLF\n\rend\r' },
    { key: 'lines.tab', value: '\tTab\t and  two spaces ' },
    { key: 'formula.looking', value: '=1+1', description: '+1' },
    { key: 'formula.at', value: '@SUM(A1)', description: '-1' },
    { key: 'markup', value: '<b>fett</b> &amp; ]]> "q"', group: 'Markup group' },
  ];
  // A fixed sample of hostile entries (fast-check's seed), 50 of them.
  const [drawn] = fc.sample(
    fc.uniqueArray(fc.record({ key, value, description, group: fc.option(groupName, { nil: undefined }) }), { minLength: 50, maxLength: 50, selector: (e) => e.key }),
    { seed: 20261202, numRuns: 1 },
  );
  const sampled = drawn!.map(({ key: k, value: v, description: d, group: g }): Entry => ({ key: k, value: v, ...(d ? { description: d } : {}), ...(g ? { group: g } : {}) }));

  /**
   * A text as openpyxl 3.0 reads it from a cell: it decodes none of SpreadsheetML's `_xHHHH_`
   * escapes in cell text (Excel does) and drops every `x005F_` (openpyxl/reader/strings.py). So
   * a control character comes back as its escape, and a literal `_x0041_`, which tms writes
   * `_x005F_x0041_`, as itself. Every other text is read exactly.
   */
  const asOpenpyxlReads = (text: string) => encodeXstring(text).replaceAll('x005F_', '');

  it('reads every key, group, description and value of 50 hostile entries and the hand-picked ones; the sheet as tms wrote it', () => {
    const entries = [...sampled, ...HAND_PICKED];
    const path = join(work, 'tms.xlsx');
    writeFileSync(path, serialize(entries));
    const read = JSON.parse(python(READER, path)) as { sheets: string[]; freeze: string; bold: boolean[]; types: string[]; widths: number[]; rows: (string | null)[][] };
    expect(read.sheets).toEqual(['de']);
    expect(read.freeze).toBe('A2');
    expect(read.bold).toEqual([true, true, true, true]);
    expect(read.widths).toEqual([40, 16, 40, 60]);
    // Every cell is a string (=1+1 included): nothing is a formula, a number or a boolean.
    expect(read.types).toEqual(['s']);
    const cell = (text: string | null | undefined) => (text ? asOpenpyxlReads(text) : null);
    expect(read.rows).toEqual([['key', 'group', 'description', 'value'], ...byKey(entries).map((e) => [e.key, e.group, e.description, e.value].map(cell))]);
    // Which of them openpyxl read exactly: all but the texts with an escape in them.
    const exact = entries.filter((e) => [e.key, e.value, e.description ?? ''].every((text) => asOpenpyxlReads(text) === text));
    expect(exact.length).toBeGreaterThan(40);
    expect(exact.map((e) => e.key)).toEqual(expect.arrayContaining(['lines.cr', 'lines.tab', 'formula.looking', 'formula.at', 'markup', 'escape.partial']));
  });
});

/** A workbook as Excel 2016 for Windows writes one: its parts, namespaces, attributes and CRLF after the declaration. */
function excelWorkbook(): Uint8Array {
  const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
  const x14ac = 'http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac';
  const sheetHead = `<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="${x14ac}" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3"`;
  const strings = [
    'Key', 'Group', 'Description', 'Value', 'Reviewer',
    'home.title', 'home', 'Title of the home page', 'Willkommen zurück!', 'Anna',
    'home.subtitle', 'help.lines', 'help', 'cart.count', 'price.total', 'Formula result', 'literal.escape', 'jp.word',
  ];
  const si = strings.map((s) => `<si><t>${s}</t></si>`).join('');
  const rich = '<si><r><rPr><b/><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t>Alle</t></r><r><rPr><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t xml:space="preserve"> Notizen an einem Ort</t></r></si>';
  const cr = '<si><t>Erste Zeile_x000D_\nZweite Zeile</t></si>';
  const escaped = '<si><t>_x005F_x0041_ bleibt</t></si>';
  const ruby = '<si><r><t>漢字</t></r><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>';
  // Indexes: 0-17 the plain strings, 18 rich, 19 cr, 20 escaped, 21 ruby.
  const c = (ref: string, index: number, style = '') => `<c r="${ref}"${style} t="s"><v>${index}</v></c>`;
  const row = (r: number, cells: string) => `<row r="${r}" spans="1:5" x14ac:dyDescent="0.25">${cells}</row>`;
  const translations = [
    `${sheetHead} xr:uid="{2A1B9C4D-0000-4000-8000-000000000002}"><dimension ref="A1:E9"/>`,
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="D10" sqref="D10"/></sheetView></sheetViews>',
    '<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="18.7109375" bestFit="1" customWidth="1"/><col min="3" max="3" width="22.85546875" bestFit="1" customWidth="1"/><col min="4" max="4" width="26.28515625" customWidth="1"/></cols>',
    '<sheetData>',
    row(1, ['A1', 'B1', 'C1', 'D1', 'E1'].map((ref, i) => c(ref, i, ' s="1"')).join('')),
    row(2, c('A2', 5) + c('B2', 6) + c('C2', 7) + c('D2', 8) + c('E2', 9)),
    row(3, c('A3', 10) + c('B3', 6) + c('D3', 18)),
    row(4, c('A4', 11) + c('B4', 12) + `<c r="D4" s="2" t="s"><v>19</v></c>`),
    // A formatted row with no text: no row.
    row(5, '<c r="A5" s="3"/><c r="B5" s="3"/><c r="C5" s="3"/><c r="D5" s="3"/>'),
    row(6, `${c('A6', 13)}<c r="D6"><v>3</v></c>`),
    // A formula's cached text, and an error in the column the table ignores.
    row(7, `${c('A7', 14) + c('C7', 15)}<c r="D7" t="str"><f>CONCATENATE("Summe: ",12," €")</f><v>Summe: 12 €</v></c><c r="E7" t="e"><f>VLOOKUP(A7,Notes!A:B,2,FALSE)</f><v>#N/A</v></c>`),
    row(8, c('A8', 16) + c('D8', 20)),
    row(9, c('A9', 17) + c('D9', 21)),
    '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
  ].join('');
  const notes = `${sheetHead} xr:uid="{2A1B9C4D-0000-4000-8000-000000000001}"><dimension ref="A1:B2"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><sheetData>${row(1, c('A1', 0) + c('B1', 3))}${row(2, c('A2', 5) + c('B2', 9))}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
  const ct = 'application/vnd.openxmlformats-officedocument';
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${ct}.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="${ct}.spreadsheetml.worksheet+xml"/><Override PartName="/xl/theme/theme1.xml" ContentType="${ct}.theme+xml"/><Override PartName="/xl/styles.xml" ContentType="${ct}.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.spreadsheetml.sharedStrings+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="${ct}.extended-properties+xml"/></Types>`,
    '_rels/.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="${RELATIONSHIPS}/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    // The Translations tab was moved in front of Notes, which was made first (sheet1.xml).
    'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6" xmlns:xr10="http://schemas.microsoft.com/office/spreadsheetml/2016/revision10" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2"><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="22228"/><workbookPr defaultThemeVersion="166925"/><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x15"><x15ac:absPath url="C:\\Users\\anna\\Documents\\" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"/></mc:Choice></mc:AlternateContent><xr:revisionPtr revIDLastSave="0" documentId="8_{5B2A3C1D-0000-4000-8000-000000000000}" xr6:coauthVersionLast="47" xr6:coauthVersionMax="47" xr10:uidLastSave="{00000000-0000-0000-0000-000000000000}"/><bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15840" xr2:uid="{8C1F2B3A-0000-4000-8000-000000000000}"/></bookViews><sheets><sheet name="Translations" sheetId="2" r:id="rId2"/><sheet name="Notes" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
    'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="${RELATIONSHIPS}/theme" Target="theme/theme1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId5" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': notes,
    'xl/worksheets/sheet2.xml': translations,
    'xl/sharedStrings.xml': `<sst xmlns="${MAIN}" count="27" uniqueCount="22">${si}${rich}${cr}${escaped}${ruby}</sst>`,
    'xl/theme/theme1.xml': '<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements><a:clrScheme name="Office"/><a:fontScheme name="Office"/><a:fmtScheme name="Office"/></a:themeElements></a:theme>',
    'xl/styles.xml': `<styleSheet xmlns="${MAIN}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac x16r2 xr" xmlns:x14ac="${x14ac}"><fonts count="2" x14ac:knownFonts="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font><font><b/><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment wrapText="1"/></xf><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyFill="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    'docProps/core.xml': '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>Anna</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2026-11-30T09:12:03Z</dcterms:created></cp:coreProperties>',
    'docProps/app.xml': '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><AppVersion>16.0300</AppVersion></Properties>',
  };
  return zipSync(Object.fromEntries(Object.entries(parts).map(([name, xml]) => [name, enc(declaration + xml)])), { mtime: new Date(1980, 0, 1) });
}

describe('a workbook in the shape Excel 2016 writes', () => {
  const expected: Entry[] = [
    { key: 'home.title', value: 'Willkommen zurück!', description: 'Title of the home page', group: 'home' },
    { key: 'home.subtitle', value: 'Alle Notizen an einem Ort', group: 'home' },
    // Excel writes a carriage return as _x000D_.
    { key: 'help.lines', value: 'Erste Zeile\r\nZweite Zeile', group: 'help' },
    { key: 'cart.count', value: '3' },
    { key: 'price.total', value: 'Summe: 12 €', description: 'Formula result' },
    { key: 'literal.escape', value: '_x0041_ bleibt' },
    { key: 'jp.word', value: '漢字' },
  ];

  it('reads the first tab (not the first part) to exactly these entries; the #N/A in the ignored column is not read', () => {
    expect(parse(excelWorkbook())).toEqual({ entries: expected, warnings: ['columns ignored: reviewer'] });
  });

  it('a shared-string cell without a value is empty to the CLI, as to the server (found by review)', () => {
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const body = workbookOf({
      'xl/sharedStrings.xml': `<sst xmlns="${MAIN}"><si><t>key</t></si><si><t>value</t></si><si><t>group</t></si></sst>`,
      'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2">${inline('A2', 'a')}${inline('B2', 'x')}<c r="C2" t="s"/></row></sheetData></worksheet>`,
    });
    expect(parse(body).entries).toEqual([{ key: 'a', value: 'x' }]);
    expect(xlsxKeys(body)).toEqual([{ key: 'a' }]);
  });

  it('the CLI reads the same keys and groups', () => {
    expect(xlsxKeys(excelWorkbook())).toEqual(expected.map((e) => (e.group ? { key: e.key, group: e.group } : { key: e.key })));
  });

  it('what tms writes from it reads back the same', () => {
    expect(parse(serialize(expected))).toEqual({ entries: byKey(expected), warnings: [] });
  });
});

describe('writing', () => {
  it('the parts Excel needs, in a fixed order: one sheet named after the language, shared strings, the header bold and frozen', () => {
    const body = serialize([{ key: 'b', value: '=SUM(A1)', group: 'g' }, { key: 'a', value: 'eins', description: 'first' }], 'pt-BR');
    expect(Object.keys(unzipSync(body))).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/sharedStrings.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(partOf(body, 'xl/workbook.xml')).toContain('<sheets><sheet name="pt-BR" sheetId="1" r:id="rId1"/></sheets>');
    const sheet = partOf(body, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain('<dimension ref="A1:D3"/>');
    // Sorted by key; the empty cells are no cells; every cell a shared string, the formula-looking one too.
    expect(sheet).toContain(
      '<sheetData><row r="1"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c><c r="C1" s="1" t="s"><v>2</v></c><c r="D1" s="1" t="s"><v>3</v></c></row>' +
        '<row r="2"><c r="A2" s="2" t="s"><v>4</v></c><c r="C2" s="2" t="s"><v>5</v></c><c r="D2" s="2" t="s"><v>6</v></c></row>' +
        '<row r="3"><c r="A3" s="2" t="s"><v>7</v></c><c r="B3" s="2" t="s"><v>8</v></c><c r="D3" s="2" t="s"><v>9</v></c></row></sheetData>',
    );
    expect(sheet).not.toContain('<f>');
    expect(partOf(body, 'xl/sharedStrings.xml')).toContain('count="10" uniqueCount="10"><si><t>key</t></si>');
    expect(partOf(body, 'xl/styles.xml')).toContain('<font><b/>');
  });

  it('escapes what XML cannot hold and literal escapes as _xHHHH_, a CR as &#13;, and marks whitespace kept', () => {
    const body = serialize([{ key: 'k', value: ' a\u0001_x0041_\r\n\t', description: '\uffff' }]);
    const strings = partOf(body, 'xl/sharedStrings.xml');
    expect(strings).toContain('<si><t xml:space="preserve"> a_x0001__x005F_x0041_&#13;\n\t</t></si>');
    expect(strings).toContain('<si><t>_xFFFF_</t></si>');
    expect(parse(body).entries).toEqual([{ key: 'k', value: ' a\u0001_x0041_\r\n\t', description: '\uffff' }]);
  });

  it('is the same bytes for the same entries, in any order and at any time', () => {
    const entries: Entry[] = [{ key: 'x', value: '1' }, { key: 'y', value: '2', group: 'g' }];
    expect(base64(serialize(entries))).toBe(base64(serialize([...entries].reverse())));
    // Every entry's modification time is 1980-01-01 00:00 (DOS time 0x0021 0x0000), as Excel writes it.
    const body = serialize(entries);
    const at = Buffer.from(body).indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(Buffer.from(body).readUInt32LE(at + 10)).toBe(0x00210000);
  });

  it('a sheet name follows Excel\'s rules', () => {
    const name = (language: string) => /<sheet name="([^"]*)"/.exec(partOf(serialize([], language), 'xl/workbook.xml'))?.[1];
    expect(name('de')).toBe('de');
    expect(name("'a:b/c?d*e[f]g'")).toBe('a_b_c_d_e_f_g');
    expect(name('x'.repeat(40))).toBe('x'.repeat(31));
    expect(name('History')).toBe('History_');
    expect(name('')).toBe('Sheet1');
  });

  it('a text longer than an Excel cell holds (32,767 characters) refuses the export, naming each key', () => {
    const error = refusal(new Uint8Array(), () => serialize([{ key: 'long', value: 'x'.repeat(32_768) }, { key: 'ok', value: 'x'.repeat(32_767) }, { key: 'note', value: 'y', description: 'd'.repeat(40_000) }]));
    expect(error.all).toEqual([
      { loc: ['body', 'long'], msg: 'value is 32,768 characters long; an Excel cell holds at most 32,767' },
      { loc: ['body', 'note'], msg: 'description is 40,000 characters long; an Excel cell holds at most 32,767' },
    ]);
  });

  it('an empty workbook is a header and nothing else', () => {
    expect(parse(serialize([]))).toEqual({ entries: [], warnings: [] });
  });

  it('a part that would deflate past what readers take (100 times, past 100 KiB) is stored, so that the export reads back (found by the round-trip property)', () => {
    // Texts of one character repeated, `"` escaped to `&quot;`: their shared strings deflated 240 times.
    const entries: Entry[] = Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, value: '"'.repeat(10_000 - i) }));
    const body = serialize(entries);
    const parts = zipEntries(body);
    const strings = parts.get('xl/sharedstrings.xml')!;
    expect(strings.size).toBeGreaterThan(100 * 1024);
    expect(strings.packedSize).toBeGreaterThanOrEqual(strings.size);
    // The other parts stay deflated, and so does a workbook of ordinary texts.
    expect(parts.get('xl/worksheets/sheet1.xml')!.packedSize).toBeLessThan(parts.get('xl/worksheets/sheet1.xml')!.size);
    expect(byKey(parse(body).entries)).toEqual(byKey(entries));
    expect(base64(serialize([...entries].reverse()))).toBe(base64(body));
    const ordinary = Array.from({ length: 2_000 }, (_, i) => ({ key: `k${i}`, value: `Wert ${i} mit etwas Text` }));
    const deflated = zipEntries(serialize(ordinary)).get('xl/sharedstrings.xml')!;
    expect(deflated.size).toBeGreaterThan(40 * 1024);
    expect(deflated.packedSize * 3).toBeLessThan(deflated.size);
  });
});

describe('round trip', () => {
  const entries = fc
    .uniqueArray(fc.record({ key, value, description, group: fc.option(groupName, { nil: undefined }) }), { maxLength: 12, selector: (e) => e.key })
    .map((list) => list.map(({ key: k, value: v, description: d, group: g }): Entry => ({ key: k, value: v, ...(d ? { description: d } : {}), ...(g ? { group: g } : {}) })));

  it('parse(serialize(entries)) gives back the entries; writing them again gives the same bytes; the CLI reads the same keys and groups', () => {
    fc.assert(
      fc.property(fc.oneof(entries, entriesFor('xlsx', 'de')), (list) => {
        const body = serialize(list);
        const parsed = parse(body);
        expect(byKey(parsed.entries)).toEqual(byKey(list));
        expect(parsed.warnings).toEqual([]);
        expect(base64(serialize([...list].reverse()))).toBe(base64(body));
        expect(base64(serialize(parsed.entries))).toBe(base64(body));
        expect(xlsxKeys(body)).toEqual(byKey(list).map((e) => (e.group ? { key: e.key, group: e.group } : { key: e.key })));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

/** The ZIP's central directory records, by name: where each starts. */
function directory(zip: Uint8Array): Map<string, number> {
  const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = view.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const records = new Map<string, number>();
  for (let at = view.readUInt32LE(end + 16), i = 0; i < view.readUInt16LE(end + 10); i++) {
    const nameLength = view.readUInt16LE(at + 28);
    records.set(view.subarray(at + 46, at + 46 + nameLength).toString('latin1'), at);
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return records;
}

/** The workbook with an entry's declared (uncompressed) size in the central directory changed. */
function declaring(zip: Uint8Array, name: string, size: number): Uint8Array {
  const copy = Buffer.from(zip);
  copy.writeUInt32LE(size, directory(copy).get(name)! + 24);
  return copy;
}

describe('hostile and malformed files', () => {
  const workbook = serialize([{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }]);

  it('a file that is no ZIP archive, or one cut short, is refused as a whole', () => {
    expect(refusal(enc('key,value\na,x\n'))).toMatchObject({ loc: ['body'], msg: 'the file is not an .xlsx workbook (an .xlsx file is a ZIP archive, and this is none)' });
    expect(refusal(new Uint8Array())).toMatchObject({ loc: ['body'] });
    expect(refusal(workbook.slice(0, workbook.length - 10))).toMatchObject({ loc: ['body'], msg: 'the ZIP archive is damaged or cut short (its central directory is missing)' });
    expect(refusal(workbook.slice(0, 100))).toMatchObject({ loc: ['body'] });
  });

  it('an Excel 97-2003 .xls (OLE2, as a workbook saved with a password is) is refused by name', () => {
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Uint8Array(504)]);
    expect(refusal(xls)).toMatchObject({ loc: ['body'], msg: expect.stringMatching(/^the file is an Excel 97-2003 \.xls file; save it as \.xlsx/) });
  });

  it('a ZIP archive that is no workbook (a Word file, an OpenDocument spreadsheet) is refused, saying what is missing', () => {
    expect(refusal(zipSync({ 'word/document.xml': enc('<w:document/>') })).msg).toBe('the ZIP archive is no Excel workbook: it has no xl/workbook.xml');
    expect(refusal(zipSync({ mimetype: enc('application/vnd.oasis.opendocument.spreadsheet'), 'content.xml': enc('<office:document-content/>') })).msg).toBe('the file is an OpenDocument spreadsheet (.ods); save it as .xlsx');
    expect(refusal(workbookOf({ 'xl/workbook.xml': `<workbook xmlns="${MAIN}"><sheets/></workbook>` })).msg).toBe('xl/workbook.xml has no sheets');
    expect(refusal(workbookOf({})).msg).toBe("the workbook's first worksheet, xl/worksheets/sheet1.xml, is missing");
  });

  it('a zip bomb: a part whose declared size is past the limit is refused before anything is inflated', () => {
    const started = performance.now();
    const error = refusal(declaring(workbook, 'xl/worksheets/sheet1.xml', 0xfffffffe));
    expect(error).toMatchObject({ loc: ['body'], msg: 'xl/worksheets/sheet1.xml unpacks to 4096.0 MiB: an import unpacks at most 32.0 MiB of a workbook' });
    expect(performance.now() - started).toBeLessThan(200);
    // The limit is on all the parts read together: 20 MiB of shared strings, then a 20 MiB sheet (of
    // text that does not compress much: below the limit on how many times a part unpacks).
    const padding = `<!--${randomBytes(15 * 1024 * 1024).toString('base64')}-->`;
    const parts = { 'xl/sharedStrings.xml': `<sst>${padding}</sst>`, 'xl/worksheets/sheet1.xml': `<worksheet>${padding}<sheetData/></worksheet>` };
    expect(refusal(workbookOf(parts)).msg).toBe('xl/worksheets/sheet1.xml unpacks to 20.0 MiB: an import unpacks at most 32.0 MiB of a workbook');
  });

  it('a zip bomb within the budget: a part that unpacks to more than 100 times its packed size is refused (found by review)', () => {
    // 37 KB of 500 rows of 16,384 empty cells unpack to 32 MiB, and took 8 to 17 s to read.
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const rows = `<row>${inline('A1', 'key')}${inline('B1', 'value')}</row>${`<row>${'<c/>'.repeat(16_384)}</row>`.repeat(500)}`;
    const bomb = workbookOf({ 'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>` });
    expect(bomb.length).toBeLessThan(40_000);
    expect(refusal(bomb)).toMatchObject({ loc: ['body'], msg: expect.stringMatching(/^xl\/worksheets\/sheet1\.xml unpacks to \d+ times its packed size; a workbook's parts unpack at most 100 times/) });
    // A real workbook's parts unpack 11 to 19 times: 10,000 keys with descriptions read.
    const real = serialize(Array.from({ length: 10_000 }, (_, i) => ({ key: `group${i % 50}.key_${i}`, value: `Wert ${i}`, description: `What key ${i} is for` })));
    expect(parse(real).entries).toHaveLength(10_000);
  }, 60_000);

  it('a header cell holding an error is no column name; a hidden first sheet is named in the refusal (found by review)', () => {
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const withError = workbookOf({
      'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="1">${inline('A1', 'key')}${inline('B1', 'value')}<c r="C1" t="e"><v>#REF!</v></c></row><row r="2">${inline('A2', 'a')}${inline('B2', 'x')}</row></sheetData></worksheet>`,
    });
    expect(parse(withError)).toEqual({ entries: [{ key: 'a', value: 'x' }], warnings: [] });
    const hidden = workbookOf({
      'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Instructions" sheetId="1" state="hidden" r:id="rId1"/></sheets></workbook>`,
      'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="1">${inline('A1', 'Read me first')}</row></sheetData></worksheet>`,
    });
    expect(refusal(hidden)).toMatchObject({ loc: ['body', 'line', 1], msg: 'the first worksheet, "Instructions" (hidden): the header has no key column (expected key,group,description,value)' });
  });

  it('a zip bomb: a part that inflates past its declared size is refused at the first step past it, not inflated whole', () => {
    // 1 GiB of zeros in 6.5 MB, declared as 100 bytes.
    const stored = (name: string, xml: string) => ({ name, data: enc(xml), method: 0 as const, size: enc(xml).length, crc: crc32(enc(xml)) });
    const bomb = rawZip([
      stored('xl/workbook.xml', BASE_PARTS['xl/workbook.xml']!),
      stored('xl/_rels/workbook.xml.rels', BASE_PARTS['xl/_rels/workbook.xml.rels']!),
      { name: 'xl/worksheets/sheet1.xml', data: deflatedZeros(4_161_000), method: 8, size: 100, crc: 0 },
    ]);
    const started = performance.now();
    expect(refusal(bomb)).toMatchObject({ loc: ['body'], msg: 'xl/worksheets/sheet1.xml unpacks to more than the 100 bytes its header declares' });
    expect(performance.now() - started).toBeLessThan(200);
    // The same entry declared as what it is, 1 GiB, is refused before it is inflated.
    const declared = rawZip([stored('xl/workbook.xml', BASE_PARTS['xl/workbook.xml']!), stored('xl/_rels/workbook.xml.rels', BASE_PARTS['xl/_rels/workbook.xml.rels']!), { name: 'xl/worksheets/sheet1.xml', data: deflatedZeros(4_161_000), method: 8, size: 1 + 258 * 4_161_000, crc: 0 }]);
    expect(refusal(declared).msg).toBe('xl/worksheets/sheet1.xml unpacks to 1023.8 MiB: an import unpacks at most 32.0 MiB of a workbook');
    // Fewer bytes than declared is as wrong; a stored entry must be its declared size.
    expect(refusal(declaring(workbook, 'xl/workbook.xml', 5000)).msg).toBe('xl/workbook.xml unpacks to fewer bytes than its header declares');
    expect(refusal(rawZip([{ ...stored('xl/workbook.xml', BASE_PARTS['xl/workbook.xml']!), size: 10 }])).msg).toBe('xl/workbook.xml is not the size its header declares');
  });

  it('an entry whose bytes do not match its CRC-32, an encrypted entry, an unknown compression method, or a name twice is refused', () => {
    const entry = directory(workbook).get('xl/worksheets/sheet1.xml')!;
    const damaged = Buffer.from(workbook);
    damaged.writeUInt32LE((damaged.readUInt32LE(entry + 16) ^ 1) >>> 0, entry + 16);
    expect(refusal(damaged).msg).toBe('xl/worksheets/sheet1.xml is damaged (its checksum does not match)');
    const encrypted = Buffer.from(workbook);
    encrypted.writeUInt16LE(1, entry + 8);
    expect(refusal(encrypted).msg).toBe('xl/worksheets/sheet1.xml is encrypted');
    const bzip2 = Buffer.from(workbook);
    bzip2.writeUInt16LE(12, entry + 10);
    expect(refusal(bzip2).msg).toBe('xl/worksheets/sheet1.xml is compressed with method 12; only stored and deflated entries are read');
    // Part names are compared in any case (OPC): two readers must not see two different workbooks.
    expect(refusal(workbookOf({ 'XL/Workbook.xml': BASE_PARTS['xl/workbook.xml']! })).msg).toBe('the ZIP archive holds XL/Workbook.xml twice');
  });

  it('an error value in a column the table reads is refused at its row; in another column it is not read', () => {
    const sheet = (cell: string) =>
      `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c t="inlineStr"><is><t>key</t></is></c><c t="inlineStr"><is><t>value</t></is></c><c t="inlineStr"><is><t>notes</t></is></c></row><row r="7">${cell}</row></sheetData></worksheet>`;
    const error = refusal(workbookOf({ 'xl/worksheets/sheet1.xml': sheet('<c r="A7" t="inlineStr"><is><t>a</t></is></c><c r="B7" t="e"><f>#REF!+1</f><v>#REF!</v></c>') }));
    expect(error).toMatchObject({ loc: ['body', 'line', 7], msg: 'cell B7 holds the error #REF!, which is no text: correct its formula or clear it' });
    const ignored = workbookOf({ 'xl/worksheets/sheet1.xml': sheet('<c r="A7" t="inlineStr"><is><t>a</t></is></c><c r="B7" t="inlineStr"><is><t>x</t></is></c><c r="C7" t="e"><v>#DIV/0!</v></c>') });
    expect(parse(ignored)).toEqual({ entries: [{ key: 'a', value: 'x' }], warnings: ['columns ignored: notes'] });
  });

  it('a key twice is refused naming both rows; a missing key or value column, naming the header row and its sheet', () => {
    const twice = refusal(tableWorkbook([[], [], ['Key', 'Value'], ['a', 'x'], ['b', 'y'], ['a', 'z']]));
    expect(twice).toMatchObject({ loc: ['body', 'line', 6], msg: "key 'a' appears twice (rows 4 and 6)" });
    expect(refusal(tableWorkbook([[], ['name', 'value'], ['a', 'x']]))).toMatchObject({ loc: ['body', 'line', 2], msg: 'the first worksheet, "de": the header has no key column (expected key,group,description,value)' });
    expect(refusal(tableWorkbook([['key', 'text']]))).toMatchObject({ loc: ['body', 'line', 1], msg: 'the first worksheet, "de": the header has no value column, nor one named de (expected key,group,description,value, or key and a column per language)' });
    expect(refusal(tableWorkbook([['key', 'value'], [null, 'orphan']]))).toMatchObject({ loc: ['body', 'line', 2], msg: 'the row has no key (its key cell is empty)' });
    expect(refusal(tableWorkbook([]))).toMatchObject({ loc: ['body'], msg: 'the first worksheet, "de", is empty; expected the header row key, group, description, value' });
  });

  it('a shared string index out of range, a cell outside its row, rows out of order: refused at the row', () => {
    const sheet = (rows: string) => workbookOf({ 'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`, 'xl/sharedStrings.xml': `<sst xmlns="${MAIN}" count="2" uniqueCount="2"><si><t>key</t></si><si><t>value</t></si></sst>` });
    expect(parse(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'))).toEqual({ entries: [], warnings: [] });
    expect(refusal(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>2</v></c></row>'))).toMatchObject({ loc: ['body', 'line', 1], msg: 'cell B1 names shared string "2", and the workbook has 2' });
    expect(refusal(sheet('<row r="3"><c r="A4" t="s"><v>0</v></c></row>'))).toMatchObject({ loc: ['body', 'line', 3], msg: '"A4" is no cell of row 3' });
    expect(refusal(sheet('<row r="3"><c r="B3" t="s"><v>0</v></c><c r="A3" t="s"><v>1</v></c></row>'))).toMatchObject({ loc: ['body', 'line', 3], msg: 'cell A3 comes after B3: cells must be in order' });
    expect(refusal(sheet('<row r="3"/><row r="2"/>'))).toMatchObject({ loc: ['body', 'line', 2], msg: 'row 2 comes after row 3: rows must be in order' });
    expect(refusal(sheet('<row r="1048577"/>'))).toMatchObject({ loc: ['body'], msg: 'xl/worksheets/sheet1.xml: "1048577" is no row number (1 to 1048576)' });
  });

  it('XML that is wrong inside a part is refused naming the part; nesting and huge rows are refused, not followed', () => {
    // Stored, not deflated: repeated markup would unpack past the reader's ratio before its XML is read.
    const sheet = (data: string) => workbookOf({ 'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData>${data}</sheetData></worksheet>` }, { stored: true });
    expect(refusal(sheet(`${sheetRow(1, ['key', 'value'])}<row r="2"><c><v>1</c></row>`)).msg).toMatch(/^xl\/worksheets\/sheet1\.xml, in its first rows: invalid XML: <\/c> does not close <v>/);
    expect(refusal(sheet(`<row r="1">${'<c><is>'.repeat(100_000)}`)).msg).toMatch(/^xl\/worksheets\/sheet1\.xml, in its first rows: invalid XML: <row> is not closed/);
    expect(refusal(sheet(`<row r="1"><c t="inlineStr"><is>${'<r>'.repeat(1000)}${'</r>'.repeat(1000)}</is></c></row>`)).msg).toMatch(/nested more than 256 levels deep/);
    expect(refusal(sheet(`<row r="1"><c t="inlineStr"><is><t>${'x'.repeat(3 * 1024 * 1024)}</t></is></c></row>`)).msg).toBe('xl/worksheets/sheet1.xml, in its first rows: a <row> of more than 2 MiB of XML is not read');
    expect(refusal(sheet('<!DOCTYPE x [<!ENTITY a "b">]><row r="1"/>')).msg).toBe('xl/worksheets/sheet1.xml: invalid XML: DTDs and declarations are not read');
  });

  it('random bytes, and valid workbooks damaged anywhere, are read or refused with a FormatError: never another exception', () => {
    const zipLike = fc.uint8Array({ maxLength: 400 }).map((bytes) => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...bytes]));
    const damaged = fc.tuple(entriesFor('xlsx', 'de', 4), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([entries, at, byte, cut]) => {
      const file = serialize(entries);
      const i = at % file.length;
      return cut ? file.slice(0, i) : Uint8Array.from(file, (b, j) => (j === i ? byte : b));
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 400 }), zipLike, damaged), (bytes) => {
        try {
          parse(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(FormatError);
          expect((error as FormatError).loc[0]).toBe('body');
        }
      }),
      { numRuns: RUNS * 2 },
    );
  }, TIMEOUT);
});

/** A row of inline strings, its cells placed by their order. */
const sheetRow = (r: number, texts: string[]) => `<row r="${r}">${texts.map((text) => `<c t="inlineStr"><is><t>${text}</t></is></c>`).join('')}</row>`;

describe('through HTTP', () => {
  const ENTRIES: Entry[] = [
    { key: 'home.title', value: 'Willkommen', description: 'Title', group: 'home' },
    { key: 'home.formula', value: '=HYPERLINK("http://example.com")', group: 'home' },
    { key: 'help.lines', value: 'eins\r\nzwei\u0007', group: 'help' },
  ];

  it.each([CONTENT_TYPE, 'application/octet-stream'])('POST /v1/import/de?format=xlsx as %s, then GET /v1/export/de?format=xlsx: the same bytes, as a workbook', async (contentType) => {
    const p = await project(t, ['de']);
    const file = serialize(ENTRIES);
    const imported = await t.app.request('/v1/import/de?format=xlsx&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': contentType }, body: file });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await json(imported)).toMatchObject({ keys_created: 3, values_created: 3 });
    const exported = await p.get('/v1/export/de?format=xlsx');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe(CONTENT_TYPE);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="de.xlsx"');
    expect(base64(new Uint8Array(await exported.arrayBuffer()))).toBe(base64(file));
  });

  it('a workbook with an error in the value column is a 422 naming the row, and writes nothing', async () => {
    const p = await project(t, ['de']);
    const file = workbookOf({ 'xl/worksheets/sheet1.xml': `<worksheet xmlns="${MAIN}"><sheetData>${sheetRow(1, ['key', 'value'])}${sheetRow(2, ['a', 'x'])}<row r="3"><c t="inlineStr"><is><t>b</t></is></c><c t="e"><v>#REF!</v></c></row></sheetData></worksheet>` });
    const res = await t.app.request('/v1/import/de?format=xlsx', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': CONTENT_TYPE }, body: file });
    expect(res.status).toBe(422);
    expect((await json(res)).detail).toEqual([{ loc: ['body', 'line', 3], msg: 'cell B3 holds the error #REF!, which is no text: correct its formula or clear it', type: 'format_invalid' }]);
    expect((await json(await p.get('/v1/keys'))).count).toBe(0);
  });
});
