// DELETE /v1/glossary/{term_id}: a term and its translations, for good. Recorded as term.deleted
// with its spelling, so Activity can say which.
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { termNotFound } from './term-rows.ts';
import { DeleteTermCommand } from './schemas.ts';

export const deleteTerm = useCase(DeleteTermCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    const [removed] = await tx.sql<{ term: string }[]>`
      delete from glossary_terms where id = ${input.termId} and project_id = ${input.projectId} returning term`;
    if (!removed) throw termNotFound();
    tx.record({ type: 'term.deleted', projectId: input.projectId, actor: input.actor, entity: { type: 'term', id: input.termId }, before: { term: removed.term } });
  }),
);
