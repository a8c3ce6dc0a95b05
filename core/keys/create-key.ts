import type * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { conflict } from '../errors.ts';
import { published, transaction } from '../db/transaction.ts';
import { actorId } from '../actor.ts';
import { useCase } from '../use-case.ts';
import { assertKeyCapacity, keyLimitReached, lockProject } from '../projects/lock-project.ts';
import { CreateKeyCommand, type KeyRecord } from './schemas.ts';
import { KEY_LIMITS } from './key-creations.ts';

export const keyExists = (key: string) => conflict(`A key named '${key}' already exists in this project`);

type Created = KeyRecord & { event_id: string | null; created: boolean; taken: boolean; live_keys: number };

type Input = v.InferOutput<typeof CreateKeyCommand>;

/**
 * Creates a key. A project whose plan has no key limit needs no count and so no lock: outside a
 * transaction that is one statement (insert and event together, names kept unique by the partial
 * unique index), with no BEGIN, no COMMIT and no queue behind the project row, shared by the
 * creations of the project that arrive together (key-creations.ts). A limited plan (or a call inside
 * a transaction) takes the locked path, which keeps the limit exact.
 */
export const createKey = useCase(CreateKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'keyCreations'>, input): Promise<KeyRecord> => {
  if (!deps.tx) {
    const created = await createWithoutLimit(deps, input);
    if (created) return created;
  }
  return createLocked(deps, input);
});

/** The unlocked path; null when the plan has a key limit (or the project is not there): the locked path decides. */
async function createWithoutLimit(deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'keyCreations'>, input: Input): Promise<KeyRecord | null> {
  const { projectId, actor } = input;
  let row;
  try {
    const item = { projectId, key: input.key, group_name: input.group_name, description: input.description, tags: input.tags, max_length: input.max_length, actorType: actor.type, actorId: actorId(actor) };
    row = await deps.keyCreations.write(deps.sql, item);
  } catch (error) {
    // The project deleted between the statement's snapshot and its foreign-key check: the locked
    // path says so properly.
    if ((error as { code?: unknown } | null)?.code === '23503') return null;
    throw error;
  }
  if (!row.unlimited) return null;
  if (!row.created) throw keyExists(input.key);
  const { event_id, created: _created, unlimited: _unlimited, ...key } = row;
  await published(deps, [{ id: Number(event_id), type: 'key.created', projectId, actor, entity: { type: 'key', id: key.id }, after: key }]);
  return key;
}

const createLocked = (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input: Input): Promise<KeyRecord> =>
  transaction(deps, async (tx) => {
    const { projectId } = input;
    // Events an enclosing use-case recorded before go in first (no round trip when there are
    // none), so ids keep the writes' order.
    await tx.flush();
    // Two statements sent together (postgres.js pipelines them on the transaction's connection),
    // so the project lock is held for one round trip and the commit's. Postgres runs the second
    // only once the first holds the lock, and in READ COMMITTED a statement's snapshot is taken
    // when it starts: the count and the name check see every key committed before the lock was
    // granted. That is what keeps the plan limit and unique names exact under concurrency.
    const [project, [row]] = await Promise.all([
      lockProject(tx.sql, projectId),
      tx.sql<Created[]>`
        with project as (
          select p.id, (${KEY_LIMITS}::text::jsonb ->> a.plan)::int as max_keys
          from projects p join accounts a on a.id = p.account_id where p.id = ${projectId}
        ), live as (
          -- Counted only when the plan has a limit (a one-time filter: no scan otherwise).
          select count(*)::int as keys from translation_keys
          where project_id = ${projectId} and deleted_at is null and (select max_keys from project) is not null
        ), created as (
          insert into translation_keys (project_id, key, group_name, description, tags, max_length)
          select project.id, ${input.key}, ${input.group_name}, ${input.description}, ${input.tags}::text[], ${input.max_length}::int
          from project, live
          where project.max_keys is null or live.keys + 1 <= project.max_keys
          on conflict (project_id, key) where deleted_at is null do nothing
          returning id, project_id, key, group_name, description, tags, max_length
        ), event as (
          insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, after)
          select 'key.created', created.project_id, ${input.actor.type}, ${actorId(input.actor)}, 'key', created.id::text, to_jsonb(created)
          from created
          returning id
        )
        select created.*, created.id is not null as created, (select id from event) as event_id,
          -- Why nothing was inserted, seen by this statement's snapshot: asked again in a later
          -- statement, a key deleted meanwhile (a DELETE takes no project lock) left no reason.
          exists (select 1 from translation_keys where project_id = ${projectId} and key = ${input.key} and deleted_at is null) as taken,
          (select keys from live) as live_keys
        from (select 1) as one left join created on true`,
    ]);
    if (!row?.created) {
      // Nothing inserted: the name is taken (409 first, as a client fixing names expects), or the
      // plan's limit is reached (402 with the count).
      if (row?.taken) throw keyExists(input.key);
      const limit = project.limits.keysPerProject;
      if (limit !== null && row !== undefined && row.live_keys + 1 > limit) throw keyLimitReached(project.plan, limit, row.live_keys, 1);
      // Neither, in this snapshot (a key of the name inserted and committed after it, by a path
      // that takes no project lock): the same question, asked again now.
      const [taken] = await tx.sql`
        select 1 from translation_keys where project_id = ${projectId} and key = ${input.key} and deleted_at is null`;
      if (taken) throw keyExists(input.key);
      await assertKeyCapacity(tx.sql, projectId, project.plan, limit, 1);
      throw keyExists(input.key);
    }
    const { event_id, created: _created, taken: _taken, live_keys: _live, ...key } = row;
    tx.inserted({ id: Number(event_id), type: 'key.created', projectId, actor: input.actor, entity: { type: 'key', id: key.id }, after: key });
    return key;
  });
