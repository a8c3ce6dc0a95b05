// CSV (RFC 4180) with the header key,group,description,value. Reading accepts the columns in any
// order and any letter case, the delimiter a spreadsheet chose (',' or ';' or a tab, found from the
// header or an Excel `sep=` line), CRLF or LF line ends and a byte order mark; the table's rules
// (`key` and `value` required, other columns ignored with a warning, an empty group or description
// cell meaning none) are xlsx's too: table/read-table.ts. A row of empty cells is skipped as a blank
// line is, and a row with more or fewer fields than the header is refused at its line. Writing
// quotes a field only when it must (a delimiter, quote, CR or LF in it) and ends rows with CRLF.
import type { FormatCodec, ParseContext, ParsedFile } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { writeTable } from '../table/write-table.ts';
import { readTable, TABLE_COLUMNS, type TableRow } from '../table/read-table.ts';

export type CsvRow = { fields: string[]; line: number };

/** RFC 4180 records with the line each starts on (the glossary's CSV reads them too). */
export function readCsvRows(text: string, delimiter: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let pos = 0;
  let line = 1;
  while (pos < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[pos] === '"') {
        const opened = line;
        pos++;
        for (;;) {
          const q = text.indexOf('"', pos);
          if (q === -1) throw new FormatError(['body', 'line', opened], 'a quoted field is not closed');
          const chunk = text.slice(pos, q);
          for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) line++;
          field += chunk;
          pos = q + 1;
          if (text[pos] === '"') {
            field += '"';
            pos++;
          } else break;
        }
        const after = text[pos];
        if (after !== undefined && after !== delimiter && after !== '\r' && after !== '\n') {
          throw new FormatError(['body', 'line', line], `unexpected ${JSON.stringify(after)} after a closing quote (a quote inside a field must be doubled)`);
        }
      } else {
        let end = pos;
        while (end < text.length && text[end] !== delimiter && text[end] !== '\r' && text[end] !== '\n') end++;
        field = text.slice(pos, end);
        if (field.includes('"')) throw new FormatError(['body', 'line', line], 'a field containing a quote must be quoted, with the quote doubled');
        pos = end;
      }
      fields.push(field);
      if (text[pos] === delimiter) {
        pos++;
        continue;
      }
      break;
    }
    if (text[pos] === '\r') pos++;
    if (text[pos] === '\n') pos++;
    line++;
    // A blank line is no record, nor is a row of empty cells: Excel and LibreOffice write one (`,,,`)
    // for each formatted but empty row of the sheet.
    if (fields.some((f) => f !== '')) rows.push({ fields, line: start });
  }
  return rows;
}

/** The delimiter whose split of the header line names one of `columns` (or a cell `columns` accepts); ',' when none does. */
export function detectDelimiter(text: string, columns: readonly string[] | ((cell: string) => boolean) = ['key']): string {
  const header = text.slice(0, text.search(/\r|\n|$/));
  const names = typeof columns === 'function' ? columns : (cell: string) => columns.includes(cell.toLowerCase());
  for (const d of [',', ';', '\t']) if (header.split(d).some((s) => names(s.trim().replace(/^"|"$/g, '')))) return d;
  return ',';
}

/**
 * The text of a CSV file and its delimiter: UTF-8 without its byte order mark, and Excel's hint
 * line `sep=;` read (it is no record; a blank line keeps the line numbers).
 */
export function csvText(body: Uint8Array, columns: readonly string[] | ((cell: string) => boolean)): { text: string; delimiter: string } {
  let text = decodeUtf8(body).replace(/^\uFEFF/, '');
  const sep = /^sep=(.)(\r\n|\n|\r|$)/.exec(text);
  const delimiter = sep ? (sep[1] ?? ',') : detectDelimiter(text, columns);
  if (sep) text = `\n${text.slice(sep[0].length)}`;
  return { text, delimiter };
}

/** The rows under the header, each refused at its line unless it has as many fields as the header. */
function* sameWidth(rows: readonly CsvRow[], width: number): Generator<TableRow> {
  for (const row of rows) {
    if (row.fields.length !== width) throw new FormatError(['body', 'line', row.line], `expected ${width} fields as in the header, found ${row.fields.length}`);
    yield { line: row.line, cell: (column) => row.fields[column] ?? '' };
  }
}

function parse(body: Uint8Array, ctx: ParseContext): ParsedFile {
  const { text, delimiter } = csvText(body, ['key']);
  const [header, ...rows] = readCsvRows(text, delimiter);
  if (header === undefined) throw new FormatError(['body'], `the file is empty; expected the header ${TABLE_COLUMNS.join(',')}`);
  return readTable({ line: header.line, names: header.fields }, sameWidth(rows, header.fields.length), 'lines', ctx.language);
}

export const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

export const csvCodec: FormatCodec = {
  id: 'csv',
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  needsSource: false,
  takesSource: true,
  parse,
  serialize(entries, ctx) {
    const table = writeTable(entries, ctx);
    const lines = [table.columns.map((c) => csvField(c.name)).join(',')];
    for (const row of table.rows) lines.push(row.cells.map(csvField).join(','));
    return encodeText(`${lines.join('\r\n')}\r\n`);
  },
};
