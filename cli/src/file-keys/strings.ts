// Keys of Apple's .strings: `"key" = "value";` (or `"key";`), keys quoted with Apple's escapes or
// unquoted plain characters, between /* */ and // comments; UTF-8 or UTF-16.
import { utf8or16 } from './text.ts';

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };
const UNQUOTED = /[A-Za-z0-9_$+/:.-]+/y;

export function stringsKeys(body: Uint8Array): string[] {
  return stringsEntries(utf8or16(body)).map((e) => e.key);
}

/** An entry of a .strings text: its key, where it starts (the key) and ends (after its `;`). */
type Span = { key: string; start: number; end: number };

function stringsEntries(text: string): Span[] {
  let pos = 0;
  const skip = () => {
    for (;;) {
      if (/[ \t\n\r\f\v\uFEFF]/.test(text[pos] ?? '')) pos++;
      else if (text.startsWith('/*', pos)) {
        const end = text.indexOf('*/', pos + 2);
        if (end === -1) throw new Error('a /* comment is not closed');
        pos = end + 2;
      } else if (text.startsWith('//', pos)) {
        const end = text.indexOf('\n', pos);
        pos = end === -1 ? text.length : end;
      } else return;
    }
  };
  const readString = (): string => {
    if (text[pos] !== '"') {
      UNQUOTED.lastIndex = pos;
      const m = UNQUOTED.exec(text);
      if (!m) throw new Error(`expected a quoted string at offset ${pos}`);
      pos = UNQUOTED.lastIndex;
      return m[0];
    }
    let out = '';
    for (pos++; ; ) {
      const c = text[pos];
      if (c === undefined) throw new Error('a string is not closed');
      if (c === '"') {
        pos++;
        return out;
      }
      if (c !== '\\') {
        out += c;
        pos++;
        continue;
      }
      const e = text[pos + 1] ?? '';
      if (e === 'U' || e === 'u') {
        out += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
        pos += 6;
      } else if (/[0-7]/.test(e)) {
        const oct = /^[0-7]{1,3}/.exec(text.slice(pos + 1, pos + 4))?.[0] ?? '0';
        out += String.fromCharCode(parseInt(oct, 8));
        pos += 1 + oct.length;
      } else {
        out += SIMPLE[e] ?? e;
        pos += 2;
      }
    }
  };
  const entries: Span[] = [];
  for (;;) {
    skip();
    if (pos >= text.length) return entries;
    const start = pos;
    const key = readString();
    skip();
    if (text[pos] === '=') {
      pos++;
      skip();
      readString();
      skip();
    }
    if (text[pos] !== ';') throw new Error(`expected ';' after "${key}"`);
    pos++;
    entries.push({ key, start, end: pos });
  }
}

/**
 * The .strings file without the entries of `drop` (each with the comments before it), as UTF-8,
 * read by the server as the file was for every other key, descriptions included. A comment is the
 * description of the key directly below it, on its own line, not one that trails the previous
 * entry on its line (core/formats/codecs/ios-strings.ts): a comment that trailed a removed entry
 * must trail the entry before it, or go. A removed entry leaves its line breaks, so the server's
 * line numbers name the file's lines, except after a comment that trailed it.
 */
export function stringsWithout(body: Uint8Array, drop: ReadonlySet<string>): Buffer {
  const text = utf8or16(body);
  const breaks = (s: string) => s.replace(/[^\n]/g, '');
  let out = '';
  let pending = '';
  let removed = false;
  let from = 0;
  let kept = false;
  for (const entry of stringsEntries(text)) {
    let lead = text.slice(from, entry.start);
    from = entry.end;
    if (drop.has(entry.key)) {
      pending += breaks(lead + text.slice(entry.start, entry.end));
      removed = true;
      continue;
    }
    if (removed && TRAILING.test(lead)) {
      if (kept) pending = '';
      else {
        // No entry before it to trail: the comments on the removed entry's line go (as line breaks).
        for (let m; (m = TRAILING.exec(lead)); ) {
          pending += breaks(m[0]);
          lead = lead.slice(m[0].length);
          if (!m[1]!.startsWith('//') && m[1]!.includes('\n')) break;
        }
      }
    }
    out += pending + lead + text.slice(entry.start, entry.end);
    pending = '';
    removed = false;
    kept = true;
  }
  return Buffer.from(out + pending + text.slice(from), 'utf8');
}

/** A comment at the start of the text, on its first line (consecutive // lines as one, as the server joins them). */
const TRAILING = /^[ \t\r\f\v\uFEFF]*(\/\*[\s\S]*?\*\/|\/\/[^\n]*(?:\n[ \t\r]*\/\/[^\n]*)*)/;
