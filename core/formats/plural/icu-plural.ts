// The stored form of a plural is one ICU MessageFormat value, `{count, plural, one {# file} other
// {# files}}`. A value is a plural for the formats that have a plural construct only when it is
// exactly one top-level `plural` (or `selectordinal`) argument without an offset; anything else is
// an ordinary string to them. Plurals the formats build are written in one canonical spelling:
// `{arg, plural, sel {form} ...}`, exact values first then CLDR order, one space between options,
// `#` for the count, and literal text quoted only where ICU needs it (plural/icu-escape.ts).
import {
  isArgumentElement,
  isLiteralElement,
  isPluralElement,
  isPoundElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { compareSelectors } from './categories.ts';

export type IcuPlural = {
  arg: string;
  ordinal: boolean;
  /** Selector (`one`, `=0`) to the option's elements. */
  options: Map<string, MessageFormatElement[]>;
};

export function parseIcu(value: string): MessageFormatElement[] | null {
  try {
    return parse(value, { ignoreTag: true, requiresOtherClause: true });
  } catch {
    return null;
  }
}

/** The plural a value is, or null when it is not exactly one plural argument. */
export function readIcuPlural(value: string): IcuPlural | null {
  if (!value.startsWith('{') || !value.endsWith('}') || !/plural|selectordinal/.test(value)) return null;
  const ast = parseIcu(value);
  if (ast?.length !== 1) return null;
  const element = ast[0];
  if (element === undefined || !isPluralElement(element) || element.offset !== 0) return null;
  const options = new Map<string, MessageFormatElement[]>();
  for (const [selector, option] of Object.entries(element.options)) options.set(selector, option.value);
  return { arg: element.value, ordinal: element.pluralType === 'ordinal', options };
}

/**
 * Whether a value holds a plural argument (`plural` or `selectordinal`) at its top level, alone or
 * among text and other plurals: what a plural-only file (`.stringsdict`) takes and its companion
 * (`.strings`) leaves out (GET /v1/export's plurals=only|none).
 */
export function hasPlural(value: string): boolean {
  if (!value.includes('{') || !/plural|selectordinal/.test(value)) return false;
  return parseIcu(value)?.some((element) => isPluralElement(element)) ?? false;
}

/** The canonical source of a plural whose option bodies are already ICU source. */
export function buildIcuPlural(arg: string, ordinal: boolean, forms: ReadonlyMap<string, string>): string {
  const selectors = [...forms.keys()].sort(compareSelectors);
  const options = selectors.map((s) => `${s} {${forms.get(s) ?? ''}}`).join(' ');
  return `{${arg}, ${ordinal ? 'selectordinal' : 'plural'}, ${options}}`;
}

type Shape = (string | [string, string?])[];

/**
 * A comparable form of an option's elements: adjacent literals joined, the plural's own argument
 * counted as `#` (`{count}` inside `{count, plural, ...}` prints the same number), anything
 * richer (nested arguments with a type) by its full structure.
 */
export function shapeOf(elements: readonly MessageFormatElement[], pluralArg: string): Shape {
  const shape: Shape = [];
  for (const el of elements) {
    if (isLiteralElement(el)) {
      const last = shape[shape.length - 1];
      if (typeof last === 'string') shape[shape.length - 1] = last + el.value;
      else shape.push(el.value);
    } else if (isPoundElement(el) || (isArgumentElement(el) && el.value === pluralArg)) {
      shape.push(['#']);
    } else if (isArgumentElement(el)) {
      shape.push(['arg', el.value]);
    } else {
      const { location: _location, ...rest } = el as MessageFormatElement & { location?: unknown };
      shape.push(['other', JSON.stringify(rest)]);
    }
  }
  return shape;
}

/** Whether two plurals say the same thing option by option (names of the argument aside). */
export function samePluralOptions(a: IcuPlural, b: IcuPlural): boolean {
  if (a.ordinal !== b.ordinal || a.options.size !== b.options.size) return false;
  for (const [selector, elements] of a.options) {
    const other = b.options.get(selector);
    if (other === undefined) return false;
    if (JSON.stringify(shapeOf(elements, a.arg)) !== JSON.stringify(shapeOf(other, b.arg))) return false;
  }
  return true;
}
