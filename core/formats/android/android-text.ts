// Android's string resource syntax on top of XML, as aapt2 compiles it (ResourceParser::
// FlattenXmlSubtree and ResourceUtils' StringBuilder). Reading, after XML has decoded entities and
// CDATA: backslash escapes \' \" \\ \n \t \@ \? \uXXXX; an unescaped `"` starts or ends a quoted
// stretch where whitespace is kept; elsewhere each run of whitespace is one space. A styling span
// tag (<b>, <i>, <a href>, <br/>: any tag without a namespace prefix) ends a quoted stretch and a
// run of whitespace, as aapt2's StartSpan and EndSpan reset its text state; <xliff:g> does not.
// Whitespace at either end is dropped only from a string without spans (aapt2 trims its first and
// last text then). Tags pass through unchanged. Writing escapes \ ' " newline and tab, a leading @
// or ?, and control characters (as \uXXXX, which also lets Android carry characters XML cannot),
// and wraps each stretch between span tags in quotes when its spaces would otherwise collapse.
import type { Piece } from '../xml/inline-markup.ts';
import { splitInline } from '../xml/inline-markup.ts';
import { escapeXmlText } from '../xml/escape-xml.ts';

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t' };

/** A styling span to aapt2: an element in no namespace (xliff:g and other prefixed tags are not). */
const isSpanTag = (tag: string) => !/^<\/?[^\s/>]*:/.test(tag);

export type DecodedAndroid = { value: string; reference: boolean };

/** The text a string resource holds; `reference` when it is an unescaped @ or ? resource reference. */
export function decodeAndroid(pieces: readonly Piece[]): DecodedAndroid {
  // Adjacent text (split by a comment) is one stretch of text to aapt2.
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if ('text' in piece && piece.text === '') continue;
    if ('text' in piece && last !== undefined && 'text' in last) merged[merged.length - 1] = { text: last.text + piece.text };
    else merged.push(piece);
  }
  // A string with a span is a StyledString to aapt2, never a reference; without spans, its raw text
  // (xliff:g's inside included) is tried as one after trimming (ResourceParser::ParseXml).
  const spans = merged.some((p) => 'tag' in p && isSpanTag(p.tag));
  if (!spans) {
    const texts = merged.filter((p): p is { text: string } => 'text' in p);
    const [first] = texts;
    if (first !== undefined) first.text = first.text.replace(/^[ \t\n\r\f\v]+/, '');
    const last = texts[texts.length - 1];
    if (last !== undefined) last.text = last.text.replace(/[ \t\n\r\f\v]+$/, '');
  }
  let out = '';
  let quoted = false;
  let lastSpace = false;
  let reference = false;
  let first = true;
  for (const piece of merged) {
    if ('tag' in piece) {
      if (isSpanTag(piece.tag)) {
        quoted = false;
        lastSpace = false;
      }
      out += piece.tag;
      continue;
    }
    const text = piece.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] ?? '';
      if (!quoted && WHITESPACE.has(c)) {
        if (!lastSpace) out += ' ';
        lastSpace = true;
        continue;
      }
      lastSpace = false;
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) break;
        i++;
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
          out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
          i += 4;
        } else out += ESCAPES[e] ?? e;
      } else if (c === '"') {
        quoted = !quoted;
      } else {
        if (first && !spans && (c === '@' || c === '?')) reference = true;
        out += c;
      }
      first = false;
    }
  }
  return { value: out, reference };
}

/** `atStart`: the text begins the string's raw text, where aapt2 reads an unescaped @ or ? as a reference. */
function escapeText(text: string, atStart: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const code = c.charCodeAt(0);
    if (c === '\\' || c === '"' || c === "'") out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if ((c === '@' || c === '?') && atStart && i === 0) out += `\\${c}`;
    else if (code < 0x20 || code === 0x7f || code === 0xfffe || code === 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return escapeXmlText(out);
}

/** A value as the XML content of a <string> or <item>. */
export function encodeAndroid(value: string): string {
  const pieces = splitInline(value);
  const spans = pieces.some((p) => 'tag' in p && isSpanTag(p.tag));
  let out = '';
  let stretch: Piece[] = [];
  // The first text, even inside an <xliff:g>, begins the raw text aapt2 tries as a reference.
  const firstText = pieces.find((p) => 'text' in p && p.text !== '');
  // Quotes end at a span tag, so each stretch between span tags is quoted on its own where spaces
  // would collapse: two in a row, or one at either end of a string without spans (which aapt2 trims).
  const flush = () => {
    const text = stretch.map((p) => ('text' in p ? p.text : '')).join('');
    const body = stretch.map((p) => ('tag' in p ? p.tag : escapeText(p.text, p === firstText))).join('');
    out += / {2}/.test(text) || (!spans && /^ | $/.test(text)) ? `"${body}"` : body;
    stretch = [];
  };
  for (const piece of pieces) {
    if ('tag' in piece && isSpanTag(piece.tag)) {
      flush();
      out += piece.tag;
    } else stretch.push(piece);
  }
  flush();
  return out;
}
