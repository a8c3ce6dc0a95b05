// Apple .strings: `"key" = "value";` with a `/* comment */` (or `//` lines) directly above as the
// description (not one that trails the previous entry on its line: `"a" = "b"; // old`). Reading takes UTF-8 or UTF-16 (LE or BE, by byte order mark or by its zero bytes),
// the escapes \" \\ \n \t \r \a \b \f \v \Uxxxx \uxxxx and octal, unquoted keys and values of
// plain characters, and `"key";` (the value is the key). A key with a line break, tab or other
// control character cannot be a tms key: it is skipped with a warning naming its line. Writing is UTF-8 (Xcode reads it), one
// entry per paragraph, with \" \\ \n \t \r escaped and other control characters as \Uxxxx.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUnicode } from '../text/decode-unicode.ts';
import { encodeText } from '../text/encode.ts';
import { lineOf, lineStarts } from '../text/lines.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { controlCharacterWarnings, hasControlCharacters, type SkippedKey } from '../entries/control-character-keys.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };
const UNQUOTED = /[A-Za-z0-9_$+/:.-]+/y;

type Comment = { text: string; start: number; end: number; lineComment: boolean };

export function parseStrings(text: string): { entries: Entry[]; skipped: SkippedKey[] } {
  const starts = lineStarts(text);
  const line = (at: number) => lineOf(starts, at);
  const fail = (msg: string, at: number): never => {
    throw new FormatError(['body', 'line', line(at)], msg);
  };
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // The last comment read, kept in an object so that the closures below can update it.
  const last: { comment: Comment | null } = { comment: null };
  const lastComment = () => last.comment;

  /** Skips whitespace and comments, remembering the last comment (consecutive // lines as one). */
  const skip = () => {
    for (;;) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF') pos++;
      else if (text.startsWith('/*', pos)) {
        const end = text.indexOf('*/', pos + 2);
        if (end === -1) fail('a /* comment is not closed', pos);
        last.comment = { text: text.slice(pos + 2, end).trim(), start: pos, end: end + 2, lineComment: false };
        pos = end + 2;
      } else if (text.startsWith('//', pos)) {
        let end = text.indexOf('\n', pos);
        if (end === -1) end = text.length;
        const body = text.slice(pos + 2, end).trim();
        const previous = last.comment;
        const joins = previous?.lineComment === true && /^[ \t\r]*\n[ \t\r]*$/.test(text.slice(previous.end, pos));
        last.comment = { text: joins ? `${previous.text}\n${body}` : body, start: joins ? previous.start : pos, end, lineComment: true };
        pos = end;
      } else return;
    }
  };

  const readString = (): string => {
    const start = pos;
    if (text[pos] !== '"') {
      UNQUOTED.lastIndex = pos;
      const m = UNQUOTED.exec(text);
      if (!m) fail(pos >= text.length ? 'the file ends in the middle of an entry' : `expected a quoted string, found '${text[pos]}'`, pos);
      pos = UNQUOTED.lastIndex;
      return m?.[0] ?? '';
    }
    pos++;
    let out = '';
    let chunk = pos;
    for (;;) {
      const c = text[pos];
      if (c === undefined) fail('a string is not closed', start);
      if (c === '"') {
        out += text.slice(chunk, pos);
        pos++;
        return out;
      }
      if (c === '\\') {
        out += text.slice(chunk, pos);
        const e = text[pos + 1] ?? '';
        if (e === 'U' || e === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(`invalid \\${e} escape (expected four hex digits)`, pos);
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else if (/[0-7]/.test(e)) {
          const oct = /^[0-7]{1,3}/.exec(text.slice(pos + 1, pos + 4))?.[0] ?? '0';
          out += String.fromCharCode(parseInt(oct, 8));
          pos += 1 + oct.length;
        } else {
          if (e === '') fail('a string is not closed', start);
          out += SIMPLE_ESCAPES[e] ?? e;
          pos += 2;
        }
        chunk = pos;
        continue;
      }
      pos++;
    }
  };

  const entries: Entry[] = [];
  const skipped: SkippedKey[] = [];
  const seen = new Map<string, number>();
  /** Where the previous entry ended; a comment on that same line trails it. */
  let entryEnd = -1;
  for (;;) {
    last.comment = null;
    skip();
    if (pos >= text.length) return { entries, skipped };
    // A comment is the entry's description only if no blank line separates them, and it does not
    // trail the previous entry on its line.
    const before = lastComment();
    const ownLine = before !== null && (entryEnd === -1 || text.slice(entryEnd, before.start).includes('\n'));
    const description = before !== null && ownLine && !/\n[ \t\r]*\n/.test(text.slice(before.end, pos)) ? before.text : undefined;
    const at = pos;
    const key = readString();
    skip();
    let value = key;
    if (text[pos] === '=') {
      pos++;
      skip();
      value = readString();
      skip();
    }
    if (text[pos] !== ';') fail(pos >= text.length ? `the entry "${key}" has no closing ';'` : `expected ';' after the entry "${key}", found '${text[pos]}'`, pos);
    pos++;
    entryEnd = pos;
    const first = seen.get(key);
    if (first !== undefined) fail(`key "${key}" appears twice (lines ${line(first)} and ${line(at)})`, at);
    seen.set(key, at);
    if (hasControlCharacters(key)) skipped.push({ key, line: line(at) });
    else entries.push(makeEntry(key, value, ['body', 'line', line(at)], description === '' ? undefined : description));
  }
}

export function quoteStrings(s: string): string {
  return `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\U${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  })}"`;
}

/** A comment's text: `*\/` would end it early, so it is spaced apart. */
export const stringsComment = (description: string) => `/* ${description.trim().replaceAll('*/', '* /')} */`;

export const iosStringsCodec: FormatCodec = {
  id: 'ios-strings',
  extension: 'strings',
  contentType: 'text/plain; charset=utf-8',
  needsSource: false,
  parse(body) {
    const { entries, skipped } = parseStrings(decodeUnicode(body));
    return { entries, warnings: controlCharacterWarnings(skipped, 'entry', 'entries') };
  },
  serialize(entries) {
    const blocks = sortedEntries(entries).map((e) => {
      const line = `${quoteStrings(e.key)} = ${quoteStrings(e.value)};`;
      return e.description ? `${stringsComment(e.description)}\n${line}` : line;
    });
    return encodeText(blocks.join('\n\n'));
  },
};
