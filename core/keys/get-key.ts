import type { Deps } from '../deps.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { useCase } from '../use-case.ts';
import { keyById } from './by-id.ts';
import { keyNotFound } from './update-key.ts';
import { GetKeyCommand, type KeyItem } from './schemas.ts';

/** One live key of the project, as an item of the listing; 404 for unknown, deleted or another project's. */
export const getKey = useCase(GetKeyCommand, async (deps: Pick<Deps, 'sql'>, { projectId, keyId }): Promise<KeyItem> => {
  const { sql } = deps;
  const [row] = await sql<KeyItem[]>`
    select id, key, group_name, description, tags, max_length,
           ${isoUtc(sql, 'created_at')} as created_at, ${isoUtc(sql, 'updated_at')} as updated_at
    from ${keyById(sql, keyId)} k
    where k.project_id = ${projectId} and k.deleted_at is null`;
  if (!row) throw keyNotFound();
  return row;
});
