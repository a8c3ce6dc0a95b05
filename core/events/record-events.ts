// One statement for any number of events: unnest over column arrays keeps the bind-parameter
// count fixed (an import of 10,000 keys stays far from Postgres' 65,535 limit).
import type { Sql, TransactionSql } from '../db/client.ts';
import { actorId } from '../actor.ts';
import type { DomainEvent, RecordedEvent } from './domain-event.ts';

// Sent as text and cast in SQL: a jsonb[] parameter would make the driver JSON-encode the string again.
const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export async function insertEvents(sql: Sql | TransactionSql, events: readonly DomainEvent[]): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    insert into domain_events (type, project_id, account_id, actor_type, actor_id, entity_type, entity_id, before, after)
    select * from unnest(
      ${events.map((e) => e.type)}::text[],
      ${events.map((e) => e.projectId)}::uuid[],
      ${events.map((e) => e.accountId ?? null)}::uuid[],
      ${events.map((e) => e.actor.type)}::text[],
      ${events.map((e) => actorId(e.actor))}::text[],
      ${events.map((e) => e.entity.type)}::text[],
      ${events.map((e) => e.entity.id)}::text[],
      ${events.map((e) => json(e.before))}::text[]::jsonb[],
      ${events.map((e) => json(e.after))}::text[]::jsonb[])
    returning id`;
  // Identities are drawn in the order unnest yields the rows; sort, since RETURNING promises no order.
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  return events.map((event, i) => ({ ...event, id: ids[i]! }));
}
