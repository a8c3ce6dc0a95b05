// POST /v1/glossary: a new term, with its translations. Recorded as term.added (Activity); nothing
// served changes: no rebuild, no webhook.
import type { Deps } from '../deps.ts';
import { validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { fold } from './fold.ts';
import { termColumns, toTerm, type TermRow } from './term-rows.ts';
import { checkedTranslations, isTermTaken, termTaken, writeTranslations } from './term-writes.ts';
import { CreateTermCommand, TERMS_PER_PROJECT_MAX, type GlossaryTerm } from './schemas.ts';

export const createTerm = useCase(CreateTermCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<GlossaryTerm> => {
  const { projectId, actor, term } = input;
  return transaction(deps, async (tx) => {
    // The project's row, locked against other writers of its glossary, so that two creates cannot
    // both pass the count below. The count is a statement of its own, sent with the lock: in READ
    // COMMITTED a statement sees what was committed when it started, so a count inside the locking
    // statement missed the create it had waited for (creates at 9,999 terms all passed).
    const [, [project]] = await Promise.all([
      tx.sql`select 1 from projects where id = ${projectId} for no key update`,
      tx.sql<{ terms: number }[]>`select count(*)::int as terms from glossary_terms where project_id = ${projectId}`,
    ]);
    if ((project?.terms ?? 0) >= TERMS_PER_PROJECT_MAX) {
      throw validationError([{ loc: ['body', 'term'], msg: `the glossary already has ${TERMS_PER_PROJECT_MAX.toLocaleString('en-US')} terms, the most a project keeps: delete some before adding more`, type: 'too_many' }]);
    }
    const translations = await checkedTranslations(tx.sql, projectId, input.translations);
    const [created] = await tx.sql<{ id: string }[]>`
      insert into glossary_terms (project_id, term, term_folded, description, case_sensitive, translatable, forbidden)
      values (${projectId}, ${term.normalize('NFC')}, ${fold(term)}, ${input.description}, ${input.case_sensitive}, ${input.translatable}, ${input.forbidden})
      on conflict do nothing
      returning id`;
    if (!created) throw termTaken(term);
    await writeTranslations(tx.sql, projectId, created.id, translations);
    const [row] = await tx.sql<TermRow[]>`select ${termColumns(tx.sql)} from glossary_terms t where t.id = ${created.id}`;
    const record = toTerm(row!);
    tx.record({ type: 'term.added', projectId, actor, entity: { type: 'term', id: record.id }, after: { term: record.term, translations: record.translations } });
    return record;
  }).catch((error: unknown) => {
    if (isTermTaken(error)) throw termTaken(term);
    throw error;
  });
});
