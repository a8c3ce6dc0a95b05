// A strict JSON reader (RFC 8259) that keeps what JSON.parse throws away: the order of members, the
// offset of every node for line numbers, and duplicate member names, which JSON.parse resolves by
// silently keeping the last one. A translation file with a key twice loses a value that way, so a
// duplicate is refused here with both lines named.
import { FormatError } from '../format-error.ts';
import { lineOf, lineStarts } from '../text/lines.ts';

export type JsonNode =
  | { kind: 'string'; value: string; offset: number }
  | { kind: 'object'; members: JsonMember[]; offset: number }
  | { kind: 'array'; items: JsonNode[]; offset: number }
  | { kind: 'number' | 'boolean' | 'null'; offset: number };
export type JsonMember = { key: string; value: JsonNode; offset: number };
export type JsonDocument = { root: JsonNode; line: (offset: number) => number };

/**
 * Deeper nesting is refused rather than left to overflow the stack. 512 levels hold the deepest
 * key the service accepts written nested (500 characters of `.`: 501 levels), so every export of
 * json-nested and i18next reads back.
 */
const MAX_DEPTH = 512;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function readJson(text: string): JsonDocument {
  let starts: number[] | undefined;
  const line = (offset: number) => lineOf((starts ??= lineStarts(text)), offset);
  let pos = 0;
  const path: (string | number)[] = [];

  const fail = (msg: string, at = pos): never => {
    const lineNo = line(at);
    const column = at - ((starts ?? [])[lineNo - 1] ?? 0) + 1;
    throw new FormatError(['body', 'line', lineNo], `invalid JSON: ${msg} (column ${column})`);
  };
  const describe = (at: number) => (at >= text.length ? 'end of file' : `'${text[at]}'`);

  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };

  const readString = (): string => {
    const start = pos;
    pos++; // opening quote
    let out = '';
    let chunk = pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (Number.isNaN(c)) return fail('unterminated string', start);
      if (c === 0x22) {
        out += text.slice(chunk, pos);
        pos++;
        return out;
      }
      if (c < 0x20) return fail('control character in a string (escape it)');
      if (c === 0x5c) {
        out += text.slice(chunk, pos);
        const e = text[pos + 1] ?? '';
        if (e === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return fail('invalid \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else {
          const unescaped = ESCAPES[e];
          if (unescaped === undefined) return fail(`invalid escape '\\${e}'`);
          out += unescaped;
          pos += 2;
        }
        chunk = pos;
        continue;
      }
      pos++;
    }
  };

  const readValue = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) return fail(`nested more than ${MAX_DEPTH} levels deep`);
    skipSpace();
    const offset = pos;
    const c = text[pos];
    if (c === '"') return { kind: 'string', value: readString(), offset };
    if (c === '{') return readObject(depth, offset);
    if (c === '[') return readArray(depth, offset);
    if (text.startsWith('true', pos) || text.startsWith('false', pos)) {
      pos += text[pos] === 't' ? 4 : 5;
      return { kind: 'boolean', offset };
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return { kind: 'null', offset };
    }
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = pos;
    if (number.test(text)) {
      pos = number.lastIndex;
      return { kind: 'number', offset };
    }
    return fail(`unexpected ${describe(pos)}`);
  };

  const readObject = (depth: number, offset: number): JsonNode => {
    pos++;
    const members: JsonMember[] = [];
    const seen = new Map<string, number>();
    skipSpace();
    if (text[pos] === '}') {
      pos++;
      return { kind: 'object', members, offset };
    }
    for (;;) {
      skipSpace();
      if (text[pos] !== '"') return fail(`expected a member name in double quotes, found ${describe(pos)}`);
      const at = pos;
      const key = readString();
      const first = seen.get(key);
      if (first !== undefined) {
        throw new FormatError(['body', ...path, key], `duplicate key '${key}' (lines ${line(first)} and ${line(at)})`);
      }
      seen.set(key, at);
      skipSpace();
      if (text[pos] !== ':') return fail(`expected ':' after a member name, found ${describe(pos)}`);
      pos++;
      path.push(key);
      const value = readValue(depth + 1);
      path.pop();
      members.push({ key, value, offset: at });
      skipSpace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') {
        pos++;
        return { kind: 'object', members, offset };
      }
      return fail(`expected ',' or '}', found ${describe(pos)}`);
    }
  };

  const readArray = (depth: number, offset: number): JsonNode => {
    pos++;
    const items: JsonNode[] = [];
    skipSpace();
    if (text[pos] === ']') {
      pos++;
      return { kind: 'array', items, offset };
    }
    for (;;) {
      path.push(items.length);
      items.push(readValue(depth + 1));
      path.pop();
      skipSpace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') {
        pos++;
        return { kind: 'array', items, offset };
      }
      return fail(`expected ',' or ']', found ${describe(pos)}`);
    }
  };

  const root = readValue(0);
  skipSpace();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the document`);
  return { root, line };
}

/** What a node is, for messages. */
export function jsonKind(node: JsonNode): string {
  return node.kind === 'null' ? 'null' : node.kind === 'object' ? 'an object' : node.kind === 'array' ? 'an array' : `a ${node.kind}`;
}
