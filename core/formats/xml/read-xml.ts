// A small strict XML reader for the XML formats (XLIFF 1.2 and 2.0, Android resources, plists).
// It keeps what the formats need and general parsers drop: the exact source of every start tag
// (inline markup inside a translation is carried verbatim), comments in document order (Android
// and plist descriptions), CDATA, and the line of every node for error locations. It refuses
// DTD internal subsets (entity expansion attacks) and any entity other than XML's five and
// character references, and elements nested deeper than MAX_DEPTH (the reader recurses, and a
// stack overflow would surface as a RangeError instead of a located FormatError). Namespaces are
// not resolved: names keep their prefix (`xliff:g`).
import { FormatError } from '../format-error.ts';
import { lineOf, lineStarts } from '../text/lines.ts';

export type XmlElement = {
  kind: 'element';
  name: string;
  attrs: Map<string, string>;
  children: XmlNode[];
  line: number;
  /** The start tag exactly as written, `<a href="x">` or `<x id="1"/>`. */
  startTag: string;
  selfClosing: boolean;
};
export type XmlText = { kind: 'text'; text: string; cdata: boolean; line: number };
export type XmlComment = { kind: 'comment'; text: string; line: number };
export type XmlNode = XmlElement | XmlText | XmlComment;

const NAME = /[A-Za-z_:\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][-.0-9A-Za-z_:\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]*/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Far deeper than any translation file (XLIFF groups and inline markup nest a few levels). */
const MAX_DEPTH = 256;

