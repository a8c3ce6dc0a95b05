// Turns outbox rows (written by the domain_events trigger, migration 013, in the transaction of the
// change) into deliveries: one per enabled endpoint that wants the event, each with the exact body it
// will be signed and sent with, in the Standard Webhooks shape { type, timestamp, data }. Rows are
// deleted in the same transaction that creates their deliveries, and claimed with SKIP LOCKED, so
// a crash or a second worker neither loses nor doubles an event.
//
// translations.changed is gathered per project: it is sent WEBHOOKS_DEBOUNCE_MS after the first
// change it covers, with every change up to then (which keys, languages and groups, by whom). A
// steady stream of writes thus gives one event per window, never none.
import type postgres from 'postgres';
import type { Deps } from '../deps.ts';
import type { TransactionSql } from '../db/client.ts';
import { BuildIndex, indexKey } from '../cache/layout.ts';
import { buildLanguagePath } from '../cache/build-urls.ts';
import * as v from 'valibot';
import { newMessageId } from './signature.ts';
import type { WebhookEventType } from './schemas.ts';
import { KEYS_LISTED } from './listed-keys.ts';
import { commentAuthors, commentColumns, toComment, type CommentRow } from '../comments/comment-rows.ts';
import { readTask, toTask } from '../tasks/task-rows.ts';

export type DispatchDeps = Pick<Deps, 'sql' | 'objects' | 'config' | 'log'>;

type OutboxRow = {
  id: string;
  project_id: string;
  webhook_type: WebhookEventType;
  event_type: string;
  entity_type: string;
  actor_type: string;
  actor_id: string | null;
  entity_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  occurred_at: string;
  /** Seconds since the change was written (how long an immediate event has waited in the outbox). */
  age_seconds: number;
};

/**
 * How long a cache.rebuilt waits in the outbox for its build's index to be readable (a storage
 * outage, a permission fixed): then it is announced never, and logged. Until then the other rows of
 * the batch go on without it.
 */
export const UNREADABLE_INDEX_GIVE_UP_SECONDS = 300;
/** Rows whose failure has been logged once already (bounded: a long outage must not grow it). */
const reported = new Set<string>();

const BATCH = 200;
/** At most this many keys are named in one translations.changed; `keys_truncated` says when more changed. */
export const MAX_KEYS_PER_EVENT = KEYS_LISTED;
/**
 * At most this many changes are gathered into one translations.changed (read BATCH at a time): a
 * bulk action of thousands of keys is one event, and one event's rows stay bounded in memory.
 */
export const MAX_CHANGES_PER_EVENT = 20_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * How many keys a bulk event (a whole language or group) changed that have no event of their own:
 * the values an import or a machine translation created, the values a language removal deleted, a
 * group's keys. The event lists the first of them in `key_ids` (core/webhooks/listed-keys.ts); one
 * recorded before it did, or listing fewer than it changed, makes `keys_truncated` true.
 */
