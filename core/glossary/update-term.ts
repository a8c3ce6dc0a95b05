// PATCH /v1/glossary/{term_id}: a term's spelling, description, flags or translations (merged: a
// language named gets its text, or loses it with null). Recorded as term.updated with what changed,
// before and after; a PATCH that changes nothing records nothing.
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { fold } from './fold.ts';
import { termColumns, termNotFound, toTerm, type TermRow } from './term-rows.ts';
import { checkedTranslations, isTermTaken, termTaken, writeTranslations } from './term-writes.ts';
import { UpdateTermCommand, type GlossaryTerm } from './schemas.ts';

const FIELDS = ['term', 'description', 'case_sensitive', 'translatable', 'forbidden'] as const;

export const updateTerm = useCase(UpdateTermCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<GlossaryTerm> => {
  const { projectId, actor, termId } = input;
  return transaction(deps, async (tx) => {
    // Translations name languages: the project's row first, the lock a language's removal takes
    // (and a create takes), so that a language checked below is not removed before its translation
    // is written (a foreign-key failure, a 5xx; found by review).
    if (input.translations !== undefined && Object.keys(input.translations).length > 0) {
      await tx.sql`select 1 from projects where id = ${projectId} for no key update`;
    }
    const [row] = await tx.sql<TermRow[]>`
      select ${termColumns(tx.sql)} from glossary_terms t where t.id = ${termId} and t.project_id = ${projectId} for no key update`;
    if (!row) throw termNotFound();
    const before = toTerm(row);
    const translatable = input.translatable ?? before.translatable;
    const forbidden = input.forbidden ?? before.forbidden;
    const translations = await checkedTranslations(tx.sql, projectId, input.translations ?? {});
    const term = input.term?.normalize('NFC') ?? before.term;
    await tx.sql`
      update glossary_terms set
        term = ${term}, term_folded = ${fold(term)},
        description = ${input.description ?? before.description},
        case_sensitive = ${input.case_sensitive ?? before.case_sensitive},
        translatable = ${translatable}, forbidden = ${forbidden}
      where id = ${termId}`;
    await writeTranslations(tx.sql, projectId, termId, translations);
    const [written] = await tx.sql<TermRow[]>`select ${termColumns(tx.sql)} from glossary_terms t where t.id = ${termId}`;
    const after = toTerm(written!);
    const changedFields = FIELDS.filter((f) => before[f] !== after[f]);
    const translationsChanged = JSON.stringify(before.translations) !== JSON.stringify(after.translations);
    if (changedFields.length === 0 && !translationsChanged) return before;
    const [stamped] = await tx.sql<TermRow[]>`
      update glossary_terms t set updated_at = now() where t.id = ${termId} returning ${termColumns(tx.sql)}`;
    const pick = (t: GlossaryTerm) => ({
      ...Object.fromEntries(changedFields.map((f) => [f, t[f]])),
      ...(translationsChanged ? { translations: t.translations } : {}),
    });
    tx.record({ type: 'term.updated', projectId, actor, entity: { type: 'term', id: termId }, before: { term: before.term, ...pick(before) }, after: { term: after.term, ...pick(after) } });
    return toTerm(stamped!);
  }).catch((error: unknown) => {
    if (isTermTaken(error)) throw termTaken(input.term ?? '');
    throw error;
  });
});
