// What a machine translator may change in a value and what it must keep. Placeholders (`{name}`,
// `{{name}}`, `%s`, `%1$@`), HTML tags and ICU's `#` become `<x id="n"/>` tags, which DeepL (XML tag
// handling), LibreTranslate (HTML format) and instructed chat models keep in place. An ICU plural or
// select is not sent as syntax: each branch is translated as its own text and the structure is put
// back around the translations, with the plural categories the TARGET language needs (a Russian
// plural gains few and many, taken from `other`, which a translator then refines).
import { parse, isPluralElement, isSelectElement, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { pluralCategories } from '../quality/check-translation.ts';
import { isI18next } from '../quality/icu.ts';

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
  return {
    segments: sent.map((p) => p.text),
    restore(translations, targetLanguage) {
      if (translations.length !== sent.length) return null;
      const translated = new Map<Piece, string>();
      sent.forEach((p, i) => translated.set(p, translations[i]!));
      return rebuild(root, translated, targetLanguage);
    },
  };
}

// Placeholders outside ICU plurals/selects: simple ICU arguments (with their format), i18next's
// double braces, printf conversions, HTML tags (open, close, self-closing), react-i18next's
// numbered components (`<0>`, `</0>`, `<1/>`) and, in a plural, `#`. printf as in
// quality/placeholders.ts: the width starts with 1-9 (linear on runs of zeros), and there is no space
// flag, so the word after a plain percent sign ("50% off") is translated, not cut off as `% o`.
const PLACEHOLDER =
  /\{\{[^{}]*\}\}|\{[^{}]*\}|%(?:\([A-Za-z_]\w*\))?(?:\d+\$)?[-+0#']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[@sdifuFxXoeEgGcpaA]|<\/?[A-Za-z][\w.-]*(?:\s[^<>]*?)?\/?>|<\/?\d+\s*\/?>/g;
const POUND = /#/g;

function tokenize(text: string, inPlural: boolean, tokens: (string | Nested)[]): string {
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

function rebuild(piece: Piece, translated: Map<Piece, string>, language: string): string | null {
  const text = translated.get(piece) ?? piece.text;
  const seen = new Array<number>(piece.tokens.length).fill(0);
  let failed = false;
  const out = text.replace(TOKEN, (_m, id: string) => {
    const n = Number(id);
    const original = piece.tokens[n];
    if (original === undefined) {
      failed = true;
      return '';
    }
    seen[n]!++;
    if (typeof original === 'string') return original;
    const nested = rebuildNested(original, translated, language);
    if (nested === null) failed = true;
    return nested ?? '';
  });
  if (failed || seen.some((count) => count !== 1)) return null;
  return out;
}

function rebuildNested(nested: Nested, translated: Map<Piece, string>, language: string): string | null {
  const byKey = new Map(nested.options.map((o) => [o.key, o.piece]));
  let keys = nested.options.map((o) => o.key);
  if (nested.kind !== 'select') {
    // The target language's categories, each from its own branch when the source had it, else
    // from `other`; exact matches (=0) stay as they were.
    const needed = pluralCategories(language, nested.kind === 'selectordinal');
    keys = [...keys.filter((k) => k.startsWith('=')), ...needed];
  }
  const parts: string[] = [];
  for (const key of keys) {
    const piece = byKey.get(key) ?? byKey.get('other');
    if (!piece) return null;
    const body = rebuild(piece, translated, language);
    if (body === null) return null;
    parts.push(`${key} {${body}}`);
  }
  const offset = nested.offset ? `offset:${nested.offset} ` : '';
  return `{${nested.argument}, ${nested.kind}, ${offset}${parts.join(' ')}}`;
}
