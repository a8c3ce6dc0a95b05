// The placeholder dialects of the formats with plurals (see plural/native-plural.ts).
import { ARG_NAME, dialect, type PluralDialect } from './native-plural.ts';

/** i18next: `{{count}}` is the count (i18next's own plural variable), `{{name}}` another argument. */
export const I18NEXT_DIALECT = dialect(
  new RegExp(String.raw`\{\{\s*(${ARG_NAME})\s*\}\}`, 'u'),
  (m) => (m[1] === 'count' ? { count: true } : { arg: m[1] ?? '' }),
  '{{count}}',
  (name) => `{{${name}}}`,
);

/** Rails I18n: `%{count}` is the count, `%{name}` another argument. */
export const RAILS_DIALECT = dialect(
  new RegExp(String.raw`%\{(${ARG_NAME})\}`, 'u'),
  (m) => (m[1] === 'count' ? { count: true } : { arg: m[1] ?? '' }),
  '%{count}',
  (name) => `%{${name}}`,
);

/** Integer conversions (`%d`, `%1$d`, `%lld`...), and `%%` so that a literal percent sign is passed over. */
const INTEGER = /%%|%(?:\d+\$)?(?:hh|h|ll|l|q|z|t|j)?[diu]/g;
const integerConversions = (text: string) => [...text.matchAll(INTEGER)].filter((m) => m[0] !== '%%').length;

/**
 * A `%` that does not start a conversion (`%s`, `%1$s`, `%.2f`, `%@`...): literal text a printf
 * format must spell `%%`. A `%` before a space is literal too, though Java reads `% e` as a
 * conversion with a space flag: a translator's "50% ermäßigt" means the percent sign.
 */
const LONE_PERCENT = /%(?!(?:\d+\$)?[-#+0,(]*\d*(?:\.\d+)?(?:hh|h|ll|l|L|q|z|t|j)?[A-Za-z@])/g;

/**
 * printf-style formats (Android, gettext, stringsdict): `%d` (or the stringsdict's value type) is
 * the count, `%%` a literal percent sign, and `{name}` another ICU argument written as is. A
 * `{name}` equal to the plural's own argument stays text, since `%d` already stands for it.
 * `soleCount` matches other spellings of the count (Android's `%1$d`, a stringsdict's `%lld`),
 * read as the count only when the form has no other integer conversion: in `%1$d of %2$d` neither
 * is known to be the count. Export writes the count as `%d` (or the value type) and a `%` of the
 * stored text that starts no conversion as `%%`; one that does (`%s` kept from the file) stays.
 */
export function printfDialect(countSpec = 'd', soleCount?: string): PluralDialect {
  const spec = countSpec.replace(/[^A-Za-z]/g, '') || 'd';
  return dialect(
    new RegExp(String.raw`(%%)|(%${spec})|${soleCount === undefined ? '' : `(${soleCount})|`}\{(${ARG_NAME})\}`, 'u'),
    (m, pluralArg) => {
      const name = soleCount === undefined ? m[3] : m[4];
      if (m[1] !== undefined) return { text: '%' };
      if (m[2] !== undefined) return { count: true };
      if (name === undefined) return integerConversions(m.input) === 1 ? { count: true } : { text: m[0] };
      return name === pluralArg ? { text: m[0] } : { arg: name };
    },
    `%${spec}`,
    (name) => `{${name}}`,
    (text) => text.replace(LONE_PERCENT, '%%'),
  );
}

/** Android: `%1$d` counts too, as translators write it beside positional arguments (`%1$d songs in %2$s`). */
export const ANDROID_DIALECT = printfDialect('d', String.raw`%1\$d`);
