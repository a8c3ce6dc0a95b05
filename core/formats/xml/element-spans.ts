// Where the elements of one name are in a large XML text, so that each can be read by readXml on
// its own. readXml's tree of a whole text takes up to 75 times its size (a 10 MiB file of `<a/>`:
// 780 MiB), and a spreadsheet's parts unpack to tens of MiB from a small upload: read whole, a
// 644 KB workbook ran the process out of memory. Elements are found by their local name (any
// namespace prefix); comments, CDATA sections and processing instructions are skipped, a DTD is
// refused (readXml refuses its entities anyway), and what lies between the elements is not read.
// An element that contains another of its own name ends at the first end tag of that name: readXml
// then refuses its text as unclosed.
import { localName } from './local-name.ts';

/** An element's text is text.slice(start, end); its content is text.slice(contentStart, contentEnd). */
export type ElementSpan = { start: number; contentStart: number; contentEnd: number; end: number };
type Fail = (msg: string) => never;

/** Space, tab, CR, LF, '/' and '>': what ends a tag's name. */
const NAME_ENDS = new Set([0x20, 0x09, 0x0d, 0x0a, 0x2f, 0x3e]);

/** The position after a comment, CDATA section or processing instruction at `at`; -1 if none starts there. */
function afterMarkup(text: string, at: number, fail: Fail): number {
  for (const [open, close] of [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']] as const) {
    if (!text.startsWith(open, at)) continue;
    const end = text.indexOf(close, at + open.length);
    if (end === -1) fail(`invalid XML: unterminated ${open}`);
    return end + close.length;
  }
  if (text.startsWith('<!', at)) fail('invalid XML: DTDs and declarations are not read');
  return -1;
}

/** The start tag at `at`: its name, where it ends, and whether it closes itself. */
function startTag(text: string, at: number, to: number, fail: Fail): { name: string; end: number; selfClosing: boolean } {
  let pos = at + 1;
  while (pos < to && !NAME_ENDS.has(text.charCodeAt(pos))) pos++;
  const name = text.slice(at + 1, pos);
  // Quoted attribute values may hold '>' (never '<').
  for (let quote = ''; pos < to; pos++) {
    const c = text[pos];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '<') break;
    else if (c === '>') return { name, end: pos + 1, selfClosing: text[pos - 1] === '/' };
  }
  return fail(`invalid XML: the start tag <${name}> is not closed`);
}

/** Where `</name>` is, from `at` on, and the position after it. */
function endTag(text: string, at: number, to: number, name: string, fail: Fail): { start: number; end: number } {
  const closing = `</${name}`;
  // The first `</name` is the end tag unless markup that may hide one (a comment, CDATA) comes first.
  const first = text.indexOf(closing, at);
  const before = first === -1 ? '' : text.slice(at, first);
  const scanFrom = first === -1 || first >= to || before.includes('<!') || before.includes('<?') ? at : first;
  for (let pos = text.indexOf('<', scanFrom); pos !== -1 && pos < to; pos = text.indexOf('<', pos)) {
    const after = afterMarkup(text, pos, fail);
    if (after !== -1) {
      pos = after;
      continue;
    }
    if (text.startsWith(closing, pos)) {
      let end = pos + 2 + name.length;
      while (' \t\r\n'.includes(text[end] ?? '') && end < to) end++;
      if (text[end] === '>') return { start: pos, end: end + 1 };
    }
    pos++;
  }
  return fail(`invalid XML: <${name}> is not closed`);
}

/** The elements whose local name is `name` in text.slice(from, to), in order, none inside another. */
export function* elementSpans(text: string, name: string, fail: Fail, from = 0, to = text.length): Generator<ElementSpan> {
  for (let pos = text.indexOf('<', from); pos !== -1 && pos < to; pos = text.indexOf('<', pos)) {
    const after = afterMarkup(text, pos, fail);
    if (after !== -1) {
      pos = after;
      continue;
    }
    if (text[pos + 1] === '/') {
      pos += 2;
      continue;
    }
    const tag = startTag(text, pos, to, fail);
    if (localName(tag.name) !== name) {
      pos = tag.end;
      continue;
    }
    const close = tag.selfClosing ? { start: tag.end, end: tag.end } : endTag(text, tag.end, to, tag.name, fail);
    yield { start: pos, contentStart: tag.end, contentEnd: close.start, end: close.end };
    pos = close.end;
  }
}
