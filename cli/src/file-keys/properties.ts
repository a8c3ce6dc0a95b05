// Keys of a Java .properties file, by java.util.Properties.load's grammar as the server's codec reads
// it (core/formats/codecs/properties.ts): blank lines and comment lines (# or !) skipped, a line that
// ends in an odd number of backslashes continued on the next (its leading whitespace dropped), the
// key up to the first unescaped =, : or whitespace, its escapes undone. UTF-8, or ISO-8859-1 when
// the bytes are not UTF-8 (as Java 9+'s PropertyResourceBundle). An empty key (`=value`) names none.
import { utf8 } from './text.ts';

const UNESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function decode(body: Uint8Array): string {
  try {
    return utf8(body);
  } catch {
    // ISO-8859-1 by hand: TextDecoder's 'latin1' is windows-1252.
    let text = '';
    for (let i = 0; i < body.length; i += 8192) text += String.fromCharCode(...body.subarray(i, i + 8192));
    return text;
  }
}

function oddBackslashes(s: string): boolean {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** The logical lines, continuations joined; a lone "\" joins nothing, except on the last line. */
function logicalLines(text: string): string[] {
  const natural = text.split(/\r\n|\r|\n/);
  if (natural.at(-1) === '') natural.pop();
  const lines: string[] = [];
  // Pieces joined once per logical line: cutting a growing string per continued line is quadratic.
  let pieces: string[] | null = null;
  let length = 0;
  for (let i = 0; i < natural.length; i++) {
    const s = (natural[i] ?? '').replace(/^[ \t\f]+/, '');
    if (pieces === null && (s === '' || s[0] === '#' || s[0] === '!')) continue;
    if (pieces !== null && s === '') {
      lines.push(pieces.join(''));
      pieces = null;
      continue;
    }
    if (pieces === null) {
      pieces = [];
      length = 0;
    }
    const continued = oddBackslashes(s);
    const piece = continued ? s.slice(0, -1) : s;
    pieces.push(piece);
    length += piece.length;
    if (continued && i < natural.length - 1) {
      if (length === 0) pieces = null;
      continue;
    }
    lines.push(pieces.join(''));
    pieces = null;
  }
  return lines;
}

/** A logical line's key: up to the first unescaped =, : or whitespace, unescaped. */
function keyOf(line: string): string {
  let end = 0;
  for (let escaped = false; end < line.length; end++) {
    const c = line[end] ?? '';
    if (!escaped && '=: \t\f'.includes(c)) break;
    escaped = c === '\\' && !escaped;
  }
  return line.slice(0, end).replace(/\\(?:u([0-9a-fA-F]{4})|([\s\S]))/g, (_, hex: string | undefined, c: string | undefined) =>
    hex === undefined ? (UNESCAPES[c ?? ''] ?? c ?? '') : String.fromCharCode(parseInt(hex, 16)),
  );
}

export function propertiesKeys(body: Uint8Array): string[] {
  return logicalLines(decode(body))
    .map(keyOf)
    .filter((key) => key !== '');
}
