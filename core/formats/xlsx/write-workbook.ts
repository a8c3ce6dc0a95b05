// A minimal workbook that Excel, LibreOffice, Numbers and Google Sheets open: one worksheet holding
// a table, its first row the header, bold and frozen (it stays in view while the rows scroll).
// The parts are those Excel needs and no more: [Content_Types].xml, _rels/.rels, xl/workbook.xml
// and its relationships, xl/styles.xml, xl/sharedStrings.xml and xl/worksheets/sheet1.xml (no
// theme and no document properties: every program falls back to its defaults).
//
// Every cell is a string in the shared strings table, as Excel writes text: whatever reads Excel's
// files reads these, and a text repeated (a group on every row) is stored once. A cell is never a
// formula, so a value starting with `=`, `+`, `-` or `@` is text (CSV has no types, and such a
// value is a formula there). The data columns and cells have Excel's Text format (`@`), so that
// what a translator types over them stays text too ("=1" no formula, "0012" no number), and wrap
// their lines, aligned to the top. Empty texts are no cells.
//
// The bytes are deterministic: the parts in a fixed order, each deflated at a fixed level, with a
// fixed modification time. fflate writes it from the local date and time fields, so 1980-01-01
// 00:00 local time (what Excel writes) is the same bytes in every time zone. fflate's version is
// pinned by package-lock.json: a release that deflates differently would change every file once.
//
// A part that deflates more than readers accept of an archive (ours, read-zip.ts, and Apache POI's
// alike: past 100 KiB, 100 times its packed size) is stored instead: texts of one character
// repeated, escaped into XML (`"` is `&quot;`), deflated 240 times, and the import refused the
// export as a zip bomb (found by the round-trip property test). Such a workbook is larger, and reads.
import { zipSync, type Zippable } from 'fflate';
import { unpacksTooFar, zipEntries } from '../zip/read-zip.ts';
import { escapeXmlAttr, escapeXmlText } from '../xml/escape-xml.ts';
import { columnName } from './cell-ref.ts';
import { encodeXstring } from './xstring.ts';

/** A table's column: its header text and its width in characters. */
export type Column = { name: string; width: number };

const MTIME = new Date(1980, 0, 1);
const LEVEL = 6;
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SPREADSHEETML = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
/** Cell styles (cellXfs): 0 the default, 1 the header's bold, 2 the data's Text format, wrapped and top-aligned. */
const HEADER_STYLE = 1;
const DATA_STYLE = 2;

const CONTENT_TYPES = [
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
  '<Default Extension="xml" ContentType="application/xml"/>',
  `<Override PartName="/xl/workbook.xml" ContentType="${SPREADSHEETML}.sheet.main+xml"/>`,
  `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SPREADSHEETML}.worksheet+xml"/>`,
  `<Override PartName="/xl/styles.xml" ContentType="${SPREADSHEETML}.styles+xml"/>`,
  `<Override PartName="/xl/sharedStrings.xml" ContentType="${SPREADSHEETML}.sharedStrings+xml"/>`,
  '</Types>',
].join('');

const relationship = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${RELATIONSHIPS}/${type}" Target="${target}"/>`;

const PACKAGE_RELS = `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${relationship('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`;

const WORKBOOK_RELS = [
  `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">`,
  relationship('rId1', 'worksheet', 'worksheets/sheet1.xml'),
  relationship('rId2', 'styles', 'styles.xml'),
  relationship('rId3', 'sharedStrings', 'sharedStrings.xml'),
  '</Relationships>',
].join('');

const font = (bold: boolean) => `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;

const STYLES = [
  `<styleSheet xmlns="${MAIN}">`,
  `<fonts count="2">${font(false)}${font(true)}</fonts>`,
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>',
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>',
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>',
  '<cellXfs count="3">',
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>',
  '</cellXfs>',
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>',
  '</styleSheet>',
].join('');

const workbook = (sheet: string) =>
  `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${escapeXmlAttr(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/** A <t>: its text escaped (xstring.ts, then XML), whitespace that a reader might trim marked as kept. */
function textElement(text: string): string {
  const space = /^[ \t\n]|[ \t\n]$|[\t\n]| {2}/.test(text) ? ' xml:space="preserve"' : '';
  return `<t${space}>${escapeXmlText(encodeXstring(text))}</t>`;
}

/** The shared strings table: each text once, numbered in order of first use. */
class SharedStrings {
  private readonly index = new Map<string, number>();
  private count = 0;

  cell(text: string): string {
    this.count++;
    let i = this.index.get(text);
    if (i === undefined) this.index.set(text, (i = this.index.size));
    return `<v>${i}</v>`;
  }

  xml(): string {
    const items = [...this.index.keys()].map((text) => `<si>${textElement(text)}</si>`).join('');
    return `<sst xmlns="${MAIN}" count="${this.count}" uniqueCount="${this.index.size}">${items}</sst>`;
  }
}

function rowXml(row: readonly string[], line: number, style: number, strings: SharedStrings): string {
  const cells = row.map((text, i) => (text === '' ? '' : `<c r="${columnName(i)}${line}" s="${style}" t="s">${strings.cell(text)}</c>`));
  return `<row r="${line}">${cells.join('')}</row>`;
}

function worksheet(columns: readonly Column[], rows: readonly (readonly string[])[], strings: SharedStrings): string {
  const header = rowXml(
    columns.map((c) => c.name),
    1,
    HEADER_STYLE,
    strings,
  );
  const data = rows.map((row, i) => rowXml(row, i + 2, DATA_STYLE, strings));
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" style="${DATA_STYLE}" customWidth="1"/>`);
  return [
    `<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">`,
    `<dimension ref="A1:${columnName(columns.length - 1)}${rows.length + 1}"/>`,
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0">',
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>',
    '</sheetView></sheetViews>',
    '<sheetFormatPr defaultRowHeight="15"/>',
    `<cols>${cols.join('')}</cols>`,
    `<sheetData>${header}${data.join('')}</sheetData>`,
    '</worksheet>',
  ].join('');
}

/** A workbook of one sheet named `sheet` (a valid sheet name: sheet-name.ts): the header row, then `rows`. */
export function writeWorkbook(sheet: string, columns: readonly Column[], rows: readonly (readonly string[])[]): Uint8Array {
  const strings = new SharedStrings();
  const sheetXml = worksheet(columns, rows, strings);
  const parts: [string, string][] = [
    ['[Content_Types].xml', CONTENT_TYPES],
    ['_rels/.rels', PACKAGE_RELS],
    ['xl/workbook.xml', workbook(sheet)],
    ['xl/_rels/workbook.xml.rels', WORKBOOK_RELS],
    ['xl/styles.xml', STYLES],
    ['xl/sharedStrings.xml', strings.xml()],
    ['xl/worksheets/sheet1.xml', sheetXml],
  ];
  const utf8 = new TextEncoder();
  const files: Zippable = Object.fromEntries(parts.map(([name, xml]) => [name, utf8.encode(DECLARATION + xml)]));
  const zip = zipSync(files, { level: LEVEL, mtime: MTIME });
  const tooPacked = new Set([...zipEntries(zip).values()].filter((e) => unpacksTooFar(e.size, e.packedSize)).map((e) => e.name));
  if (tooPacked.size === 0) return zip;
  for (const name of tooPacked) files[name] = [files[name] as Uint8Array, { level: 0 }];
  return zipSync(files, { level: LEVEL, mtime: MTIME });
}
