import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import type { UpdatedKey, UpdateKeyInput } from './schemas.ts';

export const keyNotFound = () => notFound('Key not found');

export async function updateKey(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  keyId: string,
  input: UpdateKeyInput,
): Promise<UpdatedKey> {
  const setDescription = input.description !== undefined;
  const [row] = await deps.sql<{ group_name: string }[]>`
    update translation_keys set
      group_name = coalesce(${input.group_name ?? null}, group_name),
      description = case when ${setDescription} then ${input.description ?? null}::text else description end,
      updated_at = now()
    where id = ${keyId} and project_id = ${projectId} and deleted_at is null
    returning group_name`;
  if (!row) throw keyNotFound();
  return { id: keyId, project_id: projectId, updated: true, group_name: row.group_name };
}
