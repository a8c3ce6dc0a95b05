// tms stores a plural as one ICU value (`{count, plural, one {# Notiz} other {# Notizen}}`: that is
// what importing i18next's `notes_one` / `notes_other` makes of them, docs/formats.md). i18next wants
// its own suffixed keys back, so the backend expands such values as the server's i18next export does:
// `#` and the plural's own argument as `{{count}}`, `{name}` as `{{name}}`, `=0` as `_zero` in
// languages without a CLDR zero category. Anything richer (nested arguments, other exact values, an
// offset) is left as its ICU text, which loses nothing. An app formatting with i18next-icu sets the
// backend's `icu` option and gets every value as stored: i18next-icu's lookups skip the suffixes.
//
// A value need not name every category of its language (an English value served for Polish by a
// fallback chain has only one and other), but i18next looks up the language's own (`_few`, `_many`
// for Polish) and shows the key when one is missing. In ICU a missing category says `other`, so the
// missing suffixes get the `other` text.

const HEAD = /^\{\s*([\p{L}\p{N}_]+)\s*,\s*(plural|selectordinal)\s*,/u;
const ARG = /^\{\s*([\p{L}\p{N}_]+)\s*\}/u;
const QUOTABLE = "{}#|<>'";

/** Selector to i18next text, or null when the value is not a plural i18next can say. */
function parse(value: string): { arg: string; ordinal: boolean; forms: [string, string][] } | null {
  const head = HEAD.exec(value);
  if (!head) return null;
  const arg = head[1]!;
  const forms: [string, string][] = [];
  let i = head[0].length;
  for (;;) {
    while (value[i] === ' ' || value[i] === '\n' || value[i] === '\t') i++;
    if (value[i] === '}') return i === value.length - 1 && forms.length ? { arg, ordinal: head[2] === 'selectordinal', forms } : null;
    const selector = /^[^\s{}]+/.exec(value.slice(i))?.[0];
    if (!selector) return null;
    i += selector.length;
    while (value[i] === ' ') i++;
    if (value[i++] !== '{') return null;
    let text = '';
    for (;;) {
      const c = value[i];
      if (c === undefined) return null;
      if (c === '}') break;
      if (c === "'") {
        if (value[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (QUOTABLE.includes(value[i + 1] ?? '')) {
          // A quotation: literal up to the next lone apostrophe ('' inside is one apostrophe).
          const end = value.indexOf("'", i + 1);
          if (end < 0) return null;
          text += value.slice(i + 1, end);
          i = end + 1;
          while (value[i] === "'") {
            const next = value.indexOf("'", i + 1);
            if (next < 0) return null;
            text += `'${value.slice(i + 1, next)}`;
            i = next + 1;
          }
        } else {
          text += c;
          i++;
        }
      } else if (c === '#') {
        text += '{{count}}';
        i++;
      } else if (c === '{') {
        const m = ARG.exec(value.slice(i));
        if (!m) return null;
        text += m[1] === arg ? '{{count}}' : `{{${m[1]}}}`;
        i += m[0].length;
      } else {
        text += c;
        i++;
      }
    }
    i++;
    forms.push([selector, text]);
  }
}

/** `key_one`, `key_other`... for a plural value, or null to keep the value as it is. */
function expand(key: string, value: string, language: string, separator: string): [string, string][] | null {
  const plural = parse(value);
  if (!plural) return null;
  let categories: string[] = [];
  try {
    categories = new Intl.PluralRules(language, { type: plural.ordinal ? 'ordinal' : 'cardinal' }).resolvedOptions().pluralCategories;
  } catch {
    // A code Intl does not know: no categories to fill in, and no zero category.
  }
  const exactZero = !plural.ordinal && !categories.includes('zero');
  const names = new Map<string, string>();
  for (const [selector, text] of plural.forms) {
    const name = selector === '=0' ? (exactZero ? 'zero' : null) : selector === 'zero' && exactZero ? null : selector;
    if (!name || !/^(zero|one|two|few|many|other)$/.test(name)) return null;
    names.set(name, text);
  }
  const other = names.get('other');
  if (other !== undefined) for (const name of categories) if (!names.has(name)) names.set(name, other);
  return [...names].map(([name, text]) => [`${key}${separator}${plural.ordinal ? `ordinal${separator}` : ''}${name}`, text]);
}

/**
 * A tms file as an i18next resource: plurals expanded where every suffixed key is free.
 * `separator`: i18next's pluralSeparator (`key_one`, `key_ordinal_two` with the default `_`).
 */
export function toI18next(values: Record<string, string>, language: string, prefix = '', icu = false, separator = '_'): Record<string, string> {
  // No prototype: a key named `__proto__` would set {}'s prototype instead of being a key.
  const resource: Record<string, string> = Object.create(null);
  for (const [fullKey, value] of Object.entries(values)) {
    const key = prefix && fullKey.startsWith(prefix) ? fullKey.slice(prefix.length) : fullKey;
    // With i18next-icu the stored ICU text is what the formatter reads.
    const forms = icu ? null : expand(key, value, language, separator);
    if (forms && forms.every(([k]) => !(prefix + k in values) && !(k in values))) for (const [k, v] of forms) resource[k] = v;
    else resource[key] = value;
  }
  return resource;
}
