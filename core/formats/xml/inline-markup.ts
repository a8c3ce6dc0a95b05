// Translations in XML formats may hold inline markup: Android styling (`<b>`, `<xliff:g>`),
// XLIFF placeholders (`<x id="INTERPOLATION"/>`, `<ph/>`, `<pc>`). A value keeps such markup as
// the tags written in the file, with the text around and inside them unescaped:
// `<b>Tom &amp; Jerry</b>` is stored as `<b>Tom & Jerry</b>`.
//
// Writing reverses it: when every `<...>` in a value that looks like a tag forms well-formed,
// balanced markup, those tags are written as markup and the text around them escaped; otherwise
// the whole value is text and every `<` is escaped. A value read from a file therefore writes back
// the same, and any value survives a round trip. (Text that was escaped in the file but spells a
// balanced tag, `&lt;b&gt;x&lt;/b&gt;`, comes back as markup: it reads to the same value.)
import type { XmlElement } from './read-xml.ts';
import { escapeXmlText } from './escape-xml.ts';

export type Piece = { text: string } | { tag: string };

/** An element's content as text and verbatim tags; comments inside are dropped. */
export function readInline(element: XmlElement, out: Piece[] = []): Piece[] {
  for (const child of element.children) {
    if (child.kind === 'text') out.push({ text: child.text });
    else if (child.kind === 'element') {
      out.push({ tag: child.startTag });
      if (!child.selfClosing) {
        readInline(child, out);
        out.push({ tag: `</${child.name}>` });
      }
    }
  }
  return out;
}

export const joinPieces = (pieces: readonly Piece[]): string => pieces.map((p) => ('tag' in p ? p.tag : p.text)).join('');

const NAME = String.raw`[A-Za-z_:][-.0-9A-Za-z_:]*`;
const REF = String.raw`&(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});`;
const attr = (group: boolean) =>
  String.raw`\s+(${group ? '' : '?:'}${NAME})\s*=\s*(?:"(${group ? '' : '?:'}(?:[^"<&]|${REF})*)"|'(${group ? '' : '?:'}(?:[^'<&]|${REF})*)')`;
const TAG = new RegExp(String.raw`<(${NAME})((?:${attr(false)})*)\s*(/?)>|</(${NAME})>`, 'g');
const ONE_ATTR = new RegExp(attr(true), 'g');
const LOOKS_LIKE_TAG = /<\/?[A-Za-z_:]/g;

function validRefs(value: string): boolean {
  for (const match of value.matchAll(/&#(x?)([0-9a-fA-F]+);/g)) {
    const code = parseInt(match[2] ?? '', match[1] ? 16 : 10);
    if (code < 0x20 ? code !== 0x09 && code !== 0x0a && code !== 0x0d : (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff || code > 0x10ffff) {
      return false;
    }
  }
  return true;
}

function attributesOk(attrs: string): boolean {
  const seen = new Set<string>();
  for (const match of attrs.matchAll(ONE_ATTR)) {
    const name = match[1] ?? '';
    if (seen.has(name)) return false;
    seen.add(name);
    if (!validRefs(match[2] ?? match[3] ?? '')) return false;
  }
  return true;
}

/** A value as pieces to write: its tags as markup if they are well-formed and balanced, else all text. */
export function splitInline(value: string): Piece[] {
  if (!value.includes('<')) return [{ text: value }];
  const pieces: Piece[] = [];
  const open: string[] = [];
  let last = 0;
  let tags = 0;
  for (const match of value.matchAll(TAG)) {
    const [tag, name, attrs = '', selfClose, closing] = match;
    if (closing !== undefined) {
      if (open.pop() !== closing) return [{ text: value }];
    } else {
      if (!attributesOk(attrs)) return [{ text: value }];
      if (!selfClose) open.push(name ?? '');
    }
    const at = match.index;
    if (at > last) pieces.push({ text: value.slice(last, at) });
    pieces.push({ tag });
    last = at + tag.length;
    tags++;
  }
  if (open.length > 0) return [{ text: value }];
  // Something that starts like a tag but did not match as one: the value is not markup.
  if ((value.match(LOOKS_LIKE_TAG)?.length ?? 0) !== tags) return [{ text: value }];
  if (last < value.length) pieces.push({ text: value.slice(last) });
  return pieces;
}

/** A value as XML content for formats without escapes of their own (XLIFF): markup kept, text escaped. */
export const inlineXml = (value: string): string =>
  splitInline(value)
    .map((p) => ('tag' in p ? p.tag : escapeXmlText(p.text)))
    .join('');
