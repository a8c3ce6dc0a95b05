// Keys of the XML formats, from a small XML reader that keeps elements, their attributes and
// their text (comments, processing instructions and the DOCTYPE are skipped, CDATA is text):
// Android resources (`name`; `name[0]`, `name[1]`... for string-array items), XLIFF 1.2
// (`<trans-unit id>`), XLIFF 2.0 (`<unit id>`) and Apple's .stringsdict (the top-level plist keys);
// the parts of an Excel workbook are read with it too (./xlsx.ts).
import { utf8 } from './text.ts';

export type Element = { name: string; attrs: Map<string, string>; children: (Element | string)[] };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (match, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? match;
  });
}

export function readXml(input: string): Element {
  const text = input.replace(/\r\n?/g, '\n');
  let pos = 0;
  const NAME = /[^\s/>=]+/y;
  const name = () => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) throw new Error(`expected a name at offset ${pos}`);
    pos = NAME.lastIndex;
    return m[0];
  };
  const space = () => {
    while (/\s/.test(text[pos] ?? '')) pos++;
  };
  /** Skips a comment, processing instruction or DOCTYPE at pos; true if there was one. */
  const misc = (): boolean => {
    for (const [open, close] of [['<!--', '-->'], ['<?', '?>'], ['<!DOCTYPE', '>']] as const) {
      if (!text.startsWith(open, pos)) continue;
      const end = text.indexOf(close, pos + open.length);
      if (end === -1) throw new Error(`unterminated ${open}`);
      pos = end + close.length;
      return true;
    }
    return false;
  };
  const element = (): Element => {
    pos++;
    const el: Element = { name: name(), attrs: new Map(), children: [] };
    for (;;) {
      space();
      if (text.startsWith('/>', pos)) {
        pos += 2;
        return el;
      }
      if (text[pos] === '>') break;
      const attr = name();
      space();
      if (text[pos] !== '=') throw new Error(`expected '=' after ${attr}`);
      pos++;
      space();
      const quote = text[pos];
      const end = quote === '"' || quote === "'" ? text.indexOf(quote, pos + 1) : -1;
      if (end === -1) throw new Error(`attribute ${attr} is not quoted`);
      el.attrs.set(attr, decode(text.slice(pos + 1, end).replace(/[\t\n]/g, ' ')));
      pos = end + 1;
    }
    pos++;
    for (;;) {
      const next = text.indexOf('<', pos);
      if (next === -1) throw new Error(`<${el.name}> is not closed`);
      if (next > pos) el.children.push(decode(text.slice(pos, next)));
      pos = next;
      if (text.startsWith('</', pos)) {
        pos = text.indexOf('>', pos) + 1;
        if (pos === 0) throw new Error(`</${el.name}> is not closed`);
        return el;
      }
      if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos);
        if (end === -1) throw new Error('unterminated CDATA section');
        el.children.push(text.slice(pos + 9, end));
        pos = end + 3;
      } else if (!misc()) el.children.push(element());
    }
  };
  for (;;) {
    space();
    if (text.charCodeAt(pos) === 0xfeff) pos++;
    else if (!misc()) break;
  }
  if (text[pos] !== '<') throw new Error('the file has no root element');
  return element();
}

export const elements = (el: Element) => el.children.filter((c): c is Element => typeof c !== 'string');
export const textOf = (el: Element): string => el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
const parse = (body: Uint8Array) => readXml(utf8(body));

export function androidKeys(body: Uint8Array): string[] {
  const keys: string[] = [];
  for (const el of elements(parse(body))) {
    const name = el.attrs.get('name');
    // A product variant other than the default (product="tablet") is not read: the default is the key.
    const product = el.attrs.get('product') ?? 'default';
    if (name === undefined || (product !== 'default' && product !== '')) continue;
    if (el.name === 'string' || el.name === 'plurals') keys.push(name);
    else if (el.name === 'string-array') elements(el).forEach((_, i) => keys.push(`${name}[${i}]`));
  }
  return keys;
}

/** Ids of the elements named `unit` anywhere in the file (XLIFF 1.2 trans-unit, 2.0 unit). */
function unitIds(root: Element, unit: string): string[] {
  const ids: string[] = [];
  const walk = (el: Element) => {
    for (const child of elements(el)) {
      const id = child.attrs.get('id');
      if (child.name === unit && id !== undefined) ids.push(id);
      else walk(child);
    }
  };
  walk(root);
  return ids;
}

export const xliffKeys = (body: Uint8Array) => unitIds(parse(body), 'trans-unit');
export const xliff2Keys = (body: Uint8Array) => unitIds(parse(body), 'unit');

export function stringsdictKeys(body: Uint8Array): string[] {
  const top = elements(parse(body))[0];
  if (top?.name !== 'dict') throw new Error('<plist> must hold one <dict>');
  return elements(top)
    .filter((el) => el.name === 'key')
    .map(textOf);
}
