// fast-check generators for the codec property tests: hostile values, realistic keys, canonical ICU
// plurals, and the per-format limits (docs/formats.md, "What each format cannot carry") applied
// visibly in one table, FORMAT_LIMITS.
import fc from 'fast-check';
import { isLiteralElement, isPluralElement, parse as parseIcu } from '@formatjs/icu-messageformat-parser';
import { escapeIcuLiteral } from '../../../core/formats/plural/icu-escape.ts';
import { pluralCategories } from '../../../core/formats/plural/categories.ts';
import type { Entry, FormatId } from '../../../core/formats/types.ts';

/** Strings that break naive writers: quoting, escapes, placeholders of every dialect, markup, scripts. */
export const HOSTILE = [
  '"', "'", '\\', '\\n', '\n', '\r\n', '\r', '\t', '  ', ' ', '%@', '%1$s', '%d', '%lld', '%%', '%s', '{count}', '{name}', '{0}',
  '{{name}}', '{{count}}', '%{count}', '%{name}', '{count, plural, one {# file} other {# files}}', '#', '|', '@', '?', '&', '&amp;', '&lt;',
  '<b>bold</b>', '<br/>', '<x id="INTERPOLATION"/>', '<', '>', '</', ']]>', '-->', '--', '*/', '/*', '//', 'it\'s', "l'homme", "''", "'{'",
  '👋🏽', '👨‍👩‍👧', '𝄞', 'مرحبا بالعالم', 'שלום', '\u200f', '\u200b', '\u2028', 'Grüße', '日本語', '\u0001', '\u0007', '\u001b', '\u007f', '\u0085',
  'msgid "x"', '=', ';', ',', ':', '- ', '---', '~', 'yes', 'no', 'null', '123', '0x1F', ':sym', '2024-01-01', '$t(key)', '\ufeff',
];

const nulFree = (s: string) => !s.includes('\u0000') && s.isWellFormed();

const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }).filter(nulFree) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 8 }) },
);

/** The longest prefix of at most 10,000 UTF-16 units that does not split a surrogate pair. */
function upTo10k(s: string): string {
  const cut = s.slice(0, 10_000);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A hostile value, sometimes 10,000 characters long. */
export const value = fc.oneof(
  { weight: 20, arbitrary: fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.array(fragment, { minLength: 1, maxLength: 4 }).map((parts) => upTo10k(parts.join('').repeat(10_000))) },
);

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'über', 'naïve', '中文', 'ключ', 'a b', 'x[0]', "it's") },
);

/** What the service accepts as a key (core/validation.ts KeyName): 1 to 500 characters, no control characters, not `.` or `..`. */
export const isValidKey = (k: string) => k.length >= 1 && [...k].length <= 500 && k !== '.' && k !== '..' && !/[\u0000-\u001f\u007f]/.test(k) && k.isWellFormed();

/**
 * Keys from realistic alphabets (dot-separated segments of letters, digits, underscores, some
 * Unicode), and now and then any key the service accepts: hostile text, empty segments, a `<<`
 * (a YAML merge key), `|` (a PO context), a plural suffix.
 */
export const key = fc.oneof(
  { weight: 8, arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.')) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fragment, fc.constantFrom('.', '..', '<<', '|', '_one', '[0]', '@', '-', ' ')), { minLength: 1, maxLength: 5 })
      .map((p) => p.join(''))
      .filter(isValidKey),
  },
  { weight: 1, arbitrary: fc.constantFrom('<<', 'a.<<', '|', 'ctx|id', 'x|y|z', '..a', 'a..', ' a ', '[0]', 'a.b_one') },
);

/** The deepest keys the service accepts (500 characters, 501 levels when nested): a test of their own, as they are slow to write nested. */
export const DEEPEST_KEYS = ['.'.repeat(499) + 'z', 'a.'.repeat(249) + 'z'];

export const description = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.array(fragment, { minLength: 1, maxLength: 5 }).map((p) => p.join('')) },
);

