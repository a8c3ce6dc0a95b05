// Java .properties (ResourceBundle, Spring's MessageSource: src/main/resources/messages_de.properties),
// read by the grammar of java.util.Properties.load: natural lines end in \n, \r or \r\n; blank lines
// and comment lines (first non-blank character # or !) are skipped; a line ending in an odd number
// of backslashes continues on the next one, whose leading whitespace is dropped. The key ends at
// the first unescaped =, : or whitespace; whitespace, one optional = or : and whitespace again
// separate it from the value. Escapes: \t \n \r \f, \uXXXX (a malformed one refuses the file, as Java
// throws), and a backslash before any other character is that character. Values are text as they
// are: MessageFormat's {0} and '' and ICU plurals are never rewritten. A key given twice refuses the
// file (Java would keep the last); an empty key (`=value`), or one with a control character, cannot
// be a tms key and is skipped with a warning naming its line.
//
// Encoding: UTF-8 (a byte order mark dropped); bytes that are not UTF-8 are read as ISO-8859-1, as
// Java 9+'s PropertyResourceBundle reads them (Java switches at the 8 KB buffer where it meets the
// first bad byte, so the two differ only for a file that mixes UTF-8 and Latin-1). ISO-8859-1 is
// decoded by hand: TextDecoder's 'latin1' is windows-1252, which turns 0x80-0x9F into other letters.
//
// Descriptions: the comment lines directly above a key (a header block separated by a blank line is
// none), each without its # or ! and one following space, joined with line breaks. Banner lines
// (`##########`: two or more comment characters and nothing else) frame a description and are left
// out; a comment of nothing but whitespace, # and ! (`#`, `#   `) is none: it would otherwise
// overwrite a stored description with an empty one. Blank comment lines framing a description (`#`
// above and below it) are none of it, and a block with Properties.store's date line is the file's
// header, no key's description. Export writes each line of a description as
// its own `# ` line (`#` when it is empty), never a banner, so that lines starting with whitespace
// or `#`, and empty lines, read back exactly, with no escapes (no Java reader looks inside a
// comment). So a description comes back as it was, except: a carriage return (a comment line ends
// there) comes back as a line break, blank lines at its start and end are dropped, and a description
// of nothing but whitespace, # and ! is written as none.
//
// Writing: one `key=value` per line, sorted; `\` and \t \n \r \f escaped in both, and `=` `:` `#` `!`
// and every space in keys, a leading space in values. Every other character outside printable ASCII
// is written as \uXXXX (UTF-16 units: an emoji is two), so keys and values are ASCII and every Java
// reader reads them the same: Properties.load (ISO-8859-1), PropertyResourceBundle (UTF-8) and Spring's
// MessageSource with either encoding. Descriptions are written as UTF-8: comments are skipped
// whatever their bytes, and no byte of a UTF-8 multi-byte character is a line end. Every key and
// value a tms entry holds comes back exactly.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { assertNoNul, decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { controlCharacterWarnings, hasControlCharacters, type SkippedKey } from '../entries/control-character-keys.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** How many skipped lines the empty-key warning names; it counts them all. */
const NAMED = 10;

function isUtf8(body: Uint8Array): boolean {
  try {
    UTF8.decode(body);
    return true;
  } catch {
    return false;
  }
}

/** ISO-8859-1: each byte is the character of that code point. */
function latin1(body: Uint8Array): string {
  let text = '';
  for (let i = 0; i < body.length; i += 8192) text += String.fromCharCode(...body.subarray(i, i + 8192));
  return text;
}

function decodeProperties(body: Uint8Array): string {
  // A UTF-16 file is not valid UTF-8 either: decodeUtf8 refuses it by name rather than as Latin-1 text.
  const utf16 = (body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff);
  if (isUtf8(body) || utf16) return decodeUtf8(body);
  const text = latin1(body);
  assertNoNul(text);
  return text;
}

