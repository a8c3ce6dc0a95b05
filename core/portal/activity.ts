// The activity log's reads: a project's domain events (every write, from any path: API key, CLI,
// portal user, admin, the builder), newest first, by id (keyset: `before` = the last id shown);
// and one value's history: the events of that translation, checked against the value as stored.
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

/** The writes that change many values of one language and record one event for them all (entity: the language). */
export const LANGUAGE_WIDE_WRITES = ['translation.imported', 'translation.machine_translated'] as const;

export type StoredValue = { value: string; status: string; version: number; updated_at: string };

export type ValueHistory = {
  /** The value as stored now (`translations`, the API's GET of the value): the one source of what is current. */
  stored: StoredValue | null;
  /**
   * Set when no recorded write of this value leaves it as stored (an import or "Translate missing"
   * wrote it: they record one event per file or language, not per value): the event that did,
   * when one is found, else null.
   */
  unexplained: { source: ActivityItem | null } | null;
  /** The value's own events (written, deleted), newest first, with which one is the stored value. */
  items: (ActivityItem & { current: boolean })[];
};

/**
 * One value's history: its own recorded writes, newest first, and the value as stored now. An
 * entry is current only when it is the newest write and left exactly the stored text and status;
 * a value changed since by a language-wide write (an import) is shown as stored, with that write,
 * so an outdated text is never called current and every earlier text stays revertable.
 */
export async function valueHistory(deps: Pick<Deps, 'sql'>, projectId: string, keyId: string, language: string): Promise<ValueHistory> {
  const { sql } = deps;
  const [rows, [storedRow]] = await Promise.all([
    sql<Row[]>`
      select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
      from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
      where e.project_id = ${projectId} and e.entity_type = 'translation' and e.entity_id = ${`${keyId}/${language}`}
      order by e.id desc limit 200`,
    sql<{ value: string; status: string; version: string; updated_at: Date }[]>`
      select value, status, version::text as version, updated_at from translations
      where project_id = ${projectId} and key_id = ${keyId}::uuid and language = ${language}`,
  ]);
  const items = rows.map(toItem);
  const stored = storedRow ? { value: storedRow.value, status: storedRow.status, version: Number(storedRow.version), updated_at: new Date(storedRow.updated_at).toISOString() } : null;
  const newest = items[0];
  const after = newest?.after as { value?: unknown; status?: unknown } | null | undefined;
  const explained = stored
    ? newest?.type === 'translation.written' && after?.value === stored.value && after?.status === stored.status
    : newest?.type === 'translation.deleted';
  if (explained || !stored) return { stored, unexplained: null, items: items.map((e, i) => ({ ...e, current: explained && i === 0 })) };
  // The language-wide write after the value's own newest event that last touched the row: it set
  // updated_at in its own transaction, so its event is not later than the row's time (compared in
  // SQL: a JavaScript Date would drop the microseconds).
  const [source] = await sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
    from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    where e.project_id = ${projectId} and e.id > ${newest?.id ?? 0} and e.entity_type = 'language' and e.entity_id = ${language}
      and e.type = any(${[...LANGUAGE_WIDE_WRITES]}::text[])
      and e.occurred_at <= (select updated_at from translations where project_id = ${projectId} and key_id = ${keyId}::uuid and language = ${language})
    order by e.id desc limit 1`;
  return { stored, unexplained: { source: source ? toItem(source) : null }, items: items.map((e) => ({ ...e, current: false })) };
}

const MAX_BIGINT = 9223372036854775807n;

/**
 * An event id from a form: a positive integer that fits the column (bigint), as its digits (a
 * JavaScript number loses precision past 2^53); null for anything else, which names no event.
 * Postgres would refuse `1.5`, `Infinity` or 20 digits with an error, never "not found".
 */
export function eventIdFrom(text: string | undefined): string | null {
  if (text === undefined || !/^[1-9][0-9]{0,18}$/.test(text)) return null;
  return BigInt(text) <= MAX_BIGINT ? text : null;
}

/** A value as one event left it (the `after` of a write), for a revert; null when the id names none (or is no id). */
export async function valueAfterEvent(deps: Pick<Deps, 'sql'>, projectId: string, eventIdText: string | undefined): Promise<{ keyId: string; language: string; value: string; status: string } | null> {
  const eventId = eventIdFrom(eventIdText);
  if (eventId === null) return null;
  const [row] = await deps.sql<{ entity_id: string; after: { value?: unknown; status?: unknown } | null }[]>`
    select entity_id, after from domain_events
    where id = ${eventId}::bigint and project_id = ${projectId} and entity_type = 'translation' and type = 'translation.written'`;
  if (!row || typeof row.after?.value !== 'string' || typeof row.after.status !== 'string') return null;
  const slash = row.entity_id.indexOf('/');
  return { keyId: row.entity_id.slice(0, slash), language: row.entity_id.slice(slash + 1), value: row.after.value, status: row.after.status };
}