function bulkKeys(row: OutboxRow): number {
  switch (row.event_type) {
    case 'translation.imported':
      return count(row.after?.['values_created']);
    case 'translation.machine_translated':
      // Before values_created was recorded: `written` (the values it replaced are named by their own events too).
      return count(row.after?.['values_created'] ?? row.after?.['written']);
    case 'language.removed':
      return count(row.before?.['values']);
    case 'group.deleted':
      return count(row.before?.['keys']);
    case 'group.renamed':
    case 'group.restored':
      return count(row.after?.['keys']);
    default:
      return 0;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : []);

const outboxRows = (sql: TransactionSql, where: postgres.Fragment) => sql<OutboxRow[]>`
  select o.id, o.project_id, o.webhook_type, e.type as event_type, e.entity_type, e.actor_type, e.actor_id, e.entity_id, e.before, e.after,
         to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
         extract(epoch from now() - o.created_at)::float8 as age_seconds
  from webhook_outbox o join domain_events e on e.id = o.event_id
  where ${where}
  order by o.id
  limit ${BATCH}
  for update of o skip locked`;

/** Dispatches what is due; returns how many outbox rows it consumed. */
export async function dispatchOutbox(deps: DispatchDeps): Promise<number> {
  // The common case, an empty outbox, costs one indexed read and no transaction.
  const [pending] = await deps.sql<{ some: boolean }[]>`select exists (select 1 from webhook_outbox) as some`;
  if (!pending?.some) return 0;
  // A failure stays with its own rows (retried at the next poll, and logged): it must not keep the
  // caller from the other projects' events or from sending the deliveries already made.
  let consumed = await dispatchImmediate(deps).catch((error: unknown) => {
    deps.log.error('webhook dispatch failed', { error: (error as Error).message });
    return 0;
  });
  const due = await deps.sql<{ project_id: string }[]>`
    select project_id from webhook_outbox where webhook_type = 'translations.changed'
    group by project_id having min(created_at) <= now() - make_interval(secs => ${deps.config.WEBHOOKS_DEBOUNCE_MS / 1000})
    limit 50`;
  for (const { project_id } of due) {
    consumed += await dispatchProjectChanges(deps, project_id).catch((error: unknown) => {
      deps.log.error('webhook dispatch failed', { project_id, error: (error as Error).message });
      return 0;
    });
  }
  return consumed;
}

async function insertDeliveries(sql: TransactionSql, projectId: string, type: WebhookEventType, timestamp: string, data: unknown) {
  const body = JSON.stringify({ type, timestamp, data });
  await sql`
    insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body)
    select id, project_id, ${newMessageId()}, ${type}, ${body} from webhook_endpoints
    where project_id = ${projectId} and enabled and ${type} = any (events)`;
}

const actorOf = (row: Pick<OutboxRow, 'actor_type' | 'actor_id'>) => ({ type: row.actor_type, id: row.actor_id });

async function dispatchImmediate(deps: DispatchDeps): Promise<number> {
  return deps.sql.begin(async (sql) => {
    const rows = await outboxRows(sql, sql`o.webhook_type <> 'translations.changed'`);
    const consumed: string[] = [];
    for (const row of rows) {
      let data: unknown;
      try {
        data = await immediateData(deps, sql, row);
      } catch (error) {
        // One build's index that cannot be read (storage refusing, a file cut short) stays with its
        // own row: the batch's other projects' events go out now, this one at a later poll or never.
        const giveUp = row.age_seconds >= UNREADABLE_INDEX_GIVE_UP_SECONDS;
        if (giveUp || !reported.has(row.id)) {
          if (reported.size >= 1000) reported.clear();
          reported.add(row.id);
          deps.log.error(giveUp ? 'webhook for a build whose index cannot be read given up' : 'webhook for a build whose index cannot be read: retried at the next polls', {
            project_id: row.project_id,
            error: (error as Error).message,
          });
        }
        if (!giveUp) continue;
        reported.delete(row.id);
      }
      if (data) await insertDeliveries(sql, row.project_id, row.webhook_type, row.occurred_at, data);
      consumed.push(row.id);
    }
    if (consumed.length) await sql`delete from webhook_outbox where id = any (${consumed}::bigint[])`;
    return consumed.length;
  });
}

async function immediateData(deps: DispatchDeps, sql: TransactionSql, row: OutboxRow): Promise<unknown> {
  if (row.webhook_type === 'language.added' || row.webhook_type === 'language.removed') {
    return { project_id: row.project_id, language: row.entity_id, actor: actorOf(row) };
  }
  if (row.webhook_type === 'comment.added' || row.webhook_type === 'comment.resolved') return commentData(sql, row);
  if (row.webhook_type === 'task.created' || row.webhook_type === 'task.assigned' || row.webhook_type === 'task.completed') return taskData(sql, row);
  // cache.rebuilt: the build's languages with their immutable URLs and ETags, from its index.
  const buildId = typeof row.after?.['build_id'] === 'string' ? row.after['build_id'] : undefined;
  if (!buildId) return undefined;
  const stored = await deps.objects.get(indexKey(row.project_id, buildId));
  if (stored.kind !== 'found') {
    // Collected already: two newer builds have completed, and their own events follow this one.
    deps.log.info('webhook for a superseded build skipped', { project_id: row.project_id, build_id: buildId });
    return undefined;
  }
  let index: BuildIndex;
  try {
    index = v.parse(BuildIndex, JSON.parse(Buffer.from(stored.object.body).toString('utf8')));
  } catch {
    // Unreadable now means unreadable on every retry: announce nothing rather than block the outbox.
    deps.log.error('webhook for a build with an unreadable index skipped', { project_id: row.project_id, build_id: buildId });
    return undefined;
  }
  return {
    project_id: row.project_id,
    build_id: buildId,
    built_at: index.built_at,
    // Relative to the API's origin (core/cache/build-urls.ts): cacheable for a year.
    languages: Object.keys(index.languages)
      .sort()
      .map((code) => ({ code, url: buildLanguagePath(buildId, code), etag: index.languages[code]!.file.etag })),
  };
}

/**
 * comment.added: the comment as it is when sent, with its key's name, so that a chat message can say
 * who asked what about which text. A comment deleted before it was sent is not announced (deleted
 * means gone: core/comments/add-comment.ts); nor is one whose key is in the trash. Read in the
 * dispatch's transaction (`sql`): the embedded database has one connection, which it holds.
 * comment.resolved: the same, with who resolved it and when; not sent when it was opened again
 * before it went out (it is open, as comment.added said).
 */
async function commentData(sql: TransactionSql, row: OutboxRow): Promise<unknown> {
  if (!UUID.test(row.entity_id)) return undefined;
  const [comment] = await sql<(CommentRow & { key: string; group_name: string })[]>`
    select ${commentColumns(sql)}, k.key, k.group_name
    from value_comments c join translation_keys k on k.id = c.key_id and k.deleted_at is null ${commentAuthors(sql)}
    where c.id = ${row.entity_id} and c.project_id = ${row.project_id}`;
  if (!comment) return undefined;
  if (row.webhook_type === 'comment.resolved' && comment.resolved_at === null) return undefined;
  const { key, group_name, ...shown } = comment;
  return { project_id: row.project_id, comment: { ...toComment(shown), key, group: group_name } };
}

/**
 * task.created, task.assigned, task.completed: the task as it is when sent (its progress, its
 * assignees), and who acted, so that a chat message can tell its assignees what is theirs and by when.
 * task.assigned names the people the change added who are still assigned (a change that only removed
 * people is not announced). Not sent when the task was deleted before it went out, nor a
 * task.completed whose task was opened again.
 */
async function taskData(sql: TransactionSql, row: OutboxRow): Promise<unknown> {
  if (!UUID.test(row.entity_id)) return undefined;
  const [found] = await sql<{ number: number }[]>`select number from tasks where id = ${row.entity_id} and project_id = ${row.project_id}`;
  const current = found ? await readTask(sql, row.project_id, found.number) : null;
  if (!current) return undefined;
  const task = toTask(current);
  if (row.webhook_type === 'task.completed' && task.state !== 'done') return undefined;
  const data: Record<string, unknown> = { project_id: row.project_id, task, actor: actorOf(row) };
  if (row.webhook_type === 'task.assigned') {
    const before = new Set(strings(row.before?.['assignees']));
    const added = new Set(strings(row.after?.['assignees']).filter((id) => !before.has(id)));
    const assigned = task.assignees.filter((a) => added.has(a.user_id));
    if (assigned.length === 0) return undefined;
    data.assigned = assigned;
  }
  return data;
}

/**
 * Sends a project's gathered changes as one translations.changed, when its window is over (exported
 * for the test of the window's re-check).
 */
export async function dispatchProjectChanges(deps: DispatchDeps, projectId: string): Promise<number> {
  return deps.sql.begin(async (sql) => {
    // One dispatcher per project at a time, so a project's gathered changes are one event.
    const [lock] = await sql<{ ok: boolean }[]>`select pg_try_advisory_xact_lock(hashtext(${`tms-webhooks:${projectId}`})) as ok`;
    if (!lock?.ok) return 0;
    // The window is asked again under the lock: another replica may have sent this project's event
    // between our look and our lock, and the rows now there are a new window's (sent now, they made
    // a second event milliseconds after the first).
    const [window] = await sql<{ over: boolean | null }[]>`
      select min(created_at) <= now() - make_interval(secs => ${deps.config.WEBHOOKS_DEBOUNCE_MS / 1000}) as over
      from webhook_outbox where webhook_type = 'translations.changed' and project_id = ${projectId}`;
    if (!window?.over) return 0;
    // Every change due, page by page: a bulk action of more than one page is still one event.
    const rows: OutboxRow[] = [];
    for (;;) {
      const after = rows.at(-1)?.id ?? '0';
      const page = await outboxRows(sql, sql`o.webhook_type = 'translations.changed' and o.project_id = ${projectId} and o.id > ${after}::bigint`);
      rows.push(...page);
      if (page.length < BATCH || rows.length >= MAX_CHANGES_PER_EVENT) break;
    }
    if (rows.length === 0) return 0;
    const keyIds = new Set<string>();
    const languages = new Set<string>();
    const groups = new Set<string>();
    // A bulk event changed more keys than it lists.
    let unlisted = false;
    const actors = new Map<string, { type: string; id: string | null }>();
    const counts: Record<string, number> = {};
    for (const row of rows) {
      counts[row.event_type] = (counts[row.event_type] ?? 0) + 1;
      actors.set(`${row.actor_type}:${row.actor_id ?? ''}`, actorOf(row));
      // By what the event is about: one value (`<key id>/<language>`), a whole language (an import,
      // a machine translation), a key or a group. An id that is no key id is never taken for one:
      // the query below casts them, and one bad id once failed every project's dispatch.
      if (row.entity_type === 'language' || row.entity_type === 'group') {
        // A bulk event: the keys it lists (and an import's groups), and whether that is all of them.
        const listed = strings(row.after?.['key_ids'] ?? row.before?.['key_ids']).filter((id) => UUID.test(id));
        for (const id of listed) keyIds.add(id);
        for (const group of strings(row.after?.['groups'])) groups.add(group);
        if (bulkKeys(row) > listed.length || row.after?.['groups_truncated'] === true) unlisted = true;
      }
      if (row.entity_type === 'language') {
        languages.add(row.entity_id);
      } else if (row.event_type.startsWith('translation.')) {
        const [keyId, language] = row.entity_id.split('/');
        if (keyId && UUID.test(keyId)) keyIds.add(keyId);
        if (language) languages.add(language);
      } else if (row.event_type.startsWith('key.')) {
        if (UUID.test(row.entity_id)) keyIds.add(row.entity_id);
      } else if (row.event_type.startsWith('group.')) {
        groups.add(row.entity_id);
        // A rename names the new group; its old name is in before.
        const from = row.before?.['name'];
        if (typeof from === 'string') groups.add(from);
      }
    }
    const ids = [...keyIds];
    const named = ids.length
      ? await sql<{ id: string; key: string; group: string }[]>`
          select id, key, group_name as group from translation_keys
          where project_id = ${projectId} and id = any (${ids.slice(0, MAX_KEYS_PER_EVENT)}::uuid[])
          order by group_name, key`
      : [];
    for (const key of named) groups.add(key.group);
    const last = rows.at(-1)!;
    await insertDeliveries(sql, projectId, 'translations.changed', last.occurred_at, {
      project_id: projectId,
      changes: rows.length,
      counts,
      keys: named,
      keys_truncated: ids.length > MAX_KEYS_PER_EVENT || unlisted,
      languages: [...languages].sort(),
      groups: [...groups].sort(),
      actors: [...actors.values()],
      first_change_at: rows[0]!.occurred_at,
      last_change_at: last.occurred_at,
    });
    await sql`delete from webhook_outbox where id = any (${rows.map((r) => r.id)}::bigint[])`;
    return rows.length;
  });
}
