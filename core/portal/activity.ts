// The activity log's reads: a project's domain events (every write, from any path: API key, CLI,
// portal user, admin, the builder), newest first, by id (keyset: `before` = the last id shown);
// and one value's history: the events of that translation, checked against the value as stored.
import type { Deps } from '../deps.ts';
import { valueById } from '../keys/by-id.ts';

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
  /**
   * A value's event from before its language was removed: the removal deleted the text for good,
   * so `before` and `after` come without it (status only), as History leaves such events out.
   */
  erased?: boolean;
};

export const ACTIVITY_PAGE = 50;

type Row = Omit<ActivityItem, 'occurred_at' | 'id'> & { id: string | number; occurred_at: Date };

const toItem = (r: Row): ActivityItem => ({ ...r, id: Number(r.id), occurred_at: new Date(r.occurred_at).toISOString() });

/**
 * An account's own events (account-level: membership, invitations, the plan; recorded with the
 * account and no project), newest first, by id: the Members page's log, for the account's owners.
 * Read through the account's index, as listActivity reads a project's.
 */
export async function listAccountActivity(deps: Pick<Deps, 'sql'>, accountId: string, before?: number): Promise<{ items: ActivityItem[]; next: number | null }> {
  const { sql } = deps;
  const rows = await sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
    from (
      select * from domain_events
      where account_id = ${accountId} ${before === undefined ? sql`` : sql`and id < ${before}`}
      order by id desc limit ${ACTIVITY_PAGE + 1}) e
    left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    order by e.id desc`;
  const items = rows.slice(0, ACTIVITY_PAGE).map(toItem);
  return { items, next: rows.length > ACTIVITY_PAGE ? items.at(-1)!.id : null };
}

export async function listActivity(deps: Pick<Deps, 'sql'>, projectId: string, before?: number): Promise<{ items: ActivityItem[]; next: number | null }> {
  const { sql } = deps;
  // The page is cut first (the project's index, newest first) and only its rows meet users: joined
  // before the limit, an unanalyzed planner (domain_events is not among the tables the service
  // analyzes) hashed every event of the project to sort them (30,000 events: 45 ms, growing with
  // every write ever made, instead of under 1 ms).
  // A value's texts from before its language's latest removal are left out (`erased`): removing a
  // language deletes its values for good, and the page is read by every member. One probe of the
  // entity index (migration 018) per value event of the page.
  // `key_ids` and `groups` (a bulk event's lists for webhooks, up to 1,000 ids) are not shown: left
  // out here rather than read 50 at a time.
  const rows = await sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id,
      case when x.erased then e.before - 'value' - 'key_ids' else e.before - 'key_ids' end as before,
      case when x.erased then e.after - 'value' - 'key_ids' - 'groups' else e.after - 'key_ids' - 'groups' end as after,
      coalesce(x.erased, false) as erased, e.occurred_at
    from (
      select * from domain_events
      where project_id = ${projectId} ${before === undefined ? sql`` : sql`and id < ${before}`}
      order by id desc limit ${ACTIVITY_PAGE + 1}) e
    left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    left join lateral (
      select true as erased from domain_events r
      where e.entity_type = 'translation' and r.project_id = ${projectId} and r.entity_type = 'language'
        and r.entity_id = split_part(e.entity_id, '/', 2) and r.type = 'language.removed' and r.id > e.id
      limit 1) x on true
    order by e.id desc`;
  const items = rows.slice(0, ACTIVITY_PAGE).map(toItem);
  return { items, next: rows.length > ACTIVITY_PAGE ? items.at(-1)!.id : null };
}

/** The writes that change many values of one language and record one event for them all (entity: the language). */
export const LANGUAGE_WIDE_WRITES = ['translation.imported', 'translation.machine_translated'] as const;

export type StoredValue = { value: string; status: string; version: number; updated_at: string };

/** One recorded event of the value in its History. */
export type HistoryItem = ActivityItem & {
  /** This event left the value as stored now. */
  current: boolean;
  /**
   * The language-wide write this event is part of (an import's per-value record: the same
   * transaction, actor and language), for saying where the change came from; else null.
   */
  via: ActivityItem | null;
  /**
   * The text and status this write replaced, when no older recorded event of the value left them
   * (an import or Translate missing created the value, or an import before per-value records
   * overwrote it): History lists it as an entry of its own, revertable through this event's
   * `before`. Null when the older event explains it, or when the list was cut before it.
   */
  earlier: { value: string; status: string } | null;
};

