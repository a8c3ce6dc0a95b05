import type { Deps } from '../deps.ts';
import { conflict } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { actorId } from '../actor.ts';
import { useCase } from '../use-case.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import { CreateKeyCommand, type KeyRecord } from './schemas.ts';

export const keyExists = (key: string) => conflict(`A key named '${key}' already exists in this project`);

export const createKey = useCase(CreateKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<KeyRecord> =>
  transaction(deps, async (tx) => {
    const { projectId } = input;
    const { plan, limits } = await lockProject(tx.sql, projectId);
    const [taken] = await tx.sql`
      select 1 from translation_keys where project_id = ${projectId} and key = ${input.key} and deleted_at is null`;
    if (taken) throw keyExists(input.key);
    await assertKeyCapacity(tx.sql, projectId, plan, limits.keysPerProject, 1);
    // The key and its event in one statement: this write holds the project lock, so every round
    // trip saved inside it is throughput for concurrent key creation. Events an enclosing use-case
    // recorded before go in first (no round trip when there are none), so ids keep the writes' order.
    await tx.flush();
    const [row] = await tx.sql<(KeyRecord & { event_id: string })[]>`
      with created as (
        insert into translation_keys (project_id, key, group_name, description)
        values (${projectId}, ${input.key}, ${input.group_name}, ${input.description})
        returning id, project_id, key, group_name, description
      ), event as (
        insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, after)
        select 'key.created', created.project_id, ${input.actor.type}, ${actorId(input.actor)}, 'key', created.id::text, to_jsonb(created)
        from created
        returning id
      )
      select created.*, (select id from event) as event_id from created`;
    const { event_id, ...key } = row!;
    tx.inserted({ id: Number(event_id), type: 'key.created', projectId, actor: input.actor, entity: { type: 'key', id: key.id }, after: key });
    return key;
  }),
);
