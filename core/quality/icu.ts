// ICU MessageFormat as the quality checks see it: does a value parse, which arguments does it use,
// and which plural branches does it give. HTML-like tags are left to html-tags.ts (ignoreTag), so
// `<b>{name}</b>` is judged on its braces here and on its tags there.
import {
  parse,
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isPoundElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';

export type IcuParse = { ok: true; elements: MessageFormatElement[] } | { ok: false; error: string; offset: number };

export function parseIcu(text: string): IcuParse {
  try {
    return { ok: true, elements: parse(text, { ignoreTag: true, requiresOtherClause: true }) };
  } catch (error) {
    const e = error as { message?: string; location?: { start?: { offset?: number } } };
    return { ok: false, error: e.message ?? 'INVALID', offset: e.location?.start?.offset ?? 0 };
  }
}

/** True when the message uses ICU at all (an argument, plural or select), not just plain text. */
export function usesIcu(elements: readonly MessageFormatElement[]): boolean {
  return elements.some((el) => !isLiteral(el));
}

const isLiteral = (el: MessageFormatElement) => el.type === 0;

// i18next's `{{name}}` is not ICU, yet ICU writes a branch that is only an argument the same way
// (`other {{name}}}`): a value with double braces is i18next unless it has a plural or select head.
// A head, not a successful parse, decides, so that a broken plural (`… other {{count}}`, a brace
// short) is still ICU and reported as such.
const DOUBLE_BRACES = /\{\{[^{}]*\}\}/;
export const CHOICE_HEAD = /\{\s*[^\s{},]+\s*,\s*(?:plural|selectordinal|select)\s*,/;
export const isI18next = (text: string) => DOUBLE_BRACES.test(text) && !CHOICE_HEAD.test(text);

/**
 * Argument names, each once per use, in document order. A plural or select counts its own argument
 * once and its branches as its `other` (always present) does: each branch repeats the same
 * arguments, and branchOmissions compares them one by one. A plural's own argument inside its
 * branches (`{n}` or `#`) is not counted again: `one {One file}` leaves it out, `other {# files}`
 * and `other {{n} files}` say the same.
 */
export function icuArguments(elements: readonly MessageFormatElement[], out: string[] = [], own: ReadonlySet<string> = new Set()): string[] {
  for (const el of elements) {
    if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el)) {
      if (!own.has(el.value)) out.push(el.value);
    } else if (isPluralElement(el) || isSelectElement(el)) {
      if (!own.has(el.value)) out.push(el.value);
      const other = el.options.other ?? Object.values(el.options)[0];
      if (other) icuArguments(other.value, out, isPluralElement(el) ? new Set([...own, el.value]) : own);
    } else if (isTagElement(el)) icuArguments(el.children, out, own);
  }
  return out;
}

export type BranchOmission = { argument: string; branch: string; missing: string[] };

/**
 * Arguments a branch of the target's plurals and selects lacks against the source's branch of the
 * same key, or the source's `other` for a branch the source has not (Russian `few`, an added `=0`):
 * icuArguments looks at `other` alone, so `one {hat # Datei}` losing `{who}` would pass. Nested
 * plurals and selects are compared inside their matching branches. The enclosing plurals' own
 * arguments are never required (`#` may stand for them, or a branch may leave the count out).
 */
export function branchOmissions(
  source: readonly MessageFormatElement[],
  target: readonly MessageFormatElement[],
  own: ReadonlySet<string> = new Set(),
  out: BranchOmission[] = [],
): BranchOmission[] {
  const sourceChoices = source.filter(isChoice);
  for (const el of target.filter(isChoice)) {
    const match = sourceChoices.find((s) => s.value === el.value && s.type === el.type);
    if (!match) continue;
    const inner = isPluralElement(el) ? new Set([...own, el.value]) : own;
    for (const [key, option] of Object.entries(el.options)) {
      const from = match.options[key] ?? match.options.other;
      if (!from) continue;
      const have = new Set(allArguments(option.value));
      const missing = [...new Set(allArguments(from.value))].filter((name) => !inner.has(name) && !have.has(name));
      // The count itself may be `#` or `{n}` either side, and `one {Eine Datei}` may leave it out;
      // but an `other` that drops the count the source's `other` shows (`{n} files` -> `Dateien`)
      // tells every reader a wrong number of nothing.
      if (isPluralElement(el) && key === 'other' && showsCount(from.value, el.value) && !showsCount(option.value, el.value)) missing.unshift(el.value);
      if (missing.length) out.push({ argument: el.value, branch: key, missing });
      branchOmissions(from.value, option.value, inner, out);
    }
  }
  return out;
}

/** Whether a plural branch shows its count: `#`, or its argument by name (not inside a nested plural's own `#`). */
function showsCount(elements: readonly MessageFormatElement[], argument: string): boolean {
  return elements.some(
    (el) =>
      isPoundElement(el) ||
      ((isArgumentElement(el) || isNumberElement(el)) && el.value === argument) ||
      (isTagElement(el) && showsCount(el.children, argument)) ||
      (isSelectElement(el) && Object.values(el.options).every((o) => showsCount(o.value, argument))),
  );
}

type Choice = Extract<MessageFormatElement, { options: unknown }>;
const isChoice = (el: MessageFormatElement): el is Choice => isPluralElement(el) || isSelectElement(el);

/** Every argument a message uses, in every branch. */
function allArguments(elements: readonly MessageFormatElement[], out: string[] = []): string[] {
  for (const el of elements) {
    if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el)) out.push(el.value);
    else if (isChoice(el)) {
      out.push(el.value);
      for (const option of Object.values(el.options)) allArguments(option.value, out);
    } else if (isTagElement(el)) allArguments(el.children, out);
  }
  return out;
}

export type IcuPlural = { argument: string; ordinal: boolean; categories: string[] };

/** Every plural (and selectordinal) with the categories it gives; exact matches (=0) are not categories. */
export function icuPlurals(elements: readonly MessageFormatElement[], out: IcuPlural[] = []): IcuPlural[] {
  for (const el of elements) {
    if (isPluralElement(el)) {
      out.push({ argument: el.value, ordinal: el.pluralType === 'ordinal', categories: Object.keys(el.options).filter((k) => !k.startsWith('=')) });
      for (const option of Object.values(el.options)) icuPlurals(option.value, out);
    } else if (isSelectElement(el)) {
      for (const option of Object.values(el.options)) icuPlurals(option.value, out);
    } else if (isTagElement(el)) icuPlurals(el.children, out);
  }
  return out;
}
