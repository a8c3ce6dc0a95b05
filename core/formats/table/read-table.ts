// The table the spreadsheet formats share (csv, xlsx): a header row naming the columns key, group,
// description and value in any order and letter case, then one row per key. `key` and `value` are
// required; other columns are ignored with one warning naming them (a blank header cell names no
// column). An empty group or description cell means none; a row with text but no key is refused
// at its line, and so is a key twice, naming both. The readers hand over only rows with some text
// (a row of empty cells is no row, as a blank line is none) and say how they count them: lines of
// a CSV file, rows of a sheet. The location is ['body', 'line', N] either way, so that the portal
// and the CLI show a sheet's row as they show a file's line.
//
// A sheet with one column per language (`key, en, de, fr`: what teams keep, and what Lokalise's and
// Tolgee's spreadsheet exports hold) has no `value` column: then the column named after the language
// imported (`de`, `DE`, `pt_BR` for pt-BR) is the value, and the other languages' columns are
// ignored with the rest. In such a column an empty cell is no translation yet, not an empty text: its
// row is skipped (one warning counts them), where an empty `value` cell is an empty value, as CSV
// has always read it.
import type { Entry, ParsedFile } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { makeEntry } from '../entries/make-entry.ts';

/** The columns, in the order export writes them. */
export const TABLE_COLUMNS = ['key', 'group', 'description', 'value'] as const;

export type TableHeader = { line: number; names: readonly string[] };
/** A row with some text: its line, and its cell in a column (0-based; '' where it has none). */
export type TableRow = { line: number; cell: (column: number) => string };

/** A language code as a column names it: any case, `_` for `-`. */
const codeOf = (name: string) => name.replaceAll('_', '-').toLowerCase();

/**
 * The entries of the rows under `header`, for `language` (the import's: its column is the value
 * when there is no `value` column); `unit` names what the numbers count, in messages.
 */
export function readTable(header: TableHeader, rows: Iterable<TableRow>, unit: 'lines' | 'rows', language: string): ParsedFile {
  const names = header.names.map((n) => n.trim().toLowerCase());
  const index = (name: string) => names.indexOf(name);
  if (index('key') === -1) throw new FormatError(['body', 'line', header.line], `the header has no key column (expected ${TABLE_COLUMNS.join(',')})`);
  // The language's column is never the table's own key, group or description column: a language
  // coded `key` (ISO 639-3 has it) has its column after them (`key,group,description,en,key`, as
  // export writes it), and its first `key` column is still the key.
  const own = new Set(['key', 'group', 'description'].map(index));
  const languageAt = index('value') === -1 ? names.findIndex((n, i) => !own.has(i) && codeOf(n) === codeOf(language)) : -1;
  if (index('value') === -1 && languageAt === -1) {
    throw new FormatError(['body', 'line', header.line], `the header has no value column, nor one named ${language} (expected ${TABLE_COLUMNS.join(',')}, or key and a column per language)`);
  }
  const warnings: string[] = [];
  const unknown = names.filter((n, i) => n !== '' && i !== languageAt && !(TABLE_COLUMNS as readonly string[]).includes(n));
  if (unknown.length) warnings.push(`columns ignored: ${unknown.join(', ')}`);
  const [keyAt, groupAt, descriptionAt] = TABLE_COLUMNS.map(index) as [number, number, number];
  const valueAt = languageAt === -1 ? index('value') : languageAt;
  let untranslated = 0;
  const seen = new Map<string, number>();
  const entries: Entry[] = [];
  for (const row of rows) {
    const at = ['body', 'line', row.line];
    const key = row.cell(keyAt);
    if (key === '') throw new FormatError(at, 'the row has no key (its key cell is empty)');
    const first = seen.get(key);
    if (first !== undefined) throw new FormatError(at, `key '${key}' appears twice (${unit} ${first} and ${row.line})`);
    seen.set(key, row.line);
    if (languageAt !== -1 && row.cell(valueAt) === '') {
      untranslated++;
      continue;
    }
    const group = groupAt === -1 ? '' : row.cell(groupAt);
    const description = descriptionAt === -1 ? '' : row.cell(descriptionAt);
    entries.push(makeEntry(key, row.cell(valueAt), at, description === '' ? undefined : description, group === '' ? undefined : group));
  }
  if (untranslated) warnings.push(`${untranslated} ${untranslated === 1 ? 'row has' : 'rows have'} no text in the ${header.names[languageAt]!.trim()} column: skipped (not translated yet)`);
  return { entries, warnings };
}
