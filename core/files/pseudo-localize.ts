// Pseudo-localization: a language's values made to look translated while staying readable, so that
// a team sees, before any translator has worked, which texts of its app are not translatable
// (hard-coded: they stay plain), which are cut or overflow (translations run longer: each text is
// lengthened as translations typically are), and which break on letters outside ASCII (each letter
// is an accented one). As Android's en-XA, Microsoft's qps-ploc and Phrase's and Crowdin's
// pseudo-languages do. Placeholders, HTML tags, ICU syntax (plural and select branches are each
// pseudo-localized, their structure kept), i18next nesting, entities, escapes and URLs are kept as
// they are, by the same masking machine translation uses (core/translate/protect.ts), so the value
// still formats in the app.
import { isPluralElement, isSelectElement, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { pluralCategories, pluralRules } from '../formats/plural/categories.ts';
import { buildIcuPlural, readIcuPlural } from '../formats/plural/icu-plural.ts';
import { textDirection } from '../languages/text-direction.ts';
import { protect } from '../translate/protect.ts';

/**
 * How a pseudo-language's texts are made: `accents` (en-XA, qps-Ploc: accented, lengthened,
 * bracketed), or `bidi` for a right-to-left pseudo-language (Android's ar-XB): each word of the
 * source's text forced right-to-left between Unicode's bidirectional controls, so that an app
 * running in it shows its layout mirrored and every translatable text written backwards, while a
 * hard-coded text reads the right way round.
 */
export type PseudoMethod = 'accents' | 'bidi';

/**
 * The language whose plural rules a pseudo-language's file follows: the pseudo-language's own when
 * the runtime knows them and they have every category of the language it is made from (an app
 * running in ar-XB picks Arabic's zero, two, few and many, and i18next and gettext need a form for
 * each: the codecs fill them with `other`'s text), else that language's (qps-Ploc, which no plural
 * table knows; en-XA made from Russian, whose few and many English has no use for).
 */
export function pseudoPlurals(pseudo: string, from: string): string {
  if (pluralRules(pseudo) === null) return from;
  const own = pluralCategories(pseudo);
  return pluralCategories(from).every((c) => own.includes(c)) ? pseudo : from;
}

/**
 * A pseudo-language's file: its values made from the language `from`'s, and the plural rules it
 * follows (pseudoPlurals). i18next's `_zero`, Rails' `zero:` and .stringsdict's `zero` are the
 * formats' `=0` in a language without a zero category, and the category itself in one that has it:
 * under Arabic's rules a plural with `=0` could not be written as the format's own plural and went
 * out as ICU text, which i18next showed as it is (found by review). Where the pseudo-language's
 * `zero` is 0 and nothing else (Arabic, Welsh), `=0` is written as `zero`, which says the same
 * there; where it is more (Latvian's 10, 11-19, 20...), the file keeps its source's rules.
 */
export function pseudoFile(values: readonly string[], from: string, pseudo: string): { values: string[]; plurals: string } {
  const method = pseudoMethod(pseudo);
  let pseudoValues = values.map((value) => pseudoLocalize(value, from, method));
  let plurals = pseudoPlurals(pseudo, from);
  if (plurals === pseudo && pluralCategories(pseudo).includes('zero') && !pluralCategories(from).includes('zero')) {
    const exactZero = (value: string) => readIcuPlural(value)?.options.has('=0') ?? false;
    if (zeroIsOnlyNought(pseudo)) pseudoValues = pseudoValues.map((value) => (exactZero(value) ? zeroAsCategory(value) : value));
    else if (pseudoValues.some(exactZero)) plurals = from;
  }
  return { values: pseudoValues, plurals };
}

/** Whether a language's `zero` category holds 0 and no other count (sampled as CLDR's rules are written: integers, decimals, large numbers). */
function zeroIsOnlyNought(language: string): boolean {
  const rules = pluralRules(language);
  if (rules === null || rules.select(0) !== 'zero') return false;
  const samples = [...Array.from({ length: 300 }, (_, n) => n + 1), 0.1, 0.5, 1.5, 10.5, 1000, 10_000, 100_000, 1_000_000];
  return samples.every((n) => rules.select(n) !== 'zero');
}

/** The value's one ICU element, with its options' places in it, when it is one and nothing else. */
function onlyArgument(value: string): MessageFormatElement | null {
  if (!value.startsWith('{') || !value.endsWith('}')) return null;
  try {
    const elements = parse(value, { ignoreTag: true, requiresOtherClause: true, captureLocation: true });
    return elements.length === 1 ? elements[0]! : null;
  } catch {
    return null;
  }
}

/** A value that is one cardinal plural with `=0` and no `zero`, with `=0` renamed `zero` (its forms kept as written). */
function zeroAsCategory(value: string): string {
  const only = onlyArgument(value);
  if (!only || !isPluralElement(only) || only.pluralType === 'ordinal' || only.offset !== 0) return value;
  if (!Object.hasOwn(only.options, '=0') || Object.hasOwn(only.options, 'zero')) return value;
  const forms = new Map(
    Object.entries(only.options).map(([selector, option]) => [selector === '=0' ? 'zero' : selector, value.slice(option.location!.start.offset + 1, option.location!.end.offset - 1)]),
  );
  return buildIcuPlural(only.value, false, forms);
}

/** The method a pseudo-language's code asks for: `bidi` for a code of a right-to-left script (ar-XB, he-XB, fa-XB). */
export const pseudoMethod = (code: string): PseudoMethod => (textDirection(code) === 'rtl' ? 'bidi' : 'accents');

// One code point for each ASCII letter, so that a text's length in characters only grows by the
// filler (a character limit then judges what a translation's length would be).
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].map((c, i) => [c, [...'ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽåƀçðéƒĝĥîĵķļṁñöþǫŕšţûṽŵẋýž'][i]!]),
);

