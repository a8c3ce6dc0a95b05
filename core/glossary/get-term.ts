// GET /v1/glossary/{term_id}: one term of the project.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { termColumns, termNotFound, toTerm, type TermRow } from './term-rows.ts';
import { TermCommand, type GlossaryTerm } from './schemas.ts';

export const getTerm = useCase(TermCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<GlossaryTerm> => {
  const [row] = await deps.sql<TermRow[]>`
    select ${termColumns(deps.sql)} from glossary_terms t where t.id = ${input.termId} and t.project_id = ${input.projectId}`;
  if (!row) throw termNotFound();
  return toTerm(row);
});
