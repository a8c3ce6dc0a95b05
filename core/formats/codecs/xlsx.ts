// Excel workbooks (.xlsx, Office Open XML SpreadsheetML): csv's table (key, group, description,
// value; table/read-table.ts) in the first worksheet. Reading: the first worksheet in workbook
// order, whatever its name and the other sheets (xlsx/read-workbook.ts); each cell's text as the
// sheet shows it (xlsx/read-sheet.ts), the `_xHHHH_` escapes decoded (xlsx/xstring.ts); a row of
// empty cells is skipped, and the table's errors name the sheet's row (['body', 'line', 7] is row
// 7). A cell holding an error value (#REF!) or an uncalculated formula is refused at its row when
// it is in a column the table reads. ZIP archives from strangers are read within limits
// (zip/read-zip.ts): an import unpacks at most 32 MiB, checked before inflating anything.
//
// Writing (xlsx/write-workbook.ts): one sheet named after the language, the header in bold and
// frozen, one string cell per non-empty text (never a formula: `=SUM(A1)` is text), entries sorted by
// key. Characters XML cannot hold and literal `_xHHHH_` are escaped, and a carriage return is
// `&#13;`, so every text comes back exactly. An Excel cell holds at most 32,767 characters: a longer text (no stored
// value is: values are at most 10,000 characters, but a pseudo-language's lengthened one may be)
// refuses the export, naming the key, rather than write a file Excel would cut.
import type { FormatCodec, ParseContext, ParsedFile } from '../types.ts';
import { FormatError, throwAll } from '../format-error.ts';
import { readTable, TABLE_COLUMNS, type TableRow } from '../table/read-table.ts';
import { columnName } from '../xlsx/cell-ref.ts';
import { readFirstSheet } from '../xlsx/read-workbook.ts';
import type { SheetRow } from '../xlsx/read-sheet.ts';
import { sheetName } from '../xlsx/sheet-name.ts';
import { writeWorkbook, type Column } from '../xlsx/write-workbook.ts';
import { writeTable, type TableColumn } from '../table/write-table.ts';

/** Excel's limit on a cell's text, in UTF-16 units. */
const MAX_CELL = 32_767;
/** Column widths, in characters, by what a column holds. */
const WIDTHS = { key: 40, group: 16, description: 40, value: 60 };

/** A cell's text; a cell holding an error or an uncalculated formula is refused at its row. */
function cellText(row: SheetRow, column: number): string {
  const cell = row.cells.get(column) ?? '';
  if (typeof cell === 'string') return cell;
  throw new FormatError(['body', 'line', row.row], `cell ${columnName(column)}${row.row} ${cell.problem}`);
}

function parse(body: Uint8Array, ctx: ParseContext): ParsedFile {
  const sheet = readFirstSheet(body);
  // Named in the header's refusals: a hidden first sheet ("Instructions") is read, not the tab the
  // user sees, and a message about "row 1" alone sent them to the wrong sheet (found by review).
  const which = `the first worksheet, ${JSON.stringify(sheet.name)}${sheet.hidden ? ' (hidden)' : ''}`;
  const { value: header } = sheet.rows.next();
  if (header === undefined) throw new FormatError(['body'], `${which}, is empty; expected the header row ${TABLE_COLUMNS.join(', ')}`);
  const width = Math.max(...header.cells.keys()) + 1;
  // A header cell holding an error (#REF!) names no column, as a blank one: refused only where the table reads it.
  const names = Array.from({ length: width }, (_, column) => {
    const cell = header.cells.get(column) ?? '';
    return typeof cell === 'string' ? cell : '';
  });
  try {
    return readTable({ line: header.row, names }, tableRows(sheet.rows), 'rows', ctx.language);
  } catch (error) {
    if (error instanceof FormatError && error.loc[2] === header.row && error.msg.startsWith('the header')) throw new FormatError(error.loc, `${which}: ${error.msg}`);
    throw error;
  }
}

/** The rows under the header, read one by one as the table takes them. */
function* tableRows(rows: Iterable<SheetRow>): Generator<TableRow> {
  for (const row of rows) yield { line: row.row, cell: (column) => cellText(row, column) };
}

/** A row's cells; a text longer than a cell holds is refused, naming the key and the column. */
function cells(row: { key: string; cells: string[] }, columns: readonly TableColumn[], refused: FormatError[]): string[] {
  row.cells.forEach((text, i) => {
    if (text.length > MAX_CELL) refused.push(new FormatError(['body', row.key], `${columns[i]!.name} is ${text.length.toLocaleString('en-US')} characters long; an Excel cell holds at most ${MAX_CELL.toLocaleString('en-US')}`));
  });
  return row.cells;
}

export const xlsxCodec: FormatCodec = {
  id: 'xlsx',
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  needsSource: false,
  takesSource: true,
  parse,
  serialize(entries, ctx) {
    const table = writeTable(entries, ctx);
    const refused: FormatError[] = [];
    const rows = table.rows.map((row) => cells(row, table.columns, refused));
    throwAll(refused);
    const columns: Column[] = table.columns.map((c) => ({ name: c.name, width: WIDTHS[c.holds] }));
    return writeWorkbook(sheetName(ctx.language), columns, rows);
  },
};