export const groupName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,20}[A-Za-z0-9]$/);

/** Literal text for a plural form, any characters at all. */
const formText = fc.array(fragment, { maxLength: 4 }).map((p) => p.join(''));

/**
 * A plural in the canonical ICU spelling the formats produce (plural/icu-plural.ts): forms are
 * hostile literal text quoted only where ICU needs it, with `#` and `{name}` placeholders.
 */
export function icuPlural(language: string, options: { exactZero?: boolean; everyCategory?: boolean } = {}): fc.Arbitrary<string> {
  const categories = pluralCategories(language);
  const piece = fc.oneof(
    { weight: 3, arbitrary: formText.map((t) => ({ text: t })) },
    { weight: 2, arbitrary: fc.constant({ pound: true as const }) },
    { weight: 1, arbitrary: fc.constantFrom('name', 'user', 'n2').map((arg) => ({ arg })) },
  );
  const form = fc.array(piece, { maxLength: 4 }).map((raw) => {
    // Adjacent text is one literal: quoting depends on what follows it.
    const pieces: typeof raw = [];
    for (const p of raw) {
      const last = pieces.at(-1);
      if (last && 'text' in last && 'text' in p) pieces[pieces.length - 1] = { text: last.text + p.text };
      else pieces.push(p);
    }
    let out = '';
    pieces.forEach((p, i) => {
      if ('pound' in p) out += '#';
      else if ('arg' in p) out += `{${p.arg}}`;
      else {
        const next = pieces[i + 1];
        out += escapeIcuLiteral(p.text, true, next === undefined ? '}' : 'pound' in next ? '#' : '{');
      }
    });
    return out;
  });
  const optional = [...(options.exactZero ? ['=0'] : []), ...(options.everyCategory ? [] : categories.filter((c) => c !== 'other'))];
  const always = options.everyCategory ? categories.filter((c) => c !== 'other') : [];
  const selectors = fc.subarray(optional).map((chosen) => [...chosen, ...always, 'other']);
  return selectors.chain((chosen) =>
    fc.tuple(...chosen.map(() => form)).map((forms) => `{count, plural, ${chosen.map((s, i) => `${s} {${forms[i]}}`).join(' ')}}`),
  );
}

type Limits = {
  /** Keys the format can hold. */
  key?: (k: string) => boolean;
  /** Values the format can hold (in a language). */
  value?: (v: string, language: string) => boolean;
  /**
   * i18next, Rails and gettext need a form for every category of the language: export gives those a
   * plural leaves to `other` its text, and import keeps the forms it reads (an import compares values
   * by what they say: core/formats/plural/every-category.ts). So a plural lacking a category comes
   * back with it, repeating `other`: their plurals are generated with every category.
   */
  pluralsHaveEveryCategory?: boolean;
  /** Descriptions the format writes back unchanged (others are normalized, see docs). */
  description?: (d: string) => boolean;
  /** Whether the format carries descriptions / groups at all. */
  carriesDescription: boolean;
  carriesGroup?: boolean;
};

