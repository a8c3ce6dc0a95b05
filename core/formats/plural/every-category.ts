// An ICU plural says with `other` every category it leaves out, and so do Android, iOS and ICU
// itself. i18next, older Rails (i18n before 1.13 raises InvalidPluralizationData) and gettext (a
// msgstr[n] per slot) do not fall back to `other`: they need a form for each category of the
// language. So their export writes the categories a value lacks with its `other` text. Their import
// keeps every form the file has (a file's `few` that repeats `other` may be the translator's word
// for it), and an import compares a file's value with the stored one by what they say (sayTheSame),
// so a pulled file pushed back unchanged changes nothing and costs nothing.
import { pluralCategories } from './categories.ts';
import { readIcuPlural, samePluralOptions, type IcuPlural } from './icu-plural.ts';

/** Forms keyed by ICU selector, with each category of the language they lack given `other`'s text. */
export function withEveryCategory(forms: ReadonlyMap<string, string>, language: string, ordinal: boolean): Map<string, string> {
  const out = new Map(forms);
  const other = forms.get('other');
  if (other === undefined) return out;
  for (const c of pluralCategories(language, ordinal ? 'ordinal' : 'cardinal')) if (!out.has(c)) out.set(c, other);
  return out;
}

/**
 * Whether two stored values say the same once each plural has every category of the language (those
 * it leaves out given `other`'s form): what an import compares, so that a value pulled as
 * `files_one`/`files_few`/`files_many`/`files_other` and pushed back unchanged is no change of the
 * stored `{one, other}`. Both must be one plural of the same argument; any other difference counts.
 */
export function sayTheSame(a: string, b: string, language: string): boolean {
  if (a === b) return true;
  const pa = readIcuPlural(a);
  const pb = readIcuPlural(b);
  if (pa === null || pb === null || pa.arg !== pb.arg || pa.ordinal !== pb.ordinal) return false;
  return samePluralOptions(filled(pa, language), filled(pb, language));
}

function filled(plural: IcuPlural, language: string): IcuPlural {
  const other = plural.options.get('other');
  if (other === undefined) return plural;
  const options = new Map(plural.options);
  for (const c of pluralCategories(language, plural.ordinal ? 'ordinal' : 'cardinal')) if (!options.has(c)) options.set(c, other);
  return { ...plural, options };
}
