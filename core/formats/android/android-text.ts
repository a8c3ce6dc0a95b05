// Android's string resource syntax on top of XML (as aapt2 compiles it). Reading, after XML has
// decoded entities and CDATA: backslash escapes \' \" \\ \n \t \@ \? \uXXXX; an unescaped `"`
// starts or ends a quoted stretch where whitespace is kept; elsewhere runs of whitespace collapse
// to one space and whitespace at either end is dropped. Tags (<b>, <xliff:g>) pass through
// unchanged. Writing escapes \ ' " newline and tab, a leading @ or ?, and control characters (as
// \uXXXX, which also lets Android carry characters XML cannot), and wraps the text in quotes when
// its spaces would otherwise collapse.
import type { Piece } from '../xml/inline-markup.ts';
import { splitInline } from '../xml/inline-markup.ts';
import { escapeXmlText } from '../xml/escape-xml.ts';

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t' };

export type DecodedAndroid = { value: string; reference: boolean };

/** The text a string resource holds; `reference` when it is an unescaped @ or ? resource reference. */
export function decodeAndroid(pieces: readonly Piece[]): DecodedAndroid {
  let out = '';
  let pendingSpace = false;
  let quoted = false;
  let reference = false;
  let first = true;
  const emit = (s: string) => {
    if (pendingSpace && out !== '') out += ' ';
    pendingSpace = false;
    out += s;
    first = false;
  };
  for (const piece of pieces) {
    if ('tag' in piece) {
      emit(piece.tag);
      continue;
    }
    const text = piece.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] ?? '';
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) break;
        i++;
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
          emit(String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16)));
          i += 4;
        } else emit(ESCAPES[e] ?? e);
      } else if (c === '"') {
        quoted = !quoted;
        first = false;
      } else if (!quoted && WHITESPACE.has(c)) {
        pendingSpace = true;
      } else {
        if (first && (c === '@' || c === '?')) reference = true;
        emit(c);
      }
    }
  }
  return { value: out, reference };
}

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
  const text = pieces.map((p) => ('text' in p ? p.text : '')).join('');
  // Spaces survive only inside quotes: at either end, or two in a row (also across a tag).
  const needsQuotes = /^ | $| {2}/.test(text);
  const body = pieces.map((p, i) => ('tag' in p ? p.tag : escapeText(p.text, i === 0))).join('');
  return needsQuotes ? `"${body}"` : body;
}
