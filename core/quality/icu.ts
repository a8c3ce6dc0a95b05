// ICU MessageFormat as the quality checks see it: does a value parse, which arguments does it use,
// and which plural branches does it give. HTML-like tags are left to html-tags.ts (ignoreTag), so
// `<b>{name}</b>` is judged on its braces here and on its tags there.
import {
  parse,
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
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

/** Argument names, each once per use, in document order (plural branches walked). */
export function icuArguments(elements: readonly MessageFormatElement[], out: string[] = []): string[] {
  for (const el of elements) {
    if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el)) out.push(el.value);
    else if (isPluralElement(el) || isSelectElement(el)) {
      out.push(el.value);
      // Each branch repeats the same arguments: one branch (other, always present) stands for all.
      const other = el.options.other ?? Object.values(el.options)[0];
      if (other) icuArguments(other.value, out);
    } else if (isTagElement(el)) icuArguments(el.children, out);
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
