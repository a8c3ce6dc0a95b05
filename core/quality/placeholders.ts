// The placeholders a value carries, whatever the format family: printf (`%s`, `%d`, `%1$@`,
// `%(name)s`), i18next and Handlebars (`{{name}}`), and ICU arguments (`{name}`, and those inside
// plural, select, number and date). A translation must carry the same ones, or an app either shows
// a raw `%s` or crashes formatting it (iOS with a missing `%@`, Android with a surplus `%1$s`).
import { icuArguments, type IcuParse } from './icu.ts';

// printf conversions, positional or not, with flags, width and precision; `%%` is a literal percent.
// The width starts with 1-9 (a leading 0 is a flag): flags and width that could both take a zero
// made the pattern quadratic on a long run of zeros.
const PRINTF = /%(?:\(([A-Za-z_]\w*)\))?(?:(\d+)\$)?[-+ 0#']*(?:[1-9]\d*|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?([@sdifuFxXoeEgGcpaA])/g;
const DOUBLE_BRACES = /\{\{-?\s*([^{}\s]+?)\s*\}\}/g;

/** Sorted tokens, one per occurrence: compared as multisets. */
export function placeholders(text: string, icu: IcuParse | null): string[] {
  const found: string[] = [];
  const withoutPercentLiterals = text.replace(/%%/g, '');
  for (const m of withoutPercentLiterals.matchAll(PRINTF)) {
    // `%1$s` and `%1$@` are the same argument across iOS and Android conventions only when their
    // conversions match: keep the conversion, it is what the app's formatter checks.
    found.push(m[1] ? `%(${m[1]})${m[3]}` : m[2] ? `%${m[2]}$${m[3]}` : `%${m[3]}`);
  }
  const doubles = [...text.matchAll(DOUBLE_BRACES)];
  for (const m of doubles) found.push(`{{${m[1]}}}`);
  // ICU arguments only when the text is ICU (and not i18next's double braces, which ICU misreads).
  if (icu?.ok && doubles.length === 0) for (const name of icuArguments(icu.elements)) found.push(`{${name}}`);
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
