// The placeholders a value carries, whatever the format family: printf (`%s`, `%d`, `%1$@`,
// `%(name)s`), i18next and Handlebars (`{{name}}`), and ICU arguments (`{name}`, and those inside
// plural, select, number and date). A translation must carry the same ones, or an app either shows
// a raw `%s` or crashes formatting it (iOS with a missing `%@`, Android with a surplus `%1$s`).
import { icuArguments, isI18next, type IcuParse } from './icu.ts';

// printf conversions, positional or not, with flags, width and precision; `%%` is a literal percent.
// The width starts with 1-9 (a leading 0 is a flag): flags and width that could both take a zero
// made the pattern quadratic on a long run of zeros. No space flag: `% d` is C's, but "50% off" and
// "100% secure" are far more common than it, and the file formats read `% ` as a literal percent
// sign too (formats/plural/dialects.ts).
const PRINTF = /%(?:\(([A-Za-z_]\w*)\))?(?:(\d+)\$)?[-+0#']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?([@sdifuFxXoeEgGcpaA])/g;
// i18next's `{{name}}`, `{{- name}}` (unescaped) and `{{price, currency}}` (formatted): compared on
// the name, a changed format is the translator's call.
const DOUBLE_BRACES = /\{\{-?\s*([^{}\s,]+)\s*(?:,[^{}]*)?\}\}/g;

// i18next's nesting, `$t(key)` or `$t(key, {"count": {{count}}})`: the value of another key is
// inserted there, and a translation that drops it drops that text. Compared on the key. Linear: the
// options stop at the next parenthesis, so a run of `$t(` is not rescanned.
const NESTING = /\$t\(\s*([^\s,()]+)\s*(?:,[^()]*)?\)/g;

/** True when a value numbers its printf arguments (`%1$s`): then its plain ones are numbered too. */
export const usesPrintfPositions = (text: string) => text.includes('%') && [...text.replace(/%%/g, '').matchAll(PRINTF)].some((m) => m[2] !== undefined);

/**
 * Sorted tokens, one per occurrence: compared as multisets. With `numberPlain` (set when either side
 * of a comparison numbers its arguments) the i-th plain conversion is read as `%i$x`: Java's
 * Formatter (Android) and POSIX printf give plain conversions their own count, so `%s of %s` and
 * `%2$s の %1$s` take the same arguments, and `Hello %s` and `Hallo %1$s` the same one. Without it
 * plain ones stay `%x`, so `%s von %s` against `%s of %s` is compared as before.
 */
export function placeholders(text: string, icu: IcuParse | null, numberPlain = false): string[] {
  const found: string[] = [];
  // Each kind is looked for only when the text has its first character: most values have none,
  // and every value an import writes is judged (10,000 in a file).
  if (text.includes('%')) {
    let plain = 0;
    for (const m of text.replace(/%%/g, '').matchAll(PRINTF)) {
      // `%1$s` and `%1$@` are the same argument across iOS and Android conventions only when their
      // conversions match: keep the conversion, it is what the app's formatter checks.
      found.push(m[1] ? `%(${m[1]})${m[3]}` : m[2] ? `%${m[2]}$${m[3]}` : numberPlain ? `%${++plain}$${m[3]}` : `%${m[3]}`);
    }
  }
  // i18next's double braces and nesting, or ICU arguments: `other {{name}}}` is ICU's, not
  // i18next's. Nesting is read wherever double braces are (i18next values, and plain text, which
  // i18next writes as well), never in a value that parses as ICU: there `$t(` is literal text.
  if (text.includes('{{') && isI18next(text)) for (const m of text.matchAll(DOUBLE_BRACES)) found.push(`{{${m[1]}}}`);
  else if (icu?.ok) for (const name of icuArguments(icu.elements)) found.push(`{${name}}`);
  if (!icu?.ok && text.includes('$t(')) for (const m of text.matchAll(NESTING)) found.push(`$t(${m[1]})`);
  return found.sort();
}

/** What the target lacks and what it adds, against the source. */
export function placeholderDifference(source: string[], target: string[]): { missing: string[]; extra: string[] } {
  const count = new Map<string, number>();
  for (const p of source) count.set(p, (count.get(p) ?? 0) + 1);
  const extra: string[] = [];
  for (const p of target) {
    const n = count.get(p) ?? 0;
    if (n > 0) count.set(p, n - 1);
    else extra.push(p);
  }
  const missing: string[] = [];
  for (const [p, n] of count) for (let i = 0; i < n; i++) missing.push(p);
  return { missing: [...new Set(missing)], extra: [...new Set(extra)] };
}
