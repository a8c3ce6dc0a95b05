// The activity log's reads: a project's domain events (every write, from any path: API key, CLI,
// portal user, admin, the builder), newest first, by id (keyset: `before` = the last id shown);
// and one value's history, the events of that translation.
import type { Deps } from '../deps.ts';

export type ActivityItem = {
  id: number;
  type: string;
  actor_type: string;
  actor_id: string | null;
  /** The portal user's email, for actor_type 'user'. */
  actor_email: string | null;
  entity_type: string;
  entity_id: string;
  before: unknown;
  after: unknown;
  occurred_at: string;
};

export const ACTIVITY_PAGE = 50;

type Row = Omit<ActivityItem, 'occurred_at' | 'id'> & { id: string | number; occurred_at: Date };

const toItem = (r: Row): ActivityItem => ({ ...r, id: Number(r.id), occurred_at: new Date(r.occurred_at).toISOString() });

export async function listActivity(deps: Pick<Deps, 'sql'>, projectId: string, before?: number): Promise<{ items: ActivityItem[]; next: number | null }> {
  const { sql } = deps;
  const rows = await sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
    from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    where e.project_id = ${projectId} ${before === undefined ? sql`` : sql`and e.id < ${before}`}
    order by e.id desc limit ${ACTIVITY_PAGE + 1}`;
  const items = rows.slice(0, ACTIVITY_PAGE).map(toItem);
  return { items, next: rows.length > ACTIVITY_PAGE ? items.at(-1)!.id : null };
}

/** Every recorded write of one value (key and language), newest first. */
export async function valueHistory(deps: Pick<Deps, 'sql'>, projectId: string, keyId: string, language: string): Promise<ActivityItem[]> {
  const rows = await deps.sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
    from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    where e.project_id = ${projectId} and e.entity_type = 'translation' and e.entity_id = ${`${keyId}/${language}`}
    order by e.id desc limit 200`;
  return rows.map(toItem);
}

/** A value as one event left it (the `after` of a write), for a revert. */
export async function valueAfterEvent(deps: Pick<Deps, 'sql'>, projectId: string, eventId: number): Promise<{ keyId: string; language: string; value: string; status: string } | null> {
  const [row] = await deps.sql<{ entity_id: string; after: { value?: unknown; status?: unknown } | null }[]>`
    select entity_id, after from domain_events
    where id = ${eventId} and project_id = ${projectId} and entity_type = 'translation' and type = 'translation.written'`;
  if (!row || typeof row.after?.value !== 'string' || typeof row.after.status !== 'string') return null;
  const slash = row.entity_id.indexOf('/');
  return { keyId: row.entity_id.slice(0, slash), language: row.entity_id.slice(slash + 1), value: row.after.value, status: row.after.status };
}