export type ValueHistory = {
  /** The value as stored now (`translations`, the API's GET of the value): the one source of what is current. */
  stored: StoredValue | null;
  /**
   * Set when no recorded write of this value leaves it as stored (an import created it, or
   * "Translate missing" wrote it: they record one event per file or language for the values they
   * create; an import's overwrite of a value records one of its own): the event that did, when one
   * is found, else null.
   */
  unexplained: { source: ActivityItem | null } | null;
  /** The value's own events (written, deleted), newest first, with which one is the stored value. */
  items: HistoryItem[];
};

/** How many of a value's own events History lists. */
const HISTORY_LIMIT = 200;

type Written = { value: string; status: string };
const asWritten = (x: unknown): Written | null => {
  const w = x as { value?: unknown; status?: unknown } | null | undefined;
  return typeof w?.value === 'string' && typeof w.status === 'string' ? { value: w.value, status: w.status } : null;
};

/**
 * What each write replaced that no older recorded event explains: the older event (the next one in
 * the newest-first list) left another text or status, or there is none. The last of a full list
 * is not judged: its older events were cut.
 */
function earlierOf(items: readonly ActivityItem[], i: number, full: boolean): Written | null {
  const e = items[i]!;
  // A delete replaces a text as a write does: one an import or Translate missing left is only here.
  const before = e.type === 'translation.written' || e.type === 'translation.deleted' ? asWritten(e.before) : null;
  if (!before) return null;
  const older = items[i + 1];
  if (!older) return full ? null : before;
  const left = older.type === 'translation.written' ? asWritten(older.after) : null;
  return left && left.value === before.value && left.status === before.status ? null : before;
}

/**
 * One value's history: its own recorded writes, newest first, and the value as stored now. An
 * entry is current only when it is the newest write and left exactly the stored text and status;
 * a value changed since by a language-wide write (an import that created it, Translate missing) is
 * shown as stored, with that write, so an outdated text is never called current and every earlier
 * text stays revertable. An import that overwrites a value records the value's own write (with the
 * text it replaced), listed with the import it belongs to; a replaced text that no older event of
 * the value left is listed too, from the `before` of the write that replaced it.
 *
 * Removing a language permanently deletes its values and records one `language.removed` event (no
 * event per value): a value's history ends there. Its events from before the language's latest
 * removal are left out (never current, never offered for Revert, and valueAfterEvent refuses them):
 * a value created again after the language was added back starts a history of its own.
 */
