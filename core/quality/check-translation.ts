// Quality checks of one value against its source (the same key's value in the project's source
// language): what a translator's change could break in an app. Each check gives warnings; a project
// may turn chosen checks into blocking errors for approval (docs/quality.md).
import { branchOmissions, CHOICE_HEAD, icuPlurals, isI18next, parseIcu, usesIcu, type IcuParse } from './icu.ts';
import { placeholderDifference, placeholders, usesPrintfPositions } from './placeholders.ts';
import { scanTags } from './html-tags.ts';
import { dropsFinalPeriod, edgeWhitespace, finalMark, hasWideCharacters, visibleWidth } from './text-edges.ts';
import { pluralCategories as categoriesOf } from '../formats/plural/categories.ts';
import { shownLength } from './max-length.ts';
import { fold, spaced } from '../glossary/fold.ts';
import type { ForbiddenWords } from '../glossary/forbidden-words.ts';

export const QUALITY_CHECKS = ['icu_syntax', 'placeholders', 'plurals', 'html_tags', 'whitespace', 'punctuation', 'length', 'max_length', 'glossary', 'forbidden_terms'] as const;
export type QualityCheck = (typeof QUALITY_CHECKS)[number];

export type QualityWarning = { check: QualityCheck; message: string };

export type CheckInput = {
  /** The value checked. */
  text: string;
  language: string;
  /** The key's value in the source language; null when there is none (or this is the source). */
  source: string | null;
  sourceLanguage: string;
  /** The key's character limit (core/keys/schemas.ts); null or absent: none. */
  maxLength?: number | null | undefined;
  /** The glossary terms the source holds (core/glossary/terms-in-texts.ts); absent: none. */
  terms?: readonly GlossaryTermUse[] | undefined;
  /** The project's forbidden words (core/glossary/forbidden-words.ts); absent: none. Judged in every language, the source's included. */
  forbidden?: ForbiddenWords | undefined;
};

/** What the glossary check reads of a term (core/glossary/schemas.ts). */
export type GlossaryTermUse = { term: string; case_sensitive: boolean; translatable: boolean; forbidden?: boolean; translations: Readonly<Record<string, string>> };

/** A translation longer than this many times its source (and than LENGTH_SLACK more characters) is flagged. */
export const LENGTH_RATIO = 3;
const LENGTH_SLACK = 15;

/**
 * The warnings of a value as stored: a value in the source language is the source, judged alone
 * (only what needs no source, such as ICU syntax and the key's character limit), never against itself.
 */
export function warningsOf(input: CheckInput): QualityWarning[] {
  return checkTranslation(input.language === input.sourceLanguage ? { ...input, source: null } : input);
}

