import type { Sql, TransactionSql } from '../db/client.ts';
import { iso639_1, languageName } from '../languages/language-code.ts';
import * as v from 'valibot';
import { InProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import type { Manifest } from './schemas.ts';

const ReadManifestCommand = v.object({ ...InProject });

/**
 * Languages with at least one value of a live key (any status), ordered by code in code-point
 * order ("pt" before "pt-BR"), each with the number of live keys whose value is approved. One
 * query; values of unregistered languages cannot exist (removing a language deletes them). The
 * builder calls it inside its snapshot transaction, so the cached manifest is this one, as of then.
 */
export const readManifest = useCase(ReadManifestCommand, async (deps: { sql: Sql | TransactionSql }, { projectId }): Promise<Manifest> => {
  const rows = await deps.sql<{ code: string; approved_count: number }[]>`
    select t.language as code, (count(*) filter (where t.status = 'approved'))::int as approved_count
    from translations t join translation_keys k on k.id = t.key_id
    where t.project_id = ${projectId} and k.project_id = ${projectId} and k.deleted_at is null
    group by t.language
    order by t.language collate "C"`;
  return {
    project_id: projectId,
    languages: rows.map((r) => ({ code: r.code, name: languageName(r.code), iso: iso639_1(r.code), approved_count: r.approved_count })),
  };
});
