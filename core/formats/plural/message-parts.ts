// A message as its top-level literal text and plurals: how the Apple formats (.stringsdict, String
// Catalogs) write a value whose plurals sit in text (a format string with one variable per plural),
// and how they check that what they wrote reads back as the same message.
import { isLiteralElement, isPluralElement, parse as parseIcu } from '@formatjs/icu-messageformat-parser';
import { readIcuPlural, samePluralOptions, type IcuPlural } from './icu-plural.ts';

export type Part = { literal: string } | { plural: IcuPlural; source: string };

/** A message as its top-level literal text and plurals, adjacent literals joined; null for anything else. */
export function partsOf(value: string): Part[] | null {
  let ast;
  try {
    ast = parseIcu(value, { ignoreTag: true, requiresOtherClause: true, captureLocation: true });
  } catch {
    return null;
  }
  const parts: Part[] = [];
  for (const el of ast) {
    const last = parts[parts.length - 1];
    if (isLiteralElement(el)) {
      if (last !== undefined && 'literal' in last) last.literal += el.value;
      else parts.push({ literal: el.value });
      continue;
    }
    if (!isPluralElement(el) || !el.location) return null;
    const source = value.slice(el.location.start.offset, el.location.end.offset);
    const plural = readIcuPlural(source);
    if (plural === null) return null;
    parts.push({ plural, source });
  }
  return parts;
}

/**
 * Whether two messages say the same: the same literal text once ICU's quoting is undone, and
 * plurals over the same variable with the same options (`one{# file}` and `one {{count} file}`
 * say what `one {# file}` says), as the other formats' plural export compares them
 * (plural/native-plural.ts).
 */
export function sameMessage(a: readonly Part[], b: readonly Part[]): boolean {
  return (
    a.length === b.length &&
    a.every((part, i) => {
      const other = b[i];
      if (other === undefined) return false;
      if ('literal' in part) return 'literal' in other && part.literal === other.literal;
      return 'plural' in other && part.plural.arg === other.plural.arg && samePluralOptions(part.plural, other.plural);
    })
  );
}
