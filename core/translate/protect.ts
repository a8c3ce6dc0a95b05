// What a machine translator may change in a value and what it must keep. Placeholders (`{name}`,
// `{{name}}`, `%s`, `%1$@`), HTML tags and ICU's `#` become `<x id="n"/>` tags, which DeepL (XML tag
// handling), LibreTranslate (HTML format) and instructed chat models keep in place. An ICU plural or
// select is not sent as syntax: each branch is translated as its own text and the structure is put
// back around the translations, with the plural categories the TARGET language needs (a Russian
// plural gains few and many, taken from `other`, which a translator then refines).
import { parse, isPluralElement, isSelectElement, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { pluralCategories } from '../quality/check-translation.ts';
import { isI18next, parseIcu, usesIcu } from '../quality/icu.ts';

type Nested = {
  argument: string;
  kind: 'plural' | 'selectordinal' | 'select';
  offset: number;
  options: { key: string; piece: Piece }[];
};
type Piece = {
  /** Text to translate, placeholders replaced by <x id="n"/>. */
  text: string;
  /** Per id: the original placeholder, or a nested plural/select. */
  tokens: (string | Nested)[];
};

export type Protected = {
  /** The texts a provider must translate, in order. Texts without words are not among them. */
  segments: string[];
  /** Puts translations of `segments` back together; null when a translation lost or duplicated a placeholder. */
  restore(translations: readonly string[], targetLanguage: string): string | null;
};

export function protect(value: string): Protected {
  const root = protectPiece(value, false);
  const pieces: Piece[] = [];
  collect(root, pieces);
  const sent = pieces.filter((p) => hasWords(p.text));
  const icu = isIcuSource(value);
  return {
    segments: sent.map((p) => p.text),
    restore(translations, targetLanguage) {
      if (translations.length !== sent.length) return null;
      const translated = new Map<Piece, string>();
      sent.forEach((p, i) => translated.set(p, translations[i]!));
      return rebuild(root, translated, { language: targetLanguage, icu });
    },
  };
}

// ICU as the quality check judges a source (check-translation.ts, sourceIsIcu): braces the ICU
// way, a message that parses, and at least one argument, plural or select. Only then is an
// apostrophe ICU syntax in the value, and only then is one doubled on the way back.
function isIcuSource(value: string): boolean {
  if (!value.includes('{') || isI18next(value)) return false;
  const parsed = parseIcu(value);
  return parsed.ok && usesIcu(parsed.elements);
}

// Placeholders outside ICU plurals/selects: simple ICU arguments (with their format), i18next's
// double braces, printf conversions, HTML tags (open, close, self-closing), react-i18next's
// numbered components (`<0>`, `</0>`, `<1/>`) and, in a plural, `#`. A tag's name may have a prefix:
// Android's `<xliff:g id="user">` around a placeholder was translated as text. printf as in
// quality/placeholders.ts: the width starts with 1-9 (linear on runs of zeros), and there is no space
// flag, so the word after a plain percent sign ("50% off") is translated, not cut off as `% o`.
// i18next's nesting, `$t(key)` or `$t(key, {"count": {{count}}})`, names another key: kept whole
// (quality/placeholders.ts reads it as a placeholder too), not translated, and no use of a word.
const PLACEHOLDER =
  /\$t\([^()]*\)|\{\{[^{}]*\}\}|\{[^{}]*\}|%(?:\([A-Za-z_]\w*\))?(?:\d+\$)?[-+0#']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[@sdifuFxXoeEgGcpaA]|<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*?)?\/?>|<\/?\d+\s*\/?>/g;
const POUND = /#/g;

/**
 * Java MessageFormat's choice argument, `{0,choice,0#no files|1#one file|1<{0} files}` (a Java or
 * Spring .properties value): ICU has no such argument, so the parser above does not take it apart,
 * and only its inner `{0}` was masked; "choice" and the limits went to translation and
 * pseudo-localization, and Java's MessageFormat then refused the value (found by review). Its syntax
 * (the head with the first limit, each `|limit#`, the closing brace) is kept as a placeholder is, and
 * its texts are translated. A choice that does not read as one (no limit, no closing brace) is text.
 */
const CHOICE_HEAD = /\{\s*\d+\s*,\s*choice\s*,/g;
const CHOICE_LIMIT = /\s*-?(?:\d+(?:\.\d+)?|\u221E)\s*[#<\u2264]/y;

type Part = { text: string; syntax: boolean };

/** `text` as its choice arguments' syntax and the texts between, in order. */
function choiceParts(text: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const head of text.matchAll(CHOICE_HEAD)) {
    if (head.index < at) continue;
    const syntax = choiceSyntax(text, head.index, head[0].length);
    if (syntax === null) continue;
    parts.push({ text: text.slice(at, head.index), syntax: false });
    let from = head.index;
    for (const [start, end] of syntax) {
      if (start > from) parts.push({ text: text.slice(from, start), syntax: false });
      parts.push({ text: text.slice(start, end), syntax: true });
      from = end;
    }
    at = from;
  }
  parts.push({ text: text.slice(at), syntax: false });
  return parts.filter((p) => p.text !== '');
}

/** The syntax ranges of the choice starting at `start` (its head `length` long), or null when it is no choice. */
function choiceSyntax(text: string, start: number, length: number): [number, number][] | null {
  const limitAt = (i: number) => {
    CHOICE_LIMIT.lastIndex = i;
    return CHOICE_LIMIT.exec(text) ? CHOICE_LIMIT.lastIndex : -1;
  };
  const first = limitAt(start + length);
  if (first === -1) return null;
  const ranges: [number, number][] = [[start, first]];
  let depth = 1;
  for (let i = first; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return [...ranges, [i, i + 1]];
    else if (c === '|' && depth === 1) {
      const end = limitAt(i + 1);
      if (end === -1) return null;
      ranges.push([i, end]);
      i = end - 1;
    }
  }
  return null;
}

function tokenize(text: string, inPlural: boolean, tokens: (string | Nested)[]): string {
  if (!text.includes('choice')) return tokenizePlain(text, inPlural, tokens);
  return choiceParts(text)
    .map((p) => (p.syntax ? token(tokens, p.text) : tokenizePlain(p.text, inPlural, tokens)))
    .join('');
}

function tokenizePlain(text: string, inPlural: boolean, tokens: (string | Nested)[]): string {
  const masked = text.replace(/%%/g, '\u0000');
  const replaced = masked.replace(PLACEHOLDER, (m) => token(tokens, m));
  return (inPlural ? replaced.replace(POUND, (m) => token(tokens, m)) : replaced).replace(/\u0000/g, '%%');
}

function token(tokens: (string | Nested)[], original: string | Nested): string {
  tokens.push(original);
  return `<x id="${tokens.length - 1}"/>`;
}

function protectPiece(text: string, inPlural: boolean): Piece {
  const tokens: (string | Nested)[] = [];
  let elements: MessageFormatElement[] | null = null;
  // i18next's {{x}} is not ICU (ICU's `other {{name}}` is: quality/icu.ts); only a parseable ICU
  // message is taken apart.
  if (text.includes('{') && !isI18next(text)) {
    try {
      elements = parse(text, { ignoreTag: true, captureLocation: true, requiresOtherClause: true });
    } catch {
      elements = null;
    }
  }
  const structured = elements?.filter((el) => isPluralElement(el) || isSelectElement(el)) ?? [];
  if (structured.length === 0) return { text: tokenize(text, inPlural, tokens), tokens };

  let out = '';
  let at = 0;
  for (const el of structured) {
    const start = el.location!.start.offset;
    const end = el.location!.end.offset;
    out += tokenize(text.slice(at, start), inPlural, tokens);
    const isPlural = isPluralElement(el);
    const nested: Nested = {
      argument: el.value,
      kind: isPlural ? (el.pluralType === 'ordinal' ? 'selectordinal' : 'plural') : 'select',
      offset: isPlural ? el.offset : 0,
      options: Object.entries(el.options).map(([key, option]) => ({
        key,
        piece: protectPiece(text.slice(option.location!.start.offset + 1, option.location!.end.offset - 1), isPlural || inPlural),
      })),
    };
    out += token(tokens, nested);
    at = end;
  }
  out += tokenize(text.slice(at), inPlural, tokens);
  return { text: out, tokens };
}

function collect(piece: Piece, into: Piece[]): void {
  into.push(piece);
  for (const t of piece.tokens) if (typeof t !== 'string') for (const o of t.options) collect(o.piece, into);
}

// A text of only placeholders, spaces and punctuation is kept as it is, not sent.
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/<x id="\d+"\/>/g, ''));

const TOKEN = /<x\s+id\s*=\s*["'](\d+)["']\s*\/?>(?:<\/x>)?/g;

type Target = { language: string; icu: boolean };

function rebuild(piece: Piece, translated: Map<Piece, string>, target: Target): string | null {
  const text = translated.get(piece) ?? piece.text;
  const seen = new Array<number>(piece.tokens.length).fill(0);
  let failed = false;
  const out = text.replace(TOKEN, (_m, id: string, at: number) => {
    const n = Number(id);
    const original = piece.tokens[n];
    if (original === undefined) {
      failed = true;
      return '';
    }
    seen[n]!++;
    const escape = target.icu && elidedBefore(piece, text, at, n) ? "'" : '';
    if (typeof original === 'string') return escape + original;
    const nested = rebuildNested(original, translated, target);
    if (nested === null) failed = true;
    return escape + (nested ?? '');
  });
  if (failed || seen.some((count) => count !== 1)) return null;
  return out;
}

// A translator's elision before a placeholder ("Modifier l'<x id="0"/>", "dell'<x id="0"/>") puts an
// apostrophe right before the restored `{item}`, and in ICU an apostrophe before `{`, `}`, `#` (in a
// plural) or, for formatjs, `<` or `>` starts quoted text: the argument would be quoted away. An odd run
// of apostrophes there ends with such a quote; one more makes it a literal apostrophe (`l''{item}`).
// Not where the source itself quoted the same token: that quoting was meant.
const SYNTAX_START = /^[{}#<>]/;

function elidedBefore(piece: Piece, translation: string, at: number, id: number): boolean {
  const original = piece.tokens[id]!;
  if (typeof original === 'string' && !SYNTAX_START.test(original)) return false;
  return oddQuotesBefore(translation, at) && !oddQuotesBefore(piece.text, piece.text.indexOf(`<x id="${id}"/>`));
}

function oddQuotesBefore(text: string, at: number): boolean {
  let run = 0;
  while (at - run > 0 && text[at - run - 1] === "'") run++;
  return run % 2 === 1;
}

function rebuildNested(nested: Nested, translated: Map<Piece, string>, target: Target): string | null {
  const byKey = new Map(nested.options.map((o) => [o.key, o.piece]));
  let keys = nested.options.map((o) => o.key);
  if (nested.kind !== 'select') {
    // The target language's categories, each from its own branch when the source had it, else
    // from `other`; exact matches (=0) stay as they were.
    const needed = pluralCategories(target.language, nested.kind === 'selectordinal');
    keys = [...keys.filter((k) => k.startsWith('=')), ...needed];
  }
  const parts: string[] = [];
  for (const key of keys) {
    const piece = byKey.get(key) ?? byKey.get('other');
    if (!piece) return null;
    const body = rebuild(piece, translated, target);
    if (body === null) return null;
    parts.push(`${key} {${body}}`);
  }
  const offset = nested.offset ? `offset:${nested.offset} ` : '';
  return `{${nested.argument}, ${nested.kind}, ${offset}${parts.join(' ')}}`;
}
