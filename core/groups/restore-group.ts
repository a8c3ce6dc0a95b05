import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup } from '../validation.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import { GroupCommand, type RestoredGroup } from './schemas.ts';
import { KEYS_LISTED } from '../webhooks/listed-keys.ts';

const nothingToRestore = (name: string) => notFound(`Group '${name}' has no deleted keys to restore`);
/** How many clashing names a 409 lists; the count says how many there are in all. */
const LISTED = 20;

/**
 * Undoes the group's most recent delete: the keys soft-deleted together at that moment come back
 * with their values. All or nothing: 409 when any of their names is live again meanwhile. Set-based
 * statements only, so a group of any size restores (no list of ids travels as bind parameters).
 */
export const restoreGroup = useCase(GroupCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<RestoredGroup> => {
  const { projectId, name } = input;
  if (!mayNameGroup(name)) throw nothingToRestore(name);
  return transaction(deps, async (tx) => {
    const { sql } = tx;
    const { plan, limits } = await lockProject(sql, projectId);
    // The delete to undo, read once and carried as text (a JS Date drops the microseconds): named
    // by a subquery in each statement, a key of the group deleted between them (a DELETE takes no
    // project lock) became the last delete, and the update restored that key instead.
    const [{ last } = { last: null }] = await sql<{ last: string | null }[]>`
      select max(deleted_at)::text as last from translation_keys where project_id = ${projectId} and group_name = ${name} and deleted_at is not null`;
    if (last === null) throw nothingToRestore(name);
    // Sent as text and cast in SQL: a parameter Postgres types as timestamptz is serialized by
    // postgres.js through a JS Date, which drops the microseconds again.
    const lastDelete = sql`${last}::text::timestamptz`;
    // The clashes are a set operation, never a join: a join of the candidates to the live keys by
    // name was planned, without statistics, as a scan of the project's live names per candidate
    // (both sides estimated at one row, and both live-key indexes alike to the planner: a 500-key
    // group in a 10,000-key project took 1.1-2.5 s instead of 7 ms). Candidate names are distinct
    // (they were live together until the one delete), so the count is the same. The live names are
    // read once, from the range of the candidates' names on the (project, name) index.
    const [counts] = await sql<{ candidates: number; clashes: number; listed: string[] | null }[]>`
      with candidates as (
        select key from translation_keys
        where project_id = ${projectId} and group_name = ${name} and deleted_at = ${lastDelete}
      ), clashes as (
        select key from candidates
        intersect
        select key from translation_keys
        where project_id = ${projectId} and deleted_at is null
          and key between (select min(key) from candidates) and (select max(key) from candidates)
      )
      select (select count(*)::int from candidates) as candidates,
             (select count(*)::int from clashes) as clashes,
             (select array_agg(key order by key) from (select key from clashes order by key limit ${LISTED}) l) as listed`;
    const { candidates, clashes, listed } = counts!;
    if (candidates === 0) throw nothingToRestore(name);
    if (clashes > 0) {
      const more = clashes > LISTED ? ` and ${clashes - LISTED} more` : '';
      throw conflict(`Cannot restore group '${name}': key name(s) in use: ${(listed ?? []).join(', ')}${more}`);
    }
    await assertKeyCapacity(sql, projectId, plan, limits.keysPerProject, candidates);
    // key_ids: the first KEYS_LISTED of its keys, for webhooks' translations.changed (core/webhooks/listed-keys.ts).
    const [restored] = await sql<{ count: number; key_ids: string[] | null }[]>`
      with restored as (
        update translation_keys set deleted_at = null, updated_at = now()
        where project_id = ${projectId} and group_name = ${name} and deleted_at = ${lastDelete}
        returning id)
      select count(*)::int as count, (select array_agg(id::text) from (select id from restored limit ${KEYS_LISTED}) l) as key_ids from restored`;
    tx.record({ type: 'group.restored', projectId, actor: input.actor, entity: { type: 'group', id: name }, after: { keys: restored!.count, key_ids: restored!.key_ids ?? [] } });
    return { project_id: projectId, group_name: name, keys_restored: restored!.count };
  });
});
