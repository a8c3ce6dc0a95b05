// Which glossary terms a text holds: the editor's hints beside a key's source text, the API's
// `?key_id=`. A term is found as a whole word: "Dashboard" in "Open the dashboard." but not in
// "Dashboards" or "dashboarding", so that "Page" is not found in every "Homepage". Scripts written
// without spaces between words (Han, Kana, Thai, Lao, Khmer, Myanmar) have no such edge: a term in
// them is found wherever it occurs. Case is folded unless the term is case_sensitive. A no-break
// space or `&nbsp;` is a space (fold.ts).
import { fold, spaced } from './fold.ts';

export type MatchableTerm = { term: string; case_sensitive: boolean };

const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NO_SPACES_CLASS = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}]';
/** A letter, mark or digit of a script written with spaces: what a word edge may not touch. */
const SPACED_LETTER = `(?:(?!${NO_SPACES_CLASS})[\\p{L}\\p{M}\\p{N}])`;
// Only syntax characters: in a `u` pattern an escaped `-` ("Wi-Fi") is a SyntaxError.
const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

const patterns = new Map<string, RegExp>();

function patternOf(term: MatchableTerm): RegExp {
  const id = `${term.case_sensitive ? 's' : 'i'}${term.term}`;
  let re = patterns.get(id);
  if (!re) {
    const chars = [...spaced(term.term.normalize('NFC'))];
    // A word edge is needed only where the term's own edge is a letter or digit of a spaced script
    // ("C++" ends in "+": "C++ code" and "C++," both hold it).
    const edge = (c: string) => /[\p{L}\p{N}]/u.test(c) && !NO_SPACES.test(c);
    // A letter of a script without spaces is no word edge's neighbour either: "Acme Cloud" is found
    // in "Acme Cloudにログイン" and "欢迎使用Acme Cloud服务", as Japanese and Chinese write it (found by review).
    const before = edge(chars[0]!) ? `(?<!${SPACED_LETTER})` : '';
    const after = edge(chars[chars.length - 1]!) ? `(?!${SPACED_LETTER})` : '';
    re = new RegExp(`${before}${escape(chars.join(''))}${after}`, term.case_sensitive ? 'u' : 'iu');
    // A bounded memo: the patterns of the terms one process matches (a project's glossary at most 10,000).
    if (patterns.size >= 20_000) patterns.clear();
    patterns.set(id, re);
  }
  return re;
}

/** The terms found in `text`, in the order given. */
export function termsIn<T extends MatchableTerm>(text: string, terms: readonly T[]): T[] {
  if (terms.length === 0 || text === '') return [];
  const nfc = spaced(text.normalize('NFC'));
  const folded = fold(text);
  // A cheap substring test first (most terms are in no text), the word edges only for the rest.
  return terms.filter((t) => (t.case_sensitive ? nfc.includes(spaced(t.term.normalize('NFC'))) : folded.includes(fold(t.term))) && patternOf(t).test(nfc));
}

// Spaced-script word characters: what a word of a spaced script is made of (no Han, Kana, Thai...).
export const SPACED_RUN = /(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}])[\p{L}\p{M}\p{N}])+/gu;

/**
 * A finder over many terms for many texts (a whole project's scan): each term is indexed by its
 * first word, so a text costs its own words, not the glossary's size. A term that does not begin
 * with a letter or digit of a spaced script (".NET", "ログイン") is looked for in every text.
 */
export function termFinder<T extends MatchableTerm>(terms: readonly T[]): (text: string) => T[] {
  const byFirstWord = new Map<string, T[]>();
  const anywhere: T[] = [];
  for (const t of terms) {
    // A fresh, non-global copy: exec on the shared global one would leave its lastIndex behind,
    // and matchAll below starts a copy at that index.
    const first = new RegExp(SPACED_RUN.source, 'u').exec(fold(t.term));
    if (first && first.index === 0) {
      const list = byFirstWord.get(first[0]);
      if (list) list.push(t);
      else byFirstWord.set(first[0], [t]);
    } else anywhere.push(t);
  }
  const order = new Map(terms.map((t, i) => [t, i]));
  return (text) => {
    if (text === '') return [];
    const candidates = new Set<T>();
    for (const word of fold(text).matchAll(SPACED_RUN)) for (const t of byFirstWord.get(word[0]) ?? []) candidates.add(t);
    const found = termsIn(text, [...candidates, ...anywhere]);
    return found.length > 1 ? found.sort((a, b) => order.get(a)! - order.get(b)!) : found;
  };
}