export function checkTranslation(input: CheckInput): QualityWarning[] {
  const warnings: QualityWarning[] = [];
  const warn = (check: QualityCheck, message: string) => warnings.push({ check, message });
  const { text, source } = input;
  const target = looksLikeIcu(text) ? parseIcu(text) : null;
  const origin = source !== null && looksLikeIcu(source) ? parseIcu(source) : null;

  // ICU syntax: judged when the value uses braces the ICU way (no braces at all is plain text, and a
  // translation that dropped its source's arguments is the placeholder check's to report).
  const sourceIsIcu = origin?.ok === true && usesIcu(origin.elements);
  if (target && !target.ok && (source === null || sourceIsIcu || origin === null)) {
    warn('icu_syntax', `Not valid ICU MessageFormat (${target.error} at character ${target.offset + 1})`);
  }

  if (source !== null) {
    // Positions on either side number both sides' plain conversions, so %s meets %1$s (placeholders.ts).
    const numberPlain = usesPrintfPositions(source) || usesPrintfPositions(text);
    const diff = placeholderDifference(placeholders(source, origin, numberPlain), placeholders(text, target, numberPlain));
    if (diff.missing.length) warn('placeholders', `Missing placeholder${plural(diff.missing)} ${diff.missing.join(', ')}`);
    if (diff.extra.length) warn('placeholders', `Placeholder${plural(diff.extra)} not in the source: ${diff.extra.join(', ')}`);
    // The count above looks at each plural's `other`; a placeholder lost in another branch shows
    // only there (once: one `other` lacks is already missing above).
    if (origin?.ok && target?.ok) {
      for (const o of branchOmissions(origin.elements, target.elements)) {
        const missing = o.missing.map((name) => `{${name}}`).filter((p) => !diff.missing.includes(p));
        if (missing.length) warn('placeholders', `Missing placeholder${plural(missing)} ${missing.join(', ')} in the ${o.branch} branch of {${o.argument}}`);
      }
    }
  }

  pluralWarnings(input, target, origin, warn);

  const tags = scanTags(text);
  const from = source !== null ? scanTags(source) : null;
  // Balance is judged against the source: `Press <Enter> to continue` names a key, not an element,
  // and a translation that keeps exactly the source's unbalanced tags (openings and closings alike)
  // is as the app expects it. Any other imbalance is reported as before.
  if (tags.unbalanced) {
    if (!(from?.unbalanced && from.all.join() === tags.all.join())) warn('html_tags', `Unbalanced tags: ${tags.unbalanced}`);
  } else if (from) {
    if (!from.unbalanced && from.tags.join() !== tags.tags.join()) {
      warn('html_tags', `Tags differ from the source: ${from.tags.join(' ') || 'none'} in the source, ${tags.tags.join(' ') || 'none'} here`);
    }
  }

  if (source !== null && source.trim() !== '' && text.trim() !== '') {
    const a = edgeWhitespace(source);
    const b = edgeWhitespace(text);
    if (a.leading !== b.leading) warn('whitespace', a.leading ? 'The source starts with whitespace, this does not' : 'Starts with whitespace, the source does not');
    if (a.trailing !== b.trailing) warn('whitespace', a.trailing ? 'The source ends with whitespace, this does not' : 'Ends with whitespace, the source does not');

    const mark = finalMark(source);
    const own = finalMark(text);
    if (mark !== own && !(mark === 'period' && own === null && dropsFinalPeriod(input.language))) {
      warn('punctuation', mark ? `The source ends with ${markWords(mark)}${own ? `, this with ${markWords(own)}` : ', this without one'}` : `Ends with ${markWords(own!)}, the source does not`);
    }

    // Measured in columns: a Han, Kana or Hangul character (and a fullwidth form) counts 2, as it is
    // drawn twice as wide and says what two or three Latin letters say. Without that, 10 Chinese
    // characters rendered in 54 German ones read as five times longer (text-edges.ts).
    const from = visibleWidth(source);
    const to = visibleWidth(text);
    if (to > from * LENGTH_RATIO && to > from + LENGTH_SLACK) {
      const wide = hasWideCharacters(source) || hasWideCharacters(text) ? ' (a CJK character counts as 2)' : '';
      warn('length', `${to} characters, more than ${LENGTH_RATIO} times the source's ${from}${wide}`);
    }
  }

  // The glossary: a term of the source is said as agreed here. Found in the translation as written
  // anywhere (no word edges): an inflected or compound form ("Übersichten", "Übersichtsseite")
  // holds the agreed word, and a false warning costs a translator more than a missed one.
  if (source !== null && input.terms?.length && text.trim() !== '') {
    const holds = (needle: string, caseSensitive: boolean) => (caseSensitive ? spaced(text.normalize('NFC')).includes(spaced(needle.normalize('NFC'))) : fold(text).includes(fold(needle)));
    for (const term of input.terms) {
      // A forbidden term's translation is a word not to use: the forbidden_terms check's, below.
      if (term.forbidden) continue;
      if (!term.translatable) {
        if (!holds(term.term, term.case_sensitive)) warn('glossary', `"${term.term}" stays as written (glossary), and this does not have it`);
        continue;
      }
      const agreed = term.translations[input.language];
      if (agreed !== undefined && !holds(agreed, term.case_sensitive)) warn('glossary', `The glossary says "${term.term}" is "${agreed}" in ${input.language}, and this does not use it`);
    }
  }

  // Forbidden words, in every language: the source's own value too (a writer's word the product does
  // not use is the first thing to fix), each reported once.
  if (input.forbidden !== undefined) {
    for (const use of input.forbidden(text, input.language)) {
      warn('forbidden_terms', use.word === use.term ? `"${use.word}" is a forbidden term (glossary): do not use it` : `"${use.word}" is forbidden in ${input.language} (glossary, the term "${use.term}"): do not use it`);
    }
  }

  // The key's own limit holds in every language, the source's included (a source that does not fit
  // is the first thing to fix). Plain graphemes here, not columns: a limit is set in characters.
  if (input.maxLength != null) {
    const n = shownLength(text);
    if (n > input.maxLength) {
      const choice = CHOICE_HEAD.test(text) ? ' (its longest form)' : '';
      warn('max_length', `${n} characters${choice}, over the key's limit of ${input.maxLength}`);
    }
  }
  return warnings;
}

/** A final mark's name as a message says it, with its article ("an exclamation mark", not "a exclamation"). */
const MARK_WORDS: Record<string, string> = { period: 'a period', question: 'a question mark', exclamation: 'an exclamation mark', colon: 'a colon', ellipsis: 'an ellipsis' };
const markWords = (mark: string) => MARK_WORDS[mark] ?? `a ${mark}`;

function pluralWarnings(input: CheckInput, target: IcuParse | null, origin: IcuParse | null, warn: (check: QualityCheck, message: string) => void) {
  const plurals = target?.ok ? icuPlurals(target.elements) : [];
  for (const p of plurals) {
    const needed = pluralCategories(input.language, p.ordinal);
    const missing = needed.filter((c) => !p.categories.includes(c));
    if (missing.length) warn('plurals', `The plural of {${p.argument}} lacks ${missing.join(', ')}, which ${input.language} needs`);
  }
  if (origin?.ok && target?.ok) {
    const have = new Set(plurals.map((p) => p.argument));
    for (const p of icuPlurals(origin.elements)) {
      // A language with the single category `other` (Japanese, Chinese, Korean, Vietnamese…) says
      // `{n}件` for every n: a plural there would have one branch, so dropping it loses nothing.
      const onlyOther = pluralCategories(input.language, p.ordinal).join() === 'other';
      if (!have.has(p.argument) && !onlyOther) warn('plurals', `The source pluralizes {${p.argument}}, this does not`);
    }
  }
}

/**
 * The CLDR categories a language needs, in CLDR order (zero, one, two, few, many, other) whatever
 * order the runtime's ICU lists them in (Node 20 and 24 differ); an unknown code needs only `other`.
 * One source with the file formats' plural handling (core/formats/plural/categories.ts).
 */
export function pluralCategories(language: string, ordinal = false): string[] {
  return categoriesOf(language, ordinal ? 'ordinal' : 'cardinal');
}

// i18next's {{x}} is not ICU (but ICU's `other {{name}}` is, icu.ts); a value with no brace is
// plain text, always valid.
const looksLikeIcu = (text: string) => text.includes('{') && !isI18next(text);
const plural = (list: string[]) => (list.length > 1 ? 's' : '');
