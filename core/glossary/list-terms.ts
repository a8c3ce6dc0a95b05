// GET /v1/glossary: the project's terms in the order of their spelling (case folded), all of them
// or a page; `q` finds a spelling or a translation that contains it; `key_id` lists the terms found
// in one live key's source text (the editor's hints, find-terms.ts), found in the process's memo of
// the glossary (glossary-memo.ts) at the version the key's statement read. A read: no lock, no event.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { decodeCursor, encodeCursor } from '../keys/key-cursor.ts';
import { fold } from './fold.ts';
import { termColumns, toTerm, type TermRow } from './term-rows.ts';
import { ListTermsCommand, type TermList } from './schemas.ts';

export const listTerms = useCase(ListTermsCommand, async (deps: Pick<Deps, 'sql' | 'glossaryMemo'>, input): Promise<TermList> => {
  const { projectId } = input;
  if (input.keyId !== undefined) {
    // The glossary's version in the same statement as the source text: the memo then answers with
    // the glossary as of this read or later, never an older one.
    const [key] = await deps.sql<{ found: boolean; source: string | null; glossary_version: string }[]>`
      select k.project_id = ${projectId} and k.deleted_at is null as found,
             (select t.value from translations t join projects p on p.id = k.project_id
              where t.key_id = k.id and t.language = p.source_language) as source,
             coalesce((select v.version from project_glossary_versions v where v.project_id = ${projectId}), 0)::text as glossary_version
      from (select * from translation_keys where id = ${input.keyId} offset 0) k`;
    if (!key?.found) throw keyNotFound();
    const terms = key.source === null || key.source === '' ? [] : (await deps.glossaryMemo.finder(deps.sql, projectId, key.glossary_version))(key.source);
    return { project_id: projectId, terms, count: terms.length };
  }
  const paged = input.limit !== undefined || input.cursor !== undefined;
  const limit = input.limit ?? 100;
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const q = input.q === undefined ? null : `%${fold(input.q).replace(/[\\%_]/g, '\\$&')}%`;
  const matches = q === null
    ? deps.sql``
    : deps.sql`and (t.term_folded like ${q} or exists (select 1 from glossary_term_translations x where x.term_id = t.id and x.text_folded like ${q}))`;
  const [rows, [counted]] = await Promise.all([
    deps.sql<TermRow[]>`
      select ${termColumns(deps.sql)} from glossary_terms t
      where t.project_id = ${projectId} ${matches}
        ${after === null ? deps.sql`` : deps.sql`and t.term_folded collate "C" > ${after.key}`}
      order by t.term_folded collate "C"
      ${paged ? deps.sql`limit ${limit + 1}` : deps.sql``}`,
    deps.sql<{ n: number }[]>`select count(*)::int as n from glossary_terms t where t.project_id = ${projectId} ${matches}`,
  ]);
  const page = paged ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    project_id: projectId,
    terms: page.map(toTerm),
    count: counted!.n,
    ...(paged ? { next_cursor: rows.length > limit && last ? encodeCursor({ key: last.term_folded, id: last.id }) : null } : {}),
  };
});
