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

/**
 * printf-style formats (Android, gettext, stringsdict): `%d` (or the stringsdict's value type) is
 * the count, `%%` a literal percent sign, and `{name}` another ICU argument written as is. A
 * `{name}` equal to the plural's own argument stays text, since `%d` already stands for it.
 */
export function printfDialect(countSpec = 'd'): PluralDialect {
  const spec = countSpec.replace(/[^A-Za-z]/g, '') || 'd';
  return dialect(
    new RegExp(String.raw`%%|%${spec}|\{(${ARG_NAME})\}`, 'u'),
    (m, pluralArg) => (m[0] === '%%' ? { text: m[0] } : m[1] === undefined ? { count: true } : m[1] === pluralArg ? { text: m[0] } : { arg: m[1] }),
    `%${spec}`,
    (name) => `{${name}}`,
  );
}
