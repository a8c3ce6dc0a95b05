// Keys of Apple's .strings: `"key" = "value";` (or `"key";`), keys quoted with Apple's escapes or
// unquoted plain characters, between /* */ and // comments; UTF-8 or UTF-16.
import { utf8or16 } from './text.ts';

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };
const UNQUOTED = /[A-Za-z0-9_$+/:.-]+/y;

export function stringsKeys(body: Uint8Array): string[] {
  const text = utf8or16(body);
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
  const keys: string[] = [];
  for (;;) {
    skip();
    if (pos >= text.length) return keys;
    keys.push(readString());
    skip();
    if (text[pos] === '=') {
      pos++;
      skip();
      readString();
      skip();
    }
    if (text[pos] !== ';') throw new Error(`expected ';' after "${keys.at(-1)}"`);
    pos++;
  }
}