// Kept as written inside a text: the masks of placeholders and tags; printf conversions the masks
// leave (Java's and Android's `%,d`, `%n`, `%b`, `%S`, `%3$tB`, Python's `%r`, Ruby's
// `%<amount>.2f` after its mask; an accented conversion makes Java's Formatter throw, found by
// review); i18next's `$t(key)` nesting; HTML entities; backslash escapes (`\n` written out); web and
// mail addresses. The width starts with 1-9, as protect.ts's does: a width of `\d+` after flags that
// take `0` too was retried over every split of a run of zeros (`%000…`, quadratic, found by review).
// Neither an escape nor an address runs into a mask (`https://x.y/{path}`,
// `C:\{dir}`): a broken mask left the whole value plain, as if hard-coded. A mail address starts
// where its run of characters does, so that a long token is not rescanned from each of its
// characters (quadratic, found by review).
const KEPT =
  /%(?:<x id="\d+"\/>)?(?:\(\w+\))?(?:\d+\$)?[-#+0,(']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:[tT][A-Za-z]|[A-Za-z%])|<x id="\d+"\/>|\$t\([^()]*\)|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);|\\[^<]/g;
const ADDRESS = /\b(?:https?:\/\/|www\.)[^\s<]+|(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+/g;

/** Letters a filler adds: the words of Android's pseudo-locale, recognisably not a translation. */
const FILLER = ' one two three four five six seven eight nine ten';

/**
 * How much longer a translation of a text of `letters` letters runs, as localization guides
 * (IBM's) put it: short texts grow most ("OK" becomes "Aceptar").
 */
function growth(letters: number): number {
  const share = letters <= 10 ? 1 : letters <= 20 ? 0.8 : letters <= 30 ? 0.6 : letters <= 50 ? 0.4 : 0.3;
  return Math.ceil(letters * share);
}

function pseudoText(text: string): string {
  // The text's trailing white space stays at its end, after the filler (an app joins on it).
  // (trimEnd, not a regex: `\s*$` is retried from every character of every run of spaces.)
  const body = text.trimEnd();
  const trailing = text.slice(body.length);
  let letters = 0;
  let out = '';
  let at = 0;
  const keep = new RegExp(`${KEPT.source}|${ADDRESS.source}`, 'g');
  // ASCII letters accented; every letter, in any script, counted for the lengthening.
  const accent = (part: string) =>
    part.replace(/\p{L}/gu, (c) => {
      letters++;
      return ACCENTED[c] ?? c;
    });
  for (const m of body.matchAll(keep)) {
    out += accent(body.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  out += accent(body.slice(at));
  if (letters === 0) return out + trailing;
  const extra = growth(letters);
  let filler = '';
  while (filler.length < extra) filler += FILLER;
  // Not ending on a space the filler cut at: a trailing space is a quality warning of its own.
  return out + filler.slice(0, extra).trimEnd() + trailing;
}

// Android's pseudo-locale ar-XB (aapt2's PseudoMethodBidi): a right-to-left mark, a right-to-left
// override, the word, a pop of the override, a right-to-left mark. Only words are overridden: white
// space between them stays outside, so that lines still break, and what KEPT and ADDRESS match
// (placeholders' masks, printf conversions, entities, escapes, URLs) is never reversed: an
// overridden `%1$s` would still format, but its value would read backwards, as if it were text.
const RLM = '\u200f';
const RLO = '\u202e';
const PDF = '\u202c';
const bidiWords = (part: string) => part.replace(/[^\s]+/g, (word) => `${RLM}${RLO}${word}${PDF}${RLM}`);
// An apostrophe next to a mask stays next to it: in ICU, `'{name}'` and `'#'` are quoted literal
// text, and an override's controls between the apostrophe and the brace ended the quote (the
// argument was formatted, `'{a b}'` no longer parsed: found by review). Elsewhere it is harmless.
const QUOTED_MASK = /'?<x id="\d+"\/>'?/;

function bidiText(text: string): string {
  let out = '';
  let at = 0;
  const keep = new RegExp(`${QUOTED_MASK.source}|${KEPT.source}|${ADDRESS.source}`, 'g');
  for (const m of text.matchAll(keep)) {
    out += bidiWords(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + bidiWords(text.slice(at));
}

/**
 * A value that is one plural or select argument and nothing else, with each branch's text between
 * brackets; null for any other value. Brackets around the argument would make it text with an
 * argument in it, and the formats that write a plural their own way (i18next's `_one`/`_other`
 * keys, Android's <plurals>, .stringsdict) write only a value that is exactly one plural
 * (core/formats/plural/icu-plural.ts, readIcuPlural): found when i18next showed the ICU source.
 */
function bracketBranches(value: string): string | null {
  const only = onlyArgument(value);
  if (!only || !(isPluralElement(only) || isSelectElement(only))) return null;
  // Each branch's `{...}`, from the last so that earlier offsets stay right.
  const branches = Object.values(only.options)
    .map((option) => option.location!)
    .sort((a, b) => b.start.offset - a.start.offset);
  let out = value;
  for (const { start, end } of branches) out = `${out.slice(0, start.offset + 1)}[${out.slice(start.offset + 1, end.offset - 1)}]${out.slice(end.offset - 1)}`;
  return out;
}

/**
 * The value pseudo-localized: every text of it (each ICU branch on its own) accented and lengthened,
 * everything an app reads as syntax kept, and the whole between brackets (each branch's text, for a
 * value that is one plural or select), so that a text cut at either end shows it. With `bidi`, each
 * word of every text forced right-to-left instead, with no brackets and no lengthening (as Android's
 * ar-XB: it tests mirroring, en-XA tests length). `language` is the value's own: its plural branches
 * are kept as they are. An empty value stays empty (a file's "no text yet").
 */
export function pseudoLocalize(value: string, language: string, method: PseudoMethod = 'accents'): string {
  if (value === '') return value;
  const masked = protect(value);
  const restored = masked.restore(masked.segments.map(method === 'bidi' ? bidiText : pseudoText), language);
  // Every mask is put back once (pseudoText and bidiText keep them): null would be a bug, and the
  // plain value is then still a usable text.
  const pseudo = restored ?? value;
  if (method === 'bidi') return pseudo;
  const branches = bracketBranches(pseudo);
  if (branches !== null) return branches;
  // The brackets inside the value's leading and trailing white space, which the app joins on.
  const inner = pseudo.trim();
  if (inner === '') return pseudo;
  const lead = pseudo.length - pseudo.trimStart().length;
  return `${pseudo.slice(0, lead)}[${inner}]${pseudo.slice(lead + inner.length)}`;
}
