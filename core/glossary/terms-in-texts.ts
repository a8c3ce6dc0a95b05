// The glossary terms some texts hold (find-terms.ts says what "holds" means): for an editor page, a
// write's warnings, an import or a whole project's scan. A few texts: PostgreSQL narrows the
// glossary to the terms whose folded spelling occurs in one of them (most occur in none), in one
// statement. Many texts: the whole glossary once, indexed by first word (termFinder).
import type { Sql, TransactionSql } from '../db/client.ts';
import { fold } from './fold.ts';
import { termFinder, termsIn } from './find-terms.ts';
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
  // Joined by a character no term holds (a term has no control characters).
  const haystack = distinct.map(fold).join('\u0001');
  const rows = await sql<TermRow[]>`
    select ${termColumns(sql)} from glossary_terms t
    where t.project_id = ${projectId} and strpos(${haystack}::text, t.term_folded) > 0
    order by t.term_folded collate "C"`;
  if (rows.length === 0) return found;
  const terms = rows.map(toTerm);
  for (const text of distinct) {
    const inText = termsIn(text, terms);
    if (inText.length) found.set(text, inText);
  }
  return found;
}

/** The whole glossary as a finder (text → the terms it holds), or null when the project has none. */
export async function glossaryFinder(sql: AnySql, projectId: string): Promise<((text: string) => GlossaryTerm[]) | null> {
  const rows = await sql<TermRow[]>`
    select ${termColumns(sql)} from glossary_terms t where t.project_id = ${projectId} order by t.term_folded collate "C"`;
  return rows.length === 0 ? null : termFinder(rows.map(toTerm));
}
