import type { Deps } from '../deps.ts';
import { actorId } from '../actor.ts';
import { notFound } from '../errors.ts';
import { assertOutsideTransaction, published } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { keyById } from '../keys/by-id.ts';
import { DeleteTranslationCommand, type TranslationStatus } from './schemas.ts';
import { ifMatchFailed, ifNoneMatchFailed, matchesIfMatch, unlessVersion, versionGuard } from './if-match.ts';

export const translationNotFound = (language: string) => notFound(`This key has no '${language}' translation`);

type Row = { key_found: boolean; value: string | null; status: TranslationStatus | null; event_id: string | null; current_version: string | null };

/** Permanently deletes one value of a live key of the project: one statement with its event, like the PUT. */
export const deleteTranslation = useCase(DeleteTranslationCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> => {
  assertOutsideTransaction(deps);
  const { projectId, keyId, language, actor } = input;
  const entityId = `${keyId}/${language}`;
  // Key and value by their primary keys, then checked against the project (core/keys/by-id.ts);
  // a value always belongs to its key's project. current: the value's version, read locked and
  // before the delete (which joins it): a plain read is of the statement's snapshot, so a DELETE
  // under If-Match that waited for another write judged the condition on the row as that write
  // left it but answered with the version from before it (a 404 for a value that is there).
  const [row] = await deps.sql<Row[]>`
    with live_key as (
      select k.id from ${keyById(deps.sql, keyId)} k where k.project_id = ${projectId} and k.deleted_at is null
    ), current_value as (
      select v.version from (select * from translations where key_id = ${keyId} and language = ${language} offset 0 for no key update) v
      where v.project_id = ${projectId}
    ), removed as (
      delete from translations t using live_key left join current_value on true
      where t.key_id = live_key.id and t.language = ${language}
        and ${versionGuard(deps.sql, input.ifMatch, deps.sql`t.version`)}
        and ${unlessVersion(deps.sql, input.ifNoneMatch, deps.sql`t.version`)}
      returning t.value, t.status
    ), event as (
      insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, before)
      select 'translation.deleted', ${projectId}, ${actor.type}, ${actorId(actor)}, 'translation', ${entityId},
             jsonb_build_object('value', removed.value, 'status', removed.status)
      from removed
      returning id
    )
    select exists (select 1 from live_key) as key_found, removed.value, removed.status, (select id from event) as event_id,
           (select version::text from current_value) as current_version
    from (select 1) as one left join removed on true`;
  if (!row?.key_found) throw keyNotFound();
  if (row.value === null) {
    // A value that is there but at another version than If-Match names, or at one If-None-Match
    // names: 412 (If-Match judged first); no value at all: 404.
    const current = row.current_version === null ? null : Number(row.current_version);
    if (current !== null && input.ifMatch !== undefined && !matchesIfMatch(input.ifMatch, current)) throw ifMatchFailed(keyId, language, input.ifMatch, current);
    if (current !== null && input.ifNoneMatch !== undefined) throw ifNoneMatchFailed(keyId, language, input.ifNoneMatch, current);
    throw translationNotFound(language);
  }
  await published(deps, [
    {
      id: Number(row.event_id),
      type: 'translation.deleted',
      projectId,
      actor,
      entity: { type: 'translation', id: entityId },
      before: { value: row.value, status: row.status },
    },
  ]);
});
