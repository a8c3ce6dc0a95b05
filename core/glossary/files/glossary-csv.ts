// A glossary as CSV, the shape spreadsheets and the hosted tools' glossary exports have: one row per
// term, a `term` column (or one named by the source language's code), then `description`,
// `translatable`, `case_sensitive`, `forbidden` and a column per language. Reading takes the columns
// in any order and letter case ("Case sensitive", "casesensitive"), a `do_not_translate` column as
// the opposite of `translatable`, `definition` for `description`, the delimiter a spreadsheet chose,
// and ignores (with a warning) columns it has no use for (Lokalise's `tags`, `de_description`) and
// languages the project does not have.
import { FormatError } from '../../formats/format-error.ts';
import { csvField, csvText, readCsvRows } from '../../formats/codecs/csv.ts';
import { encodeText } from '../../formats/text/encode.ts';
import type { GlossaryTerm } from '../schemas.ts';
import {
  describeTerm,
  fileTerm,
  flagValue,
  isIdentifier,
  languageReader,
  refusals,
  looksLikeLanguageCode,
  translationProblem,
  type FileTerm,
  type GlossaryFile,
  type ProjectLanguages,
} from './glossary-file.ts';

type Role = 'term' | 'description' | 'case_sensitive' | 'translatable' | 'do_not_translate' | 'forbidden';
const ROLES: Record<string, Role> = {
  term: 'term',
  description: 'description',
  definition: 'description',
  case_sensitive: 'case_sensitive',
  casesensitive: 'case_sensitive',
  translatable: 'translatable',
  do_not_translate: 'do_not_translate',
  donottranslate: 'do_not_translate',
  non_translatable: 'do_not_translate',
  nontranslatable: 'do_not_translate',
  forbidden: 'forbidden',
};
const columnName = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, '_');
/** The role a header cell names, if any (own keys only: a column named "constructor" names none). */
const roleOf = (cell: string): Role | undefined => (Object.hasOwn(ROLES, columnName(cell)) ? ROLES[columnName(cell)] : undefined);

export function readGlossaryCsv(body: Uint8Array, languages: ProjectLanguages): GlossaryFile {
  const languageOf = languageReader(languages);
  // The delimiter that splits the header into a term column: `term`, or the source language's
  // code as the sheet writes it (en-US;de-DE, as a German Excel saves).
  const { text, delimiter } = csvText(body, (cell) => roleOf(cell) === 'term' || languageOf(cell) === languages.source);
  const [header, ...rows] = readCsvRows(text, delimiter);
  if (header === undefined) throw new FormatError(['body'], 'the file is empty; expected a header such as term,description,translatable,case_sensitive,de');
  const roles = new Map<Role, number>();
  const columns = new Map<string, number>(); // project language -> column
  let sourceColumn: number | undefined;
  const ignored: string[] = [];
  const warnings: string[] = [];
  header.fields.forEach((written, at) => {
    const name = columnName(written);
    const role = roleOf(written);
    if (role !== undefined) {
      if (roles.has(role)) throw new FormatError(['body', 'line', header.line], `the header has two ${role} columns (${header.fields[roles.get(role)!]} and ${written})`);
      roles.set(role, at);
      return;
    }
    if (!looksLikeLanguageCode(name)) {
      ignored.push(written.trim() || `(column ${at + 1}, unnamed)`);
      return;
    }
    const code = languageOf(name);
    if (code === null) warnings.push(`column ${written.trim()}: not a language of the project, skipped (add it first to import its translations)`);
    else if (code === languages.source) {
      if (sourceColumn === undefined) sourceColumn = at;
      else warnings.push(`column ${written.trim()}: a second column of the source language ${code}, skipped`);
    } else if (columns.has(code)) warnings.push(`column ${written.trim()}: a second column of ${code}, skipped`);
    else if (rows.some((r) => (r.fields[at] ?? '').trim() !== '') && rows.every((r) => (r.fields[at] ?? '').trim() === '' || isIdentifier(r.fields[at]!))) {
      // A spreadsheet's "ID" column of row numbers, in a project that has Indonesian (id).
      warnings.push(`column ${written.trim()}: holds only numbers or ids, read as the rows' identifiers, not ${code} translations: skipped`);
    } else columns.set(code, at);
  });
  if (roles.has('translatable') && roles.has('do_not_translate')) {
    throw new FormatError(['body', 'line', header.line], 'the header has both translatable and do_not_translate columns: keep one');
  }
  let termAt = roles.get('term');
  if (termAt === undefined) termAt = sourceColumn;
  else if (sourceColumn !== undefined) warnings.push(`column ${header.fields[sourceColumn]!.trim()}: the term column holds the source language's text, skipped`);
  if (termAt === undefined) {
    throw new FormatError(['body', 'line', header.line], `the header has no term column (expected term, or the source language's code ${languages.source})`);
  }
  if (ignored.length) warnings.push(`columns ignored: ${ignored.join(', ')}`);

  const terms: FileTerm[] = [];
  const refused = refusals();
  const seen = new Map<string, number>();
  const cell = (row: string[], at: number | undefined) => (at === undefined ? '' : (row[at] ?? '').trim());
  for (const row of rows) {
    const loc = ['body', 'line', row.line];
    const refuse = (msg: string) => refused.refuse(loc, msg);
    if (row.fields.length !== header.fields.length) {
      throw new FormatError(loc, `expected ${header.fields.length} fields as in the header, found ${row.fields.length}`);
    }
    const written = cell(row.fields, termAt);
    if (written === '') {
      refuse('the row has no term (its term cell is empty)');
      continue;
    }
    const entry = fileTerm(written, row.line, seen, refuse);
    if (entry === null) continue;
    const description = cell(row.fields, roles.get('description'));
    if (description !== '') describeTerm(entry, description, refuse);
    for (const [role, invert] of [['case_sensitive', false], ['translatable', false], ['do_not_translate', true], ['forbidden', false]] as const) {
      const at = roles.get(role);
      if (at === undefined) continue;
      const flag = flagValue(cell(row.fields, at));
      if (flag === null) refuse(`${header.fields[at]!.trim()} must be yes or no (or true, false, 1, 0, or empty), not '${cell(row.fields, at)}'`);
      else if (flag !== undefined) {
        if (role === 'case_sensitive') entry.caseSensitive = flag;
        else if (role === 'forbidden') entry.forbidden = flag;
        else entry.translatable = invert ? !flag : flag;
      }
    }
    for (const [code, at] of columns) {
      const text = cell(row.fields, at);
      if (text === '') continue;
      const wrong = translationProblem(text);
      if (wrong) refuse(`${code}: ${wrong}`);
      entry.translations.set(code, text);
    }
    terms.push(entry);
  }
  return { terms, warnings, issues: refused.issues() };
}

/** The header and rows an export writes: term, description, translatable, case_sensitive, forbidden, then each language but the source. */
export function writeGlossaryCsv(terms: readonly GlossaryTerm[], languages: readonly string[]): Uint8Array {
  const lines = [['term', 'description', 'translatable', 'case_sensitive', 'forbidden', ...languages].map(csvField).join(',')];
  for (const t of terms) {
    lines.push([t.term, t.description, String(t.translatable), String(t.case_sensitive), String(t.forbidden), ...languages.map((code) => t.translations[code] ?? '')].map(csvField).join(','));
  }
  return encodeText(`${lines.join('\r\n')}\r\n`);
}