// XML 1.0 cannot hold these at all (xml/escape-xml.ts); Android escapes them as \uXXXX instead.
const xmlChars = (s: string) => !/[\u0001-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(s);
// XML parsers normalize a CR in a comment to LF, and a comment cannot escape it.
const xmlComment = (d: string) => xmlChars(d) && d.trim() === d && d !== '' && !d.includes('--') && !d.endsWith('-') && !d.includes('\r');
// gettext reads a plural whose msgstr[n] are all empty as untranslated, like an empty msgstr.
const EMPTY_PLURAL = /^\{count, plural,( (=0|zero|one|two|few|many|other) \{\})+\}$/;
const PLURAL_SUFFIX = /_(ordinal_)?(zero|one|two|few|many|other)$/;

/**
 * Whether every plural in a value has a form for each category of the language. A hostile string
 * can be a whole plural (`{count, plural, one {# file} other {# files}}`), which lacks `many` in
 * French: the formats that write every category give it back with `many`, saying the same.
 */
function pluralsComplete(v: string, language: string): boolean {
  let ast;
  try {
    ast = parseIcu(v, { ignoreTag: true, requiresOtherClause: true });
  } catch {
    return true;
  }
  const categories = pluralCategories(language);
  return ast.every((el) => !isPluralElement(el) || categories.every((c) => c in el.options));
}

/**
 * A .stringsdict writes text and plurals as a format string and variables, which read back in the
 * canonical ICU spelling: text beside a plural spelled otherwise (`It''s {n, plural, ...}`, a bare
 * `}`) comes back as `It's` / `'}'`, saying the same. Other values are kept as written.
 */
function canonicalBesidePlurals(v: string): boolean {
  let ast;
  try {
    ast = parseIcu(v, { ignoreTag: true, requiresOtherClause: true, captureLocation: true });
  } catch {
    return true;
  }
  if (!ast.some(isPluralElement) || !ast.every((el) => isLiteralElement(el) || isPluralElement(el))) return true;
  let rebuilt = '';
  let literal = '';
  for (const el of ast) {
    if (isLiteralElement(el)) literal += el.value;
    else {
      rebuilt += escapeIcuLiteral(literal, false, '{') + v.slice(el.location?.start.offset, el.location?.end.offset);
      literal = '';
    }
  }
  return rebuilt + escapeIcuLiteral(literal, false) === v;
}

/** What each format cannot carry, as documented in docs/formats.md. */
export const FORMAT_LIMITS: Record<FormatId, Limits> = {
  json: { carriesDescription: false },
  'json-nested': { carriesDescription: false },
  // Keys ending in a plural suffix are i18next plurals by definition: a set of them with `_other`
  // and no key of the base name is refused by export (test/formats/i18next-suffixed-keys.test.ts).
  i18next: { carriesDescription: false, key: (k) => !PLURAL_SUFFIX.test(k), pluralsHaveEveryCategory: true },
  // An empty value is written as an empty <target> marked translated (an unmarked one is untranslated).
  xliff: { carriesDescription: true, key: xmlChars, value: xmlChars, description: (d) => xmlChars(d) && d !== '' },
  xliff2: { carriesDescription: true, key: xmlChars, value: xmlChars, description: (d) => xmlChars(d) && d !== '' },
  // An empty msgstr (or a plural of empty forms) means untranslated in gettext; a comment line cannot hold a CR.
  po: {
    carriesDescription: true,
    key: (k) => k !== '',
    value: (v) => v !== '' && !EMPTY_PLURAL.test(v),
    pluralsHaveEveryCategory: true,
    description: (d) => d !== '' && !d.includes('\r'),
  },
  // Resource names (string-array items name[i] come from androidArray below); a.b and a_b are one name to Android.
  android: { carriesDescription: true, key: (k) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(k), description: xmlComment },
  'ios-strings': { carriesDescription: true, description: (d) => d.trim() === d && d !== '' && !d.includes('*/') },
  // Text beside a plural comes back in ICU's canonical spelling (canonicalBesidePlurals).
  'ios-stringsdict': { carriesDescription: true, key: xmlChars, value: (v) => xmlChars(v) && canonicalBesidePlurals(v), description: xmlComment },
  arb: { carriesDescription: true, key: (k) => !k.startsWith('@') },
  yaml: { carriesDescription: false, pluralsHaveEveryCategory: true },
  csv: { carriesDescription: true, carriesGroup: true, description: (d) => d !== '' },
  // A comment line ends at a CR; blank lines framing a description are dropped, and a description of
  // only whitespace, # and ! is written as none.
  properties: { carriesDescription: true, description: (d) => !d.includes('\r') && /[^\s#!]/.test(d) && !/^[ \t\f]*(\n|$)|\n[ \t\f]*$/.test(d) },
  resx: { carriesDescription: true, key: xmlChars, value: xmlChars, description: (d) => xmlChars(d) && d !== '' },
  // Characters XML cannot hold are written as SpreadsheetML's _xHHHH_ escapes: only an empty description is none, as in csv.
  xlsx: { carriesDescription: true, carriesGroup: true, description: (d) => d !== '' },
  // Text beside a plural comes back in ICU's canonical spelling, as from .stringsdict; an empty comment is none.
  xcstrings: { carriesDescription: true, value: (v) => canonicalBesidePlurals(v), description: (d) => d !== '' },
};

/** An Android <string-array>: its items are the keys name[0], name[1], ... without gaps. */
const androidArray = fc
  .tuple(fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/), fc.array(fc.record({ value, description }), { minLength: 1, maxLength: 4 }))
  .map(([name, items]) =>
    items.map((item, i): Entry => {
      const entry: Entry = { key: `${name}[${i}]`, value: item.value };
      if (item.description !== undefined && (FORMAT_LIMITS.android.description?.(item.description) ?? true)) entry.description = item.description;
      return entry;
    }),
  );

/** Android resource names; built once (fc.stringMatching takes ~30 ms to build). */
const androidKey = fc.stringMatching(/^[a-z_][a-z0-9_]{0,15}(\.[a-z0-9_]{1,8})?$/);

const built = new Map<string, fc.Arbitrary<Entry[]>>();

/** Entries a format can carry, unique by key (and by Android resource field). Built once per format, language and size, since properties ask for them in every run. */
export function entriesFor(format: FormatId, language = 'en', maxLength = 12): fc.Arbitrary<Entry[]> {
  const id = `${format} ${language} ${maxLength}`;
  let arbitrary = built.get(id);
  if (arbitrary === undefined) built.set(id, (arbitrary = buildEntriesFor(format, language, maxLength)));
  return arbitrary;
}

function buildEntriesFor(format: FormatId, language: string, maxLength: number): fc.Arbitrary<Entry[]> {
  if (format === 'android') {
    // Strings and plurals, plus now and then a string-array (a resource type of its own, so its
    // name may equal a string's).
    return fc
      .tuple(entriesOf(format, language, maxLength), fc.option(androidArray, { freq: 3, nil: undefined }))
      .map(([entries, array]) => [...entries, ...(array ?? [])]);
  }
  return entriesOf(format, language, maxLength);
}

function entriesOf(format: FormatId, language: string, maxLength: number): fc.Arbitrary<Entry[]> {
  const limits = FORMAT_LIMITS[format];
  const keyArb = format === 'android' ? androidKey : key;
  const valueArb = fc.oneof({ weight: 5, arbitrary: value }, { weight: 2, arbitrary: icuPlural(language, { exactZero: true, everyCategory: limits.pluralsHaveEveryCategory }) });
  const entry = fc.record({
    key: keyArb.filter((k) => limits.key?.(k) ?? true),
    value: valueArb.filter((v) => (limits.value?.(v, language) ?? true) && (!limits.pluralsHaveEveryCategory || pluralsComplete(v, language))),
    description: description.filter((d) => d === undefined || !limits.carriesDescription || (limits.description?.(d) ?? true)),
    group: limits.carriesGroup ? fc.option(groupName, { nil: undefined }) : fc.constant(undefined),
  });
  return fc
    // One resource to the platform: a.b and a_b on Android, Title and title in .NET.
    .uniqueArray(entry, { maxLength, selector: (e) => (format === 'android' ? e.key.replaceAll('.', '_') : format === 'resx' ? e.key.toUpperCase() : e.key) })
    .map((list) =>
      list.map((e) => {
        const out: Entry = { key: e.key, value: e.value };
        if (limits.carriesDescription && e.description !== undefined) out.description = e.description;
        if (e.group !== undefined) out.group = e.group;
        return out;
      }),
    );
}

export const byKey = (entries: readonly Entry[]) => [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
