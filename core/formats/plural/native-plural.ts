// Converting between a stored ICU plural and a format's own plural construct (Android <plurals>,
// i18next _one/_other keys, PO msgstr[n], stringsdict rules, Rails one/other hashes). Each form is
// native text in the format's placeholder dialect: the count is `%d`, `{{count}}` or `%{count}`
// there and `#` in ICU; other named arguments are `{{name}}`, `%{name}` or `{name}`; literal text is
// unquoted there and quoted where ICU needs it here.
//
// Import (native to ICU) is exact: the canonical ICU source is built from the native text, and
// converts back to the same text. Export (ICU to native) is checked: the native forms are converted
// back and must say the same as the stored value, option by option; if they would not (a literal
// `%d` in an ICU form, a nested select, a number format), the caller writes the value as an
// ordinary string holding the ICU text instead, which loses nothing.
import { isArgumentElement, isLiteralElement, isPoundElement, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { buildIcuPlural, readIcuPlural, samePluralOptions } from './icu-plural.ts';
import { escapeIcuLiteral } from './icu-escape.ts';

export type Token = { text: string } | { count: true } | { arg: string };

export type PluralDialect = {
  /** Splits native text into literal text, the count and other arguments. */
  tokenize(text: string, pluralArg: string): Token[];
  /** How the count is written. */
  count: string;
  /** How another argument is written, or null if the dialect has no way to. */
  arg(name: string): string | null;
  /** How literal text is written (printf doubles a `%`); as is when absent. */
  literal?(text: string): string;
};

/** A plural in a format's terms: ICU selectors (`one`, `=0`) to native text. */
export type NativePlural = { arg: string; ordinal: boolean; forms: Map<string, string> };

/** Names ICU accepts as arguments that every dialect can also spell. */
export const ARG_NAME = String.raw`[\p{L}\p{N}_]+`;

/**
 * A dialect whose placeholders match `pattern`; `read` turns a match into a token (text: the
 * literal text the match stands for, such as `%` for printf's `%%`).
 */
export function dialect(
  pattern: RegExp,
  read: (match: RegExpExecArray, pluralArg: string) => Token,
  count: string,
  arg: (name: string) => string | null,
  literal?: (text: string) => string,
): PluralDialect {
  return {
    count,
    arg,
    ...(literal ? { literal } : {}),
    tokenize(text, pluralArg) {
      const tokens: Token[] = [];
      let last = 0;
      const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        const token = read(m, pluralArg);
        if (m.index > last) tokens.push({ text: text.slice(last, m.index) });
        tokens.push(token);
        last = m.index + m[0].length;
      }
      if (last < text.length) tokens.push({ text: text.slice(last) });
      return tokens;
    },
  };
}

function formToNative(elements: readonly MessageFormatElement[], pluralArg: string, d: PluralDialect): string | null {
  let out = '';
  // Literal text is written a run at a time: whether printf's `%` must be doubled depends on what follows it.
  let literal = '';
  const flush = () => {
    out += d.literal ? d.literal(literal) : literal;
    literal = '';
  };
  for (const el of elements) {
    if (isLiteralElement(el)) {
      literal += el.value;
      continue;
    }
    flush();
    if (isPoundElement(el) || (isArgumentElement(el) && el.value === pluralArg)) out += d.count;
    else if (isArgumentElement(el)) {
      const written = d.arg(el.value);
      if (written === null) return null;
      out += written;
    } else return null;
  }
  flush();
  return out;
}

function formToIcu(text: string, pluralArg: string, d: PluralDialect): string {
  const tokens = d.tokenize(text, pluralArg);
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    if ('count' in token) out += '#';
    else if ('arg' in token) out += `{${token.arg}}`;
    else {
      // Text up to the next placeholder, which decides whether a trailing apostrophe needs doubling.
      let literal = token.text;
      while (i + 1 < tokens.length && 'text' in (tokens[i + 1] ?? {})) literal += (tokens[++i] as { text: string }).text;
      const next = tokens[i + 1];
      out += escapeIcuLiteral(literal, true, next === undefined ? '}' : 'count' in next ? '#' : '{');
    }
  }
  return out;
}

/** The canonical ICU value of a native plural. */
export function pluralToIcu(plural: NativePlural, d: PluralDialect): string {
  const forms = new Map<string, string>();
  for (const [selector, text] of plural.forms) forms.set(selector, formToIcu(text, plural.arg, d));
  return buildIcuPlural(plural.arg, plural.ordinal, forms);
}

/**
 * A stored value as native plural forms, or null when it is not a plural or the dialect cannot
 * say the same thing. `nativeArg` is the argument name the format will give back on import
 * (`count` for formats that carry no name); null keeps the value's own name.
 */
export function pluralToNative(value: string, d: PluralDialect, nativeArg: string | null): NativePlural | null {
  const plural = readIcuPlural(value);
  if (plural === null) return null;
  const arg = nativeArg ?? plural.arg;
  const forms = new Map<string, string>();
  for (const [selector, elements] of plural.options) {
    const text = formToNative(elements, plural.arg, d);
    if (text === null) return null;
    forms.set(selector, text);
  }
  const native: NativePlural = { arg, ordinal: plural.ordinal, forms };
  const back = readIcuPlural(pluralToIcu(native, d));
  return back !== null && samePluralOptions(back, plural) ? native : null;
}
