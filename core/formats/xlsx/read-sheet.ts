// A worksheet's cells as text, row by row, and the shared strings they name. A cell is placed by
// its reference (`C7`), or, without one, after the cell before it (a row without `r` after the row
// before it); rows and the cells of a row must come in order, as Excel writes and requires them.
// A cell's text is what the sheet shows for it, by its type: a shared string (`t="s"`, an index
// into xl/sharedStrings.xml), an inline string (`t="inlineStr"`), a formula's cached text
// (`t="str"`), a number as written (`42`, `0.1`: a date is its serial number), a boolean as TRUE or
// FALSE. Rich text is its runs' text joined, without the phonetic runs (`<rPh>`: the reading of
// Japanese text). Text decodes the `_xHHHH_` escapes (xstring.ts).
//
// An error value (`t="e"`: #REF!, #N/A) is no translation, and neither is a formula whose result
// was never calculated (a <f> without a result in <v>): such a cell is kept as a problem, refused
// at its row when the table reads it, so that one in a column the import ignores does not refuse
// the file. A shared string index out of range is a broken file, refused at once.
//
// Rows and shared strings are read a few at a time (package-parts.ts), and rows are handed on as
// they are read: a sheet is never held whole as a tree.
import { FormatError } from '../format-error.ts';
import { elementsOf, type XmlElement } from '../xml/read-xml.ts';
import { localName } from '../xml/local-name.ts';
import { childrenNamed, firstSpan, partElements, partError, textIn } from './package-parts.ts';
import { decodeXstring } from './xstring.ts';
import { columnName, MAX_ROW, parseCellRef } from './cell-ref.ts';

/** A cell the import cannot take as text, with what is wrong with it ("holds the error #REF!"). */
export type CellProblem = { problem: string };
/** The cells of a row that hold something, by 0-based column. */
export type SheetRow = { row: number; cells: Map<number, string | CellProblem> };

/** Text of a shared string or inline string (CT_Rst): a <t>, or rich-text runs <r><t>, each decoded. */
function richText(element: XmlElement): string {
  let text = '';
  for (const child of elementsOf(element)) {
    const name = localName(child.name);
    if (name === 't') text += decodeXstring(textIn(child));
    else if (name === 'r') for (const t of childrenNamed(child, 't')) text += decodeXstring(textIn(t));
  }
  return text;
}

/** The shared strings of a sharedStrings part (<sst>), in order. */
export function sharedStrings(part: string, text: string): string[] {
  const strings: string[] = [];
  for (const si of partElements(part, text, 'si')) strings.push(richText(si));
  return strings;
}

function cellValue(c: XmlElement, row: number, ref: string, strings: readonly string[]): string | CellProblem {
  const type = c.attrs.get('t') ?? 'n';
  if (type === 'inlineStr') {
    const [is] = childrenNamed(c, 'is');
    return is ? richText(is) : '';
  }
  const [v] = childrenNamed(c, 'v');
  const value = v === undefined ? undefined : textIn(v);
  // A formula's result is cached in <v>. Without one, or with an empty one where a number belongs
  // (openpyxl writes `<f>…</f><v></v>`), it was never calculated: no spreadsheet program saved it.
  if (childrenNamed(c, 'f').length > 0 && (value === undefined || (value === '' && type === 'n'))) {
    return { problem: 'holds a formula whose result was never calculated: open and save the file in a spreadsheet program, or type the text' };
  }
  if (value === undefined) return '';
  switch (type) {
    case 's': {
      const text = /^[0-9]+$/.test(value) ? strings[Number(value)] : undefined;
      if (text === undefined) throw new FormatError(['body', 'line', row], `cell ${ref} names shared string ${JSON.stringify(value)}, and the workbook has ${strings.length}`);
      return text;
    }
    case 'str':
      return decodeXstring(value);
    case 'b':
      return value.trim() === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return { problem: `holds the error ${value.trim()}, which is no text: correct its formula or clear it` };
    case 'n':
    case 'd':
      return value;
    default:
      throw new FormatError(['body', 'line', row], `cell ${ref} has the unknown type ${JSON.stringify(type)}`);
  }
}

/** A <row>'s number and its cells that hold something. */
function readRow(r: XmlElement, previous: number, part: string, strings: readonly string[]): SheetRow {
  const given = r.attrs.get('r');
  const row = given === undefined ? previous + 1 : Number(given);
  if (!Number.isInteger(row) || row < 1 || row > MAX_ROW) throw partError(part, `${JSON.stringify(given)} is no row number (1 to ${MAX_ROW})`);
  if (row <= previous) throw new FormatError(['body', 'line', row], `row ${row} comes after row ${previous}: rows must be in order`);
  const cells = new Map<number, string | CellProblem>();
  let column = -1;
  for (const c of childrenNamed(r, 'c')) {
    const ref = c.attrs.get('r') ?? `${columnName(column + 1)}${row}`;
    const at = parseCellRef(ref);
    if (at === undefined || at.row !== row) throw new FormatError(['body', 'line', row], `${JSON.stringify(ref)} is no cell of row ${row}`);
    if (at.column <= column) throw new FormatError(['body', 'line', row], `cell ${ref} comes after ${columnName(column)}${row}: cells must be in order`);
    column = at.column;
    const value = cellValue(c, row, ref, strings);
    if (value !== '') cells.set(column, value);
  }
  return { row, cells };
}

/** The rows of a worksheet part that hold something (a cell that is not empty), as they are read. */
export function* sheetRows(part: string, text: string, strings: readonly string[]): Generator<SheetRow> {
  const sheetData = firstSpan(part, text, 'sheetData');
  if (sheetData === undefined) throw partError(part, 'no <sheetData>: this is no worksheet');
  let previous = 0;
  const where = () => (previous === 0 ? 'in its first rows' : `in the rows after row ${previous}`);
  for (const r of partElements(part, text, 'row', sheetData, where)) {
    const row = readRow(r, previous, part, strings);
    previous = row.row;
    if (row.cells.size > 0) yield row;
  }
}
