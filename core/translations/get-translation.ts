import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { keyById, valueById } from '../keys/by-id.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { translationNotFound } from './delete-translation.ts';
import { outdatedSql } from './outdated.ts';
import { GetTranslationCommand, type StoredTranslation, type TranslationStatus } from './schemas.ts';

type Row = { key_found: boolean; value: string | null; status: TranslationStatus | null; version: string | null; outdated: boolean };

/**
 * One value of a live key of the project, whatever its status, with its version (the ETag a write's
 * If-Match names) and whether its key's source text changed after it (core/translations/outdated.ts).
 */
export const getTranslation = useCase(GetTranslationCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<StoredTranslation> => {
  const { projectId, keyId, language } = input;
  const { sql } = deps;
  // By primary keys, then checked against the project (core/keys/by-id.ts).
  const [row] = await sql<Row[]>`
    with live_key as materialized (
      select k.id from ${keyById(sql, keyId)} k where k.project_id = ${projectId} and k.deleted_at is null
    )
    select exists (select 1 from live_key) as key_found, t.value, t.status, t.version::text as version,
           coalesce(t.language <> p.source_language and ${outdatedSql(sql, 't', 's')}, false) as outdated
    from (select 1) as one
    left join ${valueById(sql, keyId, language)} t on t.project_id = ${projectId} and exists (select 1 from live_key)
    left join projects p on p.id = t.project_id
    left join lateral ${valueById(sql, keyId, sql`p.source_language`)} s on s.project_id = t.project_id`;
  if (!row?.key_found) throw keyNotFound();
  if (row.value === null || row.status === null) throw translationNotFound(language);
  return { key_id: keyId, language, value: row.value, status: row.status, project_id: projectId, version: Number(row.version), outdated: row.outdated };
});
