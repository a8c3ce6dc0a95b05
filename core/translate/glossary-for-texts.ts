// What the project's glossary says about the texts one provider call translates (docs/decisions.md,
// "The glossary in machine translation"): each term found in them with the phrase to use for it in
// the target language (its agreed translation, or itself for a term kept as written), and the
// target language's forbidden words. A term is found in a text as the editor finds it in a source
// text (find-terms.ts: whole words, case folded unless the term is case-sensitive). Forbidden terms
// are never entries: their translations are the words not to use.
import type { Sql, TransactionSql } from '../db/client.ts';
import type { GlossaryEntry } from '../ports/machine-translator.ts';
import { termFinder } from '../glossary/find-terms.ts';
import { termsInTexts } from '../glossary/terms-in-texts.ts';
import { readForbiddenTerms } from '../glossary/forbidden-words.ts';
import type { GlossaryTerm } from '../glossary/schemas.ts';

/** Most forbidden words one call names: a provider's instructions are not a term base. */
export const AVOID_MAX = 50;

export type MachineGlossary = {
  /** The entries for one batch of (protected) texts: the terms found in them, each once, in the glossary's order. */
  entriesFor(texts: readonly string[]): GlossaryEntry[];
  /** The target language's forbidden words (at most AVOID_MAX). */
  avoid: string[];
};

/**
 * The glossary of one run: the terms the run's source texts hold and the forbidden words of `to`
 * (a statement each, sent together).
 */
export async function machineGlossary(sql: Sql | TransactionSql, projectId: string, sources: readonly string[], to: string): Promise<MachineGlossary> {
  const [found, forbidden] = await Promise.all([termsInTexts(sql, projectId, sources), readForbiddenTerms(sql, projectId)]);
  const terms = new Map<string, GlossaryTerm>();
  for (const list of found.values()) for (const term of list) if (!term.forbidden && entryOf(term, to)) terms.set(term.id, term);
  const ordered = [...terms.values()].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  const find = termFinder(ordered);
  return {
    entriesFor(texts) {
      const seen = new Set<GlossaryTerm>();
      // The texts are protected: a placeholder's `<x id="0"/>` is no use of a term "ID" or "X".
      for (const text of texts) for (const term of find(text.replace(/<x id="\d+"\/>/g, ' '))) seen.add(term);
      return ordered.filter((t) => seen.has(t)).map((t) => entryOf(t, to)!);
    },
    avoid: [...new Set(forbidden.flatMap((t) => (t.translatable ? (t.translations[to] ?? []) : [t.term])))].slice(0, AVOID_MAX),
  };
}

/** A term's entry in `to`: its agreed translation there, or itself when it is kept as written; none without either. */
function entryOf(term: GlossaryTerm, to: string): GlossaryEntry | null {
  if (!term.translatable) return { source: term.term, target: term.term };
  const target = term.translations[to];
  return target === undefined ? null : { source: term.term, target };
}
