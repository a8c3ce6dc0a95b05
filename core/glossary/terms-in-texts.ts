// The glossary terms some texts hold (find-terms.ts says what "holds" means): for an editor page, a
// write's warnings, an import or a whole project's scan. A few texts: PostgreSQL narrows the
// glossary to the terms whose folded spelling occurs in one of them (most occur in none), in one
// statement. Many texts: the whole glossary once, indexed by first word (termFinder).
import type { Sql, TransactionSql } from '../db/client.ts';
import { fold } from './fold.ts';
import { SPACED_RUN, termFinder, termsIn } from './find-terms.ts';
import { termColumns, toTerm, type TermRow } from './term-rows.ts';
import type { GlossaryTerm } from './schemas.ts';

type AnySql = Sql | TransactionSql;

/**
 * Above this many distinct texts, or this many characters in all, the whole glossary is read and
 * matched here: PostgreSQL's narrowing costs every term a pass over all the texts, which a page of
 * long texts against a large glossary would make seconds.
 */
const NARROWED_TEXTS_MAX = 50;
const NARROWED_CHARS_MAX = 20_000;

/** The terms each text holds, by text (a text holding none has no entry). */
export async function termsInTexts(sql: AnySql, projectId: string, texts: readonly (string | null | undefined)[]): Promise<Map<string, GlossaryTerm[]>> {
  const found = new Map<string, GlossaryTerm[]>();
  const distinct = [...new Set(texts.filter((t): t is string => typeof t === 'string' && t !== ''))];
  if (distinct.length === 0) return found;
  if (distinct.length > NARROWED_TEXTS_MAX || distinct.reduce((n, t) => n + t.length, 0) > NARROWED_CHARS_MAX) {
    const find = await glossaryFinder(sql, projectId);
    if (find) {
      for (const text of distinct) {
        const inText = find(text);
        if (inText.length) found.set(text, inText);
      }
    }
    return found;
  }
  const folded = distinct.map(fold);
  // Joined by a character no term holds (a term has no control characters).
  const haystack = folded.join('\u0001');
  const [from, to] = candidateRanges(folded);
  // Only the terms a text could hold are tested (strpos) at all. A term that begins with an ASCII
  // letter or digit is held only where one of the texts' words begins it (termFinder's first-word
  // rule): it is read by the index ranges of those words. Any other term (".NET", "Übersicht",
  // "ログイン") is read by the three ranges that hold no ASCII letter or digit first, and tested
  // as before. Testing every term cost a write about 0.45 us a term: 0.9 ms of PostgreSQL for a
  // glossary of 2,000 terms, 4.5 ms for a full one (2026-12-03). The lateral scan (offset 0 keeps
  // it one index range per row) stops the planner from testing every term before the ranges.
  const rows = await sql<TermRow[]>`
    select ${termColumns(sql)}
    from unnest(${from}::text[], ${to}::text[]) as w(from_folded, to_folded)
    cross join lateral (
      select * from glossary_terms g
      where g.project_id = ${projectId} and g.term_folded collate "C" >= w.from_folded collate "C" and g.term_folded collate "C" < w.to_folded collate "C"
      offset 0) t
    where strpos(${haystack}::text, t.term_folded) > 0
    order by t.term_folded collate "C"`;
  if (rows.length === 0) return found;
  const terms = rows.map(toTerm);
  for (const text of distinct) {
    const inText = termsIn(text, terms);
    if (inText.length) found.set(text, inText);
  }
  return found;
}

const ASCII_WORD = /^[0-9a-z]/;
// Above every folded term in code point order (a term is at most 200 characters, 400 folded).
const ABOVE_EVERY_TERM = String.fromCodePoint(0x10ffff).repeat(401);
/** The spellings that do not begin with an ASCII letter or digit, as ranges in code point order. */
const NOT_ASCII_WORDS: [string, string][] = [['', '0'], [':', 'a'], ['{', ABOVE_EVERY_TERM]];

/**
 * The ranges of spellings (in code point order, PostgreSQL's "C") a glossary term the texts hold
 * can have: for each word of the folded texts that begins with an ASCII letter or digit, from the
 * word to the word with its last character's next code point (a word's last character is a letter,
 * mark or digit: never the last code point, and after U+D7FF comes U+E000, not a surrogate); then
 * every spelling that begins otherwise. A word that begins with another word (`signal`, `sign`)
 * is in that word's range already: the ranges do not overlap, so no term is read twice.
 */
function candidateRanges(folded: readonly string[]): [string[], string[]] {
  const words = new Set<string>();
  for (const text of folded) for (const [word] of text.matchAll(SPACED_RUN)) if (ASCII_WORD.test(word)) words.add(word);
  const from: string[] = [];
  const to: string[] = [];
  // Sorted, the words that begin with a word come right after it.
  for (const word of [...words].sort()) {
    const previous = from.at(-1);
    if (previous !== undefined && word.startsWith(previous)) continue;
    const chars = [...word];
    const last = chars.pop()!.codePointAt(0)!;
    from.push(word);
    to.push(chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1));
  }
  for (const [start, end] of NOT_ASCII_WORDS) {
    from.push(start);
    to.push(end);
  }
  return [from, to];
}

/** The whole glossary as a finder (text → the terms it holds), or null when the project has none. */
export async function glossaryFinder(sql: AnySql, projectId: string): Promise<((text: string) => GlossaryTerm[]) | null> {
  const rows = await sql<TermRow[]>`
    select ${termColumns(sql)} from glossary_terms t where t.project_id = ${projectId} order by t.term_folded collate "C"`;
  return rows.length === 0 ? null : termFinder(rows.map(toTerm));
}