export function readXml(input: string): XmlElement {
  // XML end-of-line handling: CRLF and lone CR become LF before parsing; &#13; survives as CR.
  const text = input.replace(/\r\n?/g, '\n');
  const starts = lineStarts(text);
  let pos = 0;

  const line = (at: number) => lineOf(starts, at);
  const fail = (msg: string, at = pos): never => {
    throw new FormatError(['body', 'line', line(at)], `invalid XML: ${msg}`);
  };

  const decode = (raw: string, at: number): string => {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&\s]*);?/g, (match, ref: string) => {
      if (!match.endsWith(';')) return fail(`'&' must start an entity such as &amp;`, at);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? /^#x[0-9a-fA-F]+$/.test(ref) && parseInt(ref.slice(2), 16) : /^#[0-9]+$/.test(ref) && parseInt(ref.slice(1), 10);
        if (code === false || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          return fail(`invalid character reference &${ref};`, at);
        }
        return String.fromCodePoint(code);
      }
      const entity = ENTITIES[ref];
      if (entity === undefined) return fail(`unknown entity &${ref}; (only &lt; &gt; &amp; &quot; &apos; and character references)`, at);
      return entity;
    });
  };

  const readName = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(text);
    if (!match) return fail(`expected a name, found ${pos < text.length ? `'${text[pos]}'` : 'end of file'}`);
    pos = NAME.lastIndex;
    return match[0];
  };

  const skipSpace = () => {
    while (pos < text.length && ' \t\n'.includes(text[pos] ?? '')) pos++;
  };

  /** Comments, processing instructions and (outside the root) a DOCTYPE; true if one was read. */
  const readMisc = (out: XmlNode[] | null): boolean => {
    if (text.startsWith('<!--', pos)) {
      const end = text.indexOf('-->', pos + 4);
      if (end === -1) fail('unterminated comment');
      out?.push({ kind: 'comment', text: text.slice(pos + 4, end), line: line(pos) });
      pos = end + 3;
      return true;
    }
    if (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos + 2);
      if (end === -1) fail('unterminated processing instruction');
      pos = end + 2;
      return true;
    }
    return false;
  };

  const readElement = (depth: number): XmlElement => {
    const start = pos;
    if (depth > MAX_DEPTH) fail(`elements nested more than ${MAX_DEPTH} levels deep`);
    pos++; // <
    const name = readName();
    const attrs = new Map<string, string>();
    for (;;) {
      const before = pos;
      skipSpace();
      if (text.startsWith('/>', pos) || text[pos] === '>') break;
      if (pos === before) fail(`expected whitespace, '>' or '/>' in <${name}>`);
      const attrAt = pos;
      const attr = readName();
      skipSpace();
      if (text[pos] !== '=') fail(`expected '=' after attribute ${attr}`);
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") return fail(`attribute ${attr} must be quoted`);
      const end = text.indexOf(quote, pos + 1);
      if (end === -1) fail(`unterminated attribute ${attr}`);
      const raw = text.slice(pos + 1, end);
      if (raw.includes('<')) fail(`'<' in attribute ${attr}`);
      if (attrs.has(attr)) fail(`attribute ${attr} appears twice`, attrAt);
      // Attribute-value normalization: literal tabs and newlines read as spaces.
      attrs.set(attr, decode(raw.replace(/[\t\n]/g, ' '), attrAt));
      pos = end + 1;
    }
    const selfClosing = text[pos] === '/';
    pos += selfClosing ? 2 : 1;
    const element: XmlElement = { kind: 'element', name, attrs, children: [], line: line(start), startTag: text.slice(start, pos), selfClosing };
    if (!selfClosing) readContent(element, depth);
    return element;
  };

  const readContent = (element: XmlElement, depth: number): void => {
    const children = element.children;
    for (;;) {
      const next = text.indexOf('<', pos);
      if (next === -1) fail(`<${element.name}> (line ${element.line}) is not closed: the file ends early`, text.length);
      if (next > pos) children.push({ kind: 'text', text: decode(text.slice(pos, next), pos), cdata: false, line: line(pos) });
      pos = next;
      if (text.startsWith('</', pos)) {
        const at = pos;
        pos += 2;
        const closing = readName();
        skipSpace();
        if (text[pos] !== '>') fail(`expected '>' to end </${closing}`);
        pos++;
        if (closing !== element.name) fail(`</${closing}> does not close <${element.name}> (line ${element.line})`, at);
        return;
      }
      if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos + 9);
        if (end === -1) fail('unterminated CDATA section');
        children.push({ kind: 'text', text: text.slice(pos + 9, end), cdata: true, line: line(pos) });
        pos = end + 3;
        continue;
      }
      if (text.startsWith('<!', pos) && !text.startsWith('<!--', pos)) fail('unexpected declaration inside an element');
      if (readMisc(children)) continue;
      children.push(readElement(depth + 1));
    }
  };

  const readProlog = (): void => {
    for (;;) {
      skipSpace();
      if (readMisc(null)) continue;
      if (text.startsWith('<!DOCTYPE', pos)) {
        let at = pos + 9;
        for (; at < text.length && text[at] !== '>'; at++) {
          const c = text[at];
          if (c === '[') fail('DTD internal subsets are not supported', at);
          if (c === '"' || c === "'") {
            at = text.indexOf(c, at + 1);
            if (at === -1) fail('unterminated DOCTYPE');
          }
        }
        if (at >= text.length) fail('unterminated DOCTYPE');
        pos = at + 1;
        continue;
      }
      return;
    }
  };

  // A byte order mark decoded from UTF-16 or UTF-8 may remain at the very start.
  if (text.charCodeAt(0) === 0xfeff) pos = 1;
  readProlog();
  if (text[pos] !== '<') fail(pos >= text.length ? 'the file has no root element' : `unexpected text before the root element`);
  const root = readElement(1);
  for (;;) {
    skipSpace();
    if (pos >= text.length) return root;
    if (!readMisc(null)) fail('unexpected content after the root element');
  }
}

/** The element children of a node, skipping text and comments. */
export const elementsOf = (element: XmlElement): XmlElement[] =>
  element.children.filter((child): child is XmlElement => child.kind === 'element');

/** The text content of an element that must hold only text (plist strings, notes). */
export function textOf(element: XmlElement): string {
  let out = '';
  for (const child of element.children) {
    if (child.kind === 'text') out += child.text;
    else if (child.kind === 'element') throw new FormatError(['body', 'line', child.line], `<${element.name}> must contain only text, found <${child.name}>`);
  }
  return out;
}

/** Non-blank text directly inside an element that should only hold elements. */
export function assertOnlyElements(element: XmlElement): void {
  for (const child of element.children) {
    if (child.kind === 'text' && child.text.trim() !== '') {
      throw new FormatError(['body', 'line', child.line], `unexpected text inside <${element.name}>`);
    }
  }
}
