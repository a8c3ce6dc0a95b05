// gettext's Plural-Forms header (`nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : ...);`): read with
// a small C-expression evaluator (never eval), mapped to CLDR categories, and chosen for export.
//
// Which CLDR category a msgstr[i] slot holds is found by counting: for n = 0..1000 the header's
// formula picks a slot and Intl.PluralRules picks a category; each slot takes the category most of
// its numbers fall in. This matches slots to categories for any correct header, including the
// common ones that differ from CLDR only for fractions or millions (fr `n > 1`).
import { pluralCategories, pluralRules, type PluralCategory, CATEGORY_ORDER } from './categories.ts';

export type PluralForms = { nplurals: number; plural: string; slot: (n: number) => number };

type Expr = (n: number) => number;

/** Parses a C expression over n with the operators gettext allows; throws Error on bad syntax. */
function compile(source: string): Expr {
  const tokens = source.match(/\s*(\d+|n|\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()])/gy);
  if (tokens === null || tokens.join('').replace(/\s+/g, '') !== source.replace(/\s+/g, '')) throw new Error('unexpected character in plural expression');
  const list = tokens.map((t) => t.trim());
  let i = 0;
  const peek = () => list[i];
  const take = (t: string) => {
    if (list[i] !== t) throw new Error(`expected '${t}' in plural expression`);
    i++;
  };
  const binary = (next: () => Expr, ops: Record<string, (a: number, b: number) => number>) => (): Expr => {
    let left = next();
    for (let op = peek(); op !== undefined && op in ops; op = peek()) {
      i++;
      const fn = ops[op] as (a: number, b: number) => number;
      const l = left;
      const r = next();
      left = (n) => fn(l(n), r(n));
    }
    return left;
  };
  const primary = (): Expr => {
    const t = list[i++];
    if (t === undefined) throw new Error('plural expression ends early');
    if (t === 'n') return (n) => n;
    if (/^\d+$/.test(t)) {
      const v = Number(t);
      return () => v;
    }
    if (t === '(') {
      const e = ternary();
      take(')');
      return e;
    }
    if (t === '!') {
      const e = primary();
      return (n) => (e(n) ? 0 : 1);
    }
    if (t === '-') {
      const e = primary();
      return (n) => -e(n);
    }
    throw new Error(`unexpected '${t}' in plural expression`);
  };
  const int = (x: number) => {
    if (!Number.isFinite(x)) throw new Error('division by zero in plural expression');
    return Math.trunc(x);
  };
  const mul = binary(primary, { '*': (a, b) => a * b, '/': (a, b) => int(a / b), '%': (a, b) => int(a % b) });
  const add = binary(mul, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const rel = binary(add, { '<': (a, b) => +(a < b), '>': (a, b) => +(a > b), '<=': (a, b) => +(a <= b), '>=': (a, b) => +(a >= b) });
  const eq = binary(rel, { '==': (a, b) => +(a === b), '!=': (a, b) => +(a !== b) });
  const and = binary(eq, { '&&': (a, b) => +(a !== 0 && b !== 0) });
  const or = binary(and, { '||': (a, b) => +(a !== 0 || b !== 0) });
  function ternary(): Expr {
    const cond = or();
    if (peek() !== '?') return cond;
    i++;
    const yes = ternary();
    take(':');
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const expr = ternary();
  if (i !== list.length) throw new Error(`unexpected '${list[i]}' in plural expression`);
  return expr;
}

const MAX_EXPRESSION = 500;
const SAMPLES = 1000;
/** Numbers past the sample range that reach slots only large numbers take (br's millions). */
const LARGE = [10_000, 100_000, 1_000_000, 2_000_000, 1_000_000_000];

/** Reads a Plural-Forms value; throws Error with a message on bad syntax. */
export function parsePluralForms(header: string): PluralForms {
  // The head is matched by a pattern with no ambiguous repetition, and the expression's end is
  // trimmed by hand: one pattern for the whole value (`(.+?)\s*;?\s*$`) backtracked cubically on
  // runs of spaces, so a 3 KB header held the event loop for seconds (docs/decisions.md,
  // "Security review (2026-11-27)").
  const head = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=/.exec(header);
  let rest = head ? header.slice(head[0].length).trim() : '';
  if (rest.endsWith(';')) rest = rest.slice(0, -1).trim();
  if (!head || rest === '') throw new Error("Plural-Forms must read 'nplurals=N; plural=EXPRESSION;'");
  const nplurals = Number(head[1]);
  if (nplurals < 1 || nplurals > 6) throw new Error('nplurals must be between 1 and 6');
  // The expression is compiled by recursive descent: bounded, so no header can reach the stack's
  // limit (the longest real one, Arabic's, is under 100 characters).
  if (rest.length > MAX_EXPRESSION) throw new Error(`the plural expression is longer than ${MAX_EXPRESSION} characters`);
  const plural = rest;
  const expr = compile(plural);
  const slot = (n: number) => {
    const s = expr(n);
    return s >= 0 && s < nplurals ? s : -1;
  };
  // Every number slotCategories() tries, so that a division by zero surfaces here, as a bad
  // header, and not later as an unexpected error (`n%(n-10000)` fails only at 10000).
  for (let n = 0; n <= SAMPLES; n++) slot(n);
  for (const n of LARGE) slot(n);
  return { nplurals, plural, slot };
}

/**
 * The CLDR category each slot holds for a language, by majority over n = 0..1000 (and a few large
 * numbers, for slots only they reach); null for a slot no number reaches. `consistent` says whether
 * every n in 0..1000 lands in a slot holding its own category, with each category in one slot.
 */
export function slotCategories(forms: PluralForms, language: string): { categories: (PluralCategory | null)[]; counts: number[]; consistent: boolean } {
  const rules = pluralRules(language);
  const select = (n: number): PluralCategory => (rules?.select(n) ?? 'other') as PluralCategory;
  const tally = Array.from({ length: forms.nplurals }, () => new Map<PluralCategory, number>());
  const counts = new Array<number>(forms.nplurals).fill(0);
  const count = (n: number) => {
    const s = forms.slot(n);
    if (s < 0) return;
    const t = tally[s] as Map<PluralCategory, number>;
    const c = select(n);
    t.set(c, (t.get(c) ?? 0) + 1);
    counts[s] = (counts[s] ?? 0) + 1;
  };
  for (let n = 0; n <= SAMPLES; n++) count(n);
  for (const n of LARGE) count(n);
  const categories = tally.map((t) => {
    let best: PluralCategory | null = null;
    for (const c of CATEGORY_ORDER) if ((t.get(c) ?? 0) > (best === null ? 0 : (t.get(best) ?? 0))) best = c;
    return best;
  });
  let consistent = new Set(categories).size === categories.length && !categories.includes(null);
  for (let n = 0; consistent && n <= SAMPLES; n++) consistent = categories[forms.slot(n)] === select(n);
  return { categories, counts, consistent };
}

/**
 * The language's categories no whole number takes (pl, ru, uk, cs: `other`, for fractions only).
 * A header slot no whole number reaches (Transifex's 4-form headers for those languages) holds one.
 */
export function fractionCategories(language: string): PluralCategory[] {
  const rules = pluralRules(language);
  if (rules === null) return [];
  const whole = new Set<string>();
  for (let n = 0; n <= SAMPLES; n++) whole.add(rules.select(n));
  for (const n of LARGE) whole.add(rules.select(n));
  return pluralCategories(language).filter((c) => !whole.has(c));
}

/**
 * The Plural-Forms written for a language: the first of gettext's customary formulas that agrees
 * with the language's CLDR rules on every whole number up to 1000. Fractions and millions, which
 * CLDR gives `other`/`many` in some languages, have no slot in gettext (its n is an integer).
 */
const CUSTOMARY = [
  'nplurals=1; plural=0;',
  'nplurals=2; plural=(n != 1);',
  'nplurals=2; plural=(n > 1);',
  'nplurals=2; plural=(n%10!=1 || n%100==11);',
  'nplurals=2; plural=(n%10==1 && n%100!=11 ? 0 : 1);',
  'nplurals=2; plural=(n > 3 && (n%10==4 || n%10==6 || n%10==9));',
  'nplurals=2; plural=(n==0 || n==1 || (n>=11 && n<=99)) ? 0 : 1;',
  'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  'nplurals=3; plural=(n%10==0 || (n%100>=11 && n%100<=19) ? 0 : n%10==1 && n%100!=11 ? 1 : 2);',
  'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);',
  'nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100>0 && n%100<20)) ? 1 : 2);',
  'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);',
  'nplurals=3; plural=(n==0 ? 0 : n==1 ? 1 : 2);',
  'nplurals=3; plural=(n==0 || n==1 ? 0 : n%1000000==0 ? 1 : 2);',
  'nplurals=3; plural=(n==1 ? 0 : n!=0 && n%1000000==0 ? 1 : 2);',
  'nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);',
  'nplurals=4; plural=(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3;',
  'nplurals=4; plural=(n==1 ? 0 : n==2 ? 1 : n>10 && n%10==0 ? 2 : 3);',
  'nplurals=4; plural=(n%10==1 ? 0 : n%10==2 ? 1 : n%20==0 ? 2 : 3);',
  'nplurals=3; plural=(n==0 || n==1 ? 0 : n>=2 && n<=10 ? 1 : 2);',
  'nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n>=3 && n<=6 ? 2 : n>=7 && n<=10 ? 3 : 4);',
  'nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n==0 || (n%100>=3 && n%100<=10) ? 2 : n%100>=11 && n%100<=19 ? 3 : 4);',
  'nplurals=5; plural=(n%10==1 && n%100!=11 && n%100!=71 && n%100!=91 ? 0 : n%10==2 && n%100!=12 && n%100!=72 && n%100!=92 ? 1 : (n%10==3 || n%10==4 || n%10==9) && (n%100<10 || n%100>19) && (n%100<70 || n%100>79) && (n%100<90 || n%100>99) ? 2 : n!=0 && n%1000000==0 ? 3 : 4);',
  'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
  'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);',
  'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : (n%100==2 || n%100==22 || n%100==42 || n%100==62 || n%100==82) || (n%1000==0 && ((n%100000>=1000 && n%100000<=20000) || n%100000==40000 || n%100000==60000 || n%100000==80000)) || (n!=0 && n%1000000==100000) ? 2 : (n%100==3 || n%100==23 || n%100==43 || n%100==63 || n%100==83) ? 3 : (n!=1 && (n%100==1 || n%100==21 || n%100==41 || n%100==61 || n%100==81)) ? 4 : 5);',
].map((header) => ({ header, forms: parsePluralForms(header) }));

export type LanguagePluralForms = { header: string; forms: PluralForms; categories: PluralCategory[] };

const chosen = new Map<string, LanguagePluralForms | null>();

/** The header and slot categories for a language, or null if no customary formula fits it. */
export function pluralFormsFor(language: string): LanguagePluralForms | null {
  let found = chosen.get(language);
  if (found === undefined) {
    found = null;
    // Several formulas can split the numbers alike in a different slot order (lv and lt); prefer
    // the one whose slots run in CLDR order, as translators expect msgstr[0] to be the smallest.
    for (const { header, forms } of CUSTOMARY) {
      const { categories, consistent } = slotCategories(forms, language);
      if (!consistent) continue;
      const ordered = categories.every((c, i) => i === 0 || CATEGORY_ORDER.indexOf(c as PluralCategory) > CATEGORY_ORDER.indexOf(categories[i - 1] as PluralCategory));
      if (found === null || ordered) found = { header, forms, categories: categories as PluralCategory[] };
      if (ordered) break;
    }
    chosen.set(language, found);
  }
  return found;
}

const chosenLarge = new Map<string, LanguagePluralForms | null>();

/**
 * For a language whose customary formula is wrong only for large numbers (fr, es, it, pt, ca: CLDR
 * gives millions `many`), the customary formula that is right for them too, with a slot for that
 * category; null for every other language. Export writes it only for files that hold such a
 * category, as most gettext tools still write the shorter formula for these languages.
 */
export function largeNumberPluralFormsFor(language: string): LanguagePluralForms | null {
  let found = chosenLarge.get(language);
  if (found === undefined) {
    found = null;
    const rules = pluralRules(language);
    const standard = pluralFormsFor(language);
    if (rules !== null && standard !== null && largeNumberCategories(language).length > 0) {
      for (const { header, forms } of CUSTOMARY) {
        const { categories, consistent } = slotCategories(forms, language);
        if (!consistent || !LARGE.every((n) => categories[forms.slot(n)] === rules.select(n))) continue;
        found = { header, forms, categories: categories as PluralCategory[] };
        break;
      }
    }
    chosenLarge.set(language, found);
  }
  return found;
}

/** The language's categories that only numbers past 1000 take (fr, es, it, pt, ca: `many`, for millions). */
export function largeNumberCategories(language: string): PluralCategory[] {
  const rules = pluralRules(language);
  if (rules === null) return [];
  const small = new Set<string>();
  for (let n = 0; n <= SAMPLES; n++) small.add(rules.select(n));
  const large = new Set<PluralCategory>();
  for (const n of LARGE) if (!small.has(rules.select(n))) large.add(rules.select(n) as PluralCategory);
  return [...large];
}
