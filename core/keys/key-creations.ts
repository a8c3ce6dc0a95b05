// Key creations in projects whose plan has no key limit, batched (core/db/statement-batches.ts): the
// creations of one project that arrive while earlier ones are in flight are inserted together, in
// one statement and one commit, each with its event. Names stay unique through the partial unique
// index (`on conflict do nothing`: a 409 for the name already taken); a batch never holds one name
// twice, so every creation is told whether it was its own insert. A limited plan counts under the
// project lock instead (create-key.ts). docs/decisions.md, "Writes that arrive together, commit together".
import type { Sql } from '../db/client.ts';
import { lockTimeoutSetting, createStatementBatches, type StatementBatches } from '../db/statement-batches.ts';
import { PLAN_LIMITS, PLANS } from '../accounts/plans.ts';
import type { KeyRecord } from './schemas.ts';
import { joinTags } from './tags.ts';

export const MAX_IN_FLIGHT = 1;
export const MAX_BATCH = 64;

// Each plan's key limit by plan name (null: unlimited).
export const KEY_LIMITS = JSON.stringify(Object.fromEntries(PLANS.map((plan) => [plan, PLAN_LIMITS[plan].keysPerProject])));

export type KeyCreation = {
  projectId: string;
  key: string;
  group_name: string;
  description: string | null;
  /** Sorted, without duplicates (core/keys/tags.ts). */
  tags: string[];
  /** The key's character limit, or null (core/keys/schemas.ts). */
  max_length: number | null;
  actorType: string;
  actorId: string | null;
};

/**
 * `unlimited` false: the project is not there or its plan has a key limit, nothing was written.
 * `created` false with `unlimited`: the name is taken.
 */
export type KeyCreated = KeyRecord & { unlimited: boolean; created: boolean; event_id: string | null };

export type KeyCreations = StatementBatches<KeyCreation, KeyCreated>;

export const createKeyCreations = (sql: Sql, options: { maxInFlight?: number; maxBatch?: number } = {}): KeyCreations =>
  createStatementBatches(sql, {
    send: insertKeys,
    project: (item) => item.projectId,
    identity: (item) => item.key,
    maxInFlight: options.maxInFlight ?? MAX_IN_FLIGHT,
    maxBatch: options.maxBatch ?? MAX_BATCH,
  });

/** One statement for all `items` (distinct names); rows in the order of the items. */
export async function insertKeys(sql: Sql, items: KeyCreation[], lockTimeoutMs = 0): Promise<KeyCreated[]> {
  // The arrays go through a materialized CTE so that no plan sees their length: see writeValues.
  // No comments inside the SQL: pg_stat_activity shows only the first 1 KiB of a statement.
  return sql<KeyCreated[]>`
    with batch as materialized (
      select ${items.map((i) => i.projectId)}::uuid[] as project_ids, ${items.map((i) => i.key)}::text[] as keys,
             ${items.map((i) => i.group_name)}::text[] as group_names, ${items.map((i) => i.description)}::text[] as descriptions,
             ${items.map((i) => joinTags(i.tags))}::text[] as tag_lists, ${items.map((i) => i.max_length)}::int[] as max_lengths,
             ${items.map((i) => i.actorType)}::text[] as actor_types, ${items.map((i) => i.actorId)}::text[] as actor_ids
    ), input as (
      select i.* from (select set_config('lock_timeout', coalesce(${lockTimeoutSetting(lockTimeoutMs)}::text, current_setting('lock_timeout')), true) as lock_timeout) settings, batch b, unnest(
        b.project_ids, b.keys, b.group_names, b.descriptions, b.tag_lists, b.max_lengths, b.actor_types, b.actor_ids
      ) with ordinality as i (project_id, key, group_name, description, tag_list, max_length, actor_type, actor_id, n)
      where settings.lock_timeout is not null
    ), unlimited as (
      select i.n from input i join projects p on p.id = i.project_id join accounts a on a.id = p.account_id
      where (${KEY_LIMITS}::text::jsonb ->> a.plan) is null
    ), created as (
      insert into translation_keys (project_id, key, group_name, description, tags, max_length)
      select i.project_id, i.key, i.group_name, i.description,
             string_to_array(i.tag_list, chr(31)), i.max_length
      from input i join unlimited u on u.n = i.n
      order by i.key
      on conflict (project_id, key) where deleted_at is null do nothing
      returning id, project_id, key, group_name, description, tags, max_length
    ), event as (
      insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, after)
      select 'key.created', c.project_id, i.actor_type, i.actor_id, 'key', c.id::text, to_jsonb(c)
      from created c join input i on i.project_id = c.project_id and i.key = c.key
      order by i.n
      returning id, entity_id
    )
    select exists (select 1 from unlimited u where u.n = i.n) as unlimited, c.id is not null as created,
           c.id, c.project_id, c.key, c.group_name, c.description, c.tags, c.max_length, e.id::text as event_id
    from input i
    left join created c on c.project_id = i.project_id and c.key = i.key
    left join event e on e.entity_id = c.id::text
    order by i.n`;
}