export async function valueHistory(deps: Pick<Deps, 'sql'>, projectId: string, anyCaseKeyId: string, language: string): Promise<ValueHistory> {
  const { sql } = deps;
  // Events name the value by its id as the database writes it (lower case); an id is one in any case.
  const keyId = anyCaseKeyId.toLowerCase();
  const [rows, [storedRow], removedAt] = await Promise.all([
    sql<Row[]>`
      select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after, e.occurred_at
      from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
      where e.project_id = ${projectId} and e.entity_type = 'translation' and e.entity_id = ${`${keyId}/${language}`}
      order by e.id desc limit ${HISTORY_LIMIT}`,
    sql<{ value: string; status: string; version: string; updated_at: Date }[]>`
      select v.value, v.status, v.version::text as version, v.updated_at from ${valueById(sql, keyId, language)} v
      where v.project_id = ${projectId}`,
    latestRemoval(deps, projectId, language),
  ]);
  // The value's events since the language's latest removal: anything older was deleted with it. Read
  // newest first, so when the removal is among them every later event is too, and the list is whole.
  const fetched = rows.map(toItem);
  const own = fetched.filter((e) => e.id > removedAt);
  const full = fetched.length >= HISTORY_LIMIT && own.length === fetched.length;
  const stored = storedRow ? { value: storedRow.value, status: storedRow.status, version: Number(storedRow.version), updated_at: new Date(storedRow.updated_at).toISOString() } : null;
  const newest = own[0];
  const after = newest?.after as { value?: unknown; status?: unknown } | null | undefined;
  const explained = stored
    ? newest?.type === 'translation.written' && after?.value === stored.value && after?.status === stored.status
    : newest?.type === 'translation.deleted';
  const via = await languageWideWrites(deps, projectId, language, own);
  const items = (current: (i: number) => boolean): HistoryItem[] =>
    own.map((e, i) => ({ ...e, current: current(i), via: via.get(e.id) ?? null, earlier: earlierOf(own, i, full) }));
  if (explained || !stored) return { stored, unexplained: null, items: items((i) => explained && i === 0) };
  // The language-wide write after the value's own newest event that last touched the row: it set
  // updated_at in its own transaction, so its event is not later than the row's time (compared in
  // SQL: a JavaScript Date would drop the microseconds).
  const [source] = await sql<Row[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after - 'key_ids' - 'groups' as after, e.occurred_at
    from domain_events e left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    where e.project_id = ${projectId} and e.id > ${Math.max(newest?.id ?? 0, removedAt)} and e.entity_type = 'language' and e.entity_id = ${language}
      and e.type = any(${[...LANGUAGE_WIDE_WRITES]}::text[])
      and e.occurred_at <= (select v.updated_at from ${valueById(sql, keyId, language)} v where v.project_id = ${projectId})
    order by e.id desc limit 1`;
  return { stored, unexplained: { source: source ? toItem(source) : null }, items: items(() => false) };
}

/**
 * The id of the language's latest `language.removed` event in the project (0: never removed). Read
 * through the entity index (migration 018): the language's own events, newest first, not the project's.
 */
async function latestRemoval(deps: Pick<Deps, 'sql'>, projectId: string, language: string): Promise<number> {
  const [row] = await deps.sql<{ id: string }[]>`
    select id from domain_events
    where project_id = ${projectId} and entity_type = 'language' and entity_id = ${language} and type = 'language.removed'
    order by id desc limit 1`;
  return row ? Number(row.id) : 0;
}

/**
 * The language-wide writes (an import, Translate missing) that the value's own writes belong to: a
 * write of the same transaction records both with the same `occurred_at` (the transaction's
 * `now()`, compared in SQL: a JavaScript Date would drop the microseconds), actor and language, and
 * the language-wide event after its per-value ones. Keyed by the value's own event id.
 */
async function languageWideWrites(deps: Pick<Deps, 'sql'>, projectId: string, language: string, own: readonly ActivityItem[]): Promise<Map<number, ActivityItem>> {
  const ids = own.filter((e) => e.type === 'translation.written').map((e) => e.id);
  if (ids.length === 0) return new Map();
  const rows = await deps.sql<(Row & { own_id: string })[]>`
    select e.id, e.type, e.actor_type, e.actor_id, u.email as actor_email, e.entity_type, e.entity_id, e.before, e.after - 'key_ids' - 'groups' as after, e.occurred_at, o.id as own_id
    from domain_events e
    join domain_events o on o.id = any(${ids}::bigint[]) and o.occurred_at = e.occurred_at
      and o.actor_type = e.actor_type and o.actor_id is not distinct from e.actor_id
    left join users u on e.actor_type = 'user' and u.id::text = e.actor_id
    where e.project_id = ${projectId} and e.id > ${Math.min(...ids)} and e.entity_type = 'language' and e.entity_id = ${language}
      and e.type = any(${[...LANGUAGE_WIDE_WRITES]}::text[])`;
  return new Map(rows.map(({ own_id, ...r }) => [Number(own_id), toItem(r)]));
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

/**
 * A value as one event left it (the `after` of a write), or as it found it (`side` 'before': the
 * text a write or a delete replaced, History's entry for a text no recorded event of its own left), for a
 * revert; null when the id names none (or is no id), the write found no value, or the language was
 * removed after it (its values were permanently deleted: History no longer lists the event).
 */
export async function valueAfterEvent(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  eventIdText: string | undefined,
  side: 'after' | 'before' = 'after',
): Promise<{ keyId: string; language: string; value: string; status: string } | null> {
  const eventId = eventIdFrom(eventIdText);
  if (eventId === null) return null;
  const [row] = await deps.sql<{ entity_id: string; before: unknown; after: unknown }[]>`
    select entity_id, before, after from domain_events
    where id = ${eventId}::bigint and project_id = ${projectId} and entity_type = 'translation'
      and type = any(${side === 'before' ? ['translation.written', 'translation.deleted'] : ['translation.written']}::text[])
      and not exists (
        select 1 from domain_events r
        where r.project_id = ${projectId} and r.entity_type = 'language' and r.entity_id = substr(domain_events.entity_id, strpos(domain_events.entity_id, '/') + 1)
          and r.id > ${eventId}::bigint and r.type = 'language.removed')`;
  const version = row ? asWritten(side === 'before' ? row.before : row.after) : null;
  if (!row || !version) return null;
  const slash = row.entity_id.indexOf('/');
  return { keyId: row.entity_id.slice(0, slash), language: row.entity_id.slice(slash + 1), ...version };
}