/** A logical line: continuations joined, escapes still in, and the natural line it starts on. */
type LogicalLine = { text: string; line: number };

/**
 * A comment line's text: without its # or ! and one space after it; null for a banner (`#####`, two
 * or more comment characters and nothing else), which frames a description and is none of it.
 */
function commentText(line: string): string | null {
  if (/^[#!]{2,}[ \t\f]*$/.test(line)) return null;
  return line.startsWith(' ', 1) ? line.slice(2) : line.slice(1);
}

const trimStart = (s: string) => s.replace(/^[ \t\f]+/, '');

function oddBackslashes(s: string): boolean {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/**
 * Properties.load's LineReader, natural line by natural line: the logical lines, and the comment
 * lines' texts by line number. A line continued by a backslash alone ("\") joins nothing, and the
 * last natural line's trailing backslash is dropped, whatever it leaves (Java reads a lone "\" at
 * the end as an empty key).
 */
function readLines(text: string): { lines: LogicalLine[]; comments: Map<number, string | null> } {
  const natural = text.split(/\r\n|\r|\n/);
  // The last line's line break starts no line.
  if (natural.at(-1) === '') natural.pop();
  const lines: LogicalLine[] = [];
  const comments = new Map<number, string | null>();
  // The pieces of the logical line being read, joined once at its end: appending to one string and
  // cutting its backslash off each time copied the whole line per piece, and 300,000 continued
  // lines took 18 s (found by review).
  let pieces: string[] | null = null;
  let length = 0;
  let start = 0;
  const end = () => {
    lines.push({ text: pieces!.join(''), line: start });
    pieces = null;
  };
  for (let i = 0; i < natural.length; i++) {
    const s = trimStart(natural[i] ?? '');
    if (pieces === null) {
      if (s === '') continue;
      if (s[0] === '#' || s[0] === '!') {
        comments.set(i + 1, commentText(s));
        continue;
      }
      pieces = [];
      length = 0;
      start = i + 1;
    } else if (s === '') {
      // A blank line after a backslash ends the logical line.
      end();
      continue;
    }
    const continued = oddBackslashes(s);
    const piece = continued ? s.slice(0, -1) : s;
    pieces.push(piece);
    length += piece.length;
    if (continued && i < natural.length - 1) {
      if (length === 0) pieces = null;
      continue;
    }
    end();
  }
  return { lines, comments };
}

/** The line Properties.store writes under its comments, Date.toString(): "Wed Dec 02 10:16:54 UTC 2026". */
const STORE_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \S+ \d{4}$/;
const blank = (line: string | undefined) => line !== undefined && /^[ \t\f]*$/.test(line);

/** Lines without the blank ones that frame them (`#` above and below a description). */
function framed(lines: string[]): string[] {
  while (blank(lines[0])) lines.shift();
  while (blank(lines.at(-1))) lines.pop();
  return lines;
}

/**
 * The description of a logical line starting on `line`: the comment lines directly above it, without
 * the blank comment lines that frame them. A block with Properties.store's date is the file's header,
 * written above the first pair: no description (found by review: each store gave the first key a new one).
 */
function descriptionAbove(comments: ReadonlyMap<number, string | null>, line: number): string | undefined {
  const above: string[] = [];
  for (let at = line - 1; comments.has(at); at--) {
    const text = comments.get(at);
    if (text != null) above.push(text);
  }
  if (above.some((text) => STORE_DATE.test(text))) return undefined;
  const description = framed(above.reverse()).join('\n');
  return /[^\s#!]/.test(description) ? description : undefined;
}

/** The key and the value of a logical line, still escaped (Properties.load0). */
function splitPair(line: string): [string, string] {
  let end = 0;
  for (let escaped = false; end < line.length; end++) {
    const c = line[end];
    if (!escaped && (c === '=' || c === ':' || c === ' ' || c === '\t' || c === '\f')) break;
    escaped = c === '\\' && !escaped;
  }
  const separator = /[ \t\f]*[=:]?[ \t\f]*/y;
  separator.lastIndex = end;
  separator.exec(line);
  return [line.slice(0, end), line.slice(separator.lastIndex)];
}

const UNESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/** Properties.loadConvert: \t \n \r \f, \uXXXX (exactly four hex digits, or `fail`), else the character itself. */
function unescape(raw: string, fail: (msg: string) => never): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\(?:u([\s\S]{0,4})|([\s\S]))/g, (_, hex: string | undefined, c: string | undefined) => {
    if (hex === undefined) return UNESCAPES[c ?? ''] ?? c ?? '';
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`malformed \\uxxxx escape: \\u${hex}`);
    return String.fromCharCode(parseInt(hex, 16));
  });
}

function emptyKeyWarnings(lines: readonly number[]): string[] {
  if (lines.length === 0) return [];
  const more = lines.length > NAMED ? ` and ${lines.length - NAMED} more` : '';
  const named = `line${lines.length === 1 ? '' : 's'} ${lines.slice(0, NAMED).join(', ')}${more}`;
  return [`${lines.length === 1 ? '1 entry was' : `${lines.length} entries were`} skipped because tms keys cannot be empty: ${named}`];
}

function parseProperties(text: string): { entries: Entry[]; warnings: string[] } {
  const { lines, comments } = readLines(text);
  const entries: Entry[] = [];
  const unstorable: SkippedKey[] = [];
  const empty: number[] = [];
  const seen = new Map<string, number>();
  for (const { text: logical, line } of lines) {
    const fail = (msg: string): never => {
      throw new FormatError(['body', 'line', line], msg);
    };
    const [rawKey, rawValue] = splitPair(logical);
    const key = unescape(rawKey, fail);
    const value = unescape(rawValue, fail);
    // An empty key (`=x`, or Java's reading of a lone backslash on the last line) is no key at all,
    // so not one given twice either.
    if (key === '') {
      empty.push(line);
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) fail(`key ${JSON.stringify(key)} appears twice (lines ${first} and ${line})`);
    seen.set(key, line);
    if (hasControlCharacters(key)) unstorable.push({ key, line });
    else entries.push(makeEntry(key, value, ['body', 'line', line], descriptionAbove(comments, line)));
  }
  return { entries, warnings: [...emptyKeyWarnings(empty), ...controlCharacterWarnings(unstorable, 'entry', 'entries')] };
}

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\f': '\\f' };

function escapeChar(c: string): string {
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) return short;
  const code = c.charCodeAt(0);
  if (code >= 0x20 && code <= 0x7e) return `\\${c}`;
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

// Without the u flag a character past U+FFFF is two matches, one per UTF-16 unit.
const escapeKey = (key: string) => key.replace(/[\\=:#! ]|[^\x20-\x7e]/g, escapeChar);
const escapeValue = (value: string) => value.replace(/^ |\\|[^\x20-\x7e]/g, escapeChar);

/** A description as comment lines, or none when it would not read back as one (see the top). */
function commentLines(description: string | null | undefined): string[] {
  if (!description || !/[^\s#!]/.test(description)) return [];
  return framed(description.split(/\r\n|\r|\n/)).map((line) => (line === '' ? '#' : `# ${line}`));
}

export const propertiesCodec: FormatCodec = {
  id: 'properties',
  extension: 'properties',
  contentType: 'text/x-java-properties; charset=utf-8',
  needsSource: false,
  parse(body) {
    return parseProperties(decodeProperties(body));
  },
  serialize(entries) {
    const lines: string[] = [];
    let described = false;
    for (const e of sortedEntries(entries)) {
      const comment = commentLines(e.description);
      // A blank line on either side of an entry with a description, so each reads as a paragraph.
      if (lines.length > 0 && (described || comment.length > 0)) lines.push('');
      lines.push(...comment, `${escapeKey(e.key)}=${escapeValue(e.value)}`);
      described = comment.length > 0;
    }
    return encodeText(lines.join('\n'));
  },
};
