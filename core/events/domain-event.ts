// What a write did: recorded in the same transaction as the write (core/db/transaction.ts), in the
// domain_events table, then handed to in-process subscribers after commit (event-bus.ts).
import type { Actor } from '../actor.ts';

export const EVENT_TYPES = [
  'account.created',
  'account.updated',
  'project.created',
  'project.updated',
  'api_key.created',
  'api_key.revoked',
  'key.created',
  'key.updated',
  /**
   * Only a key's tags changed (core/keys/tags.ts): a bulk tagging, an import's tag, a PATCH of tags
   * alone. Not a content change: nothing served carries tags, so no rebuild and no translations.changed.
   */
  'key.tagged',
  'key.deleted',
  'key.restored',
  'group.renamed',
  'group.deleted',
  'group.restored',
  'language.added',
  'language.removed',
  'translation.written',
  'translation.deleted',
  /** One import: its counts (a file of 10,000 values is one event, not 10,000). */
  'translation.imported',
  /** One machine translation run (POST /v1/translate/{language}): its counts, memory and provider apart. */
  'translation.machine_translated',
  /**
   * A reviewer marked an outdated value up to date (core/translations/mark-up-to-date.ts). Not a
   * `translation.` event: it changes nothing served, so no rebuild and no translations.changed.
   */
  'value.marked_up_to_date',
  /**
   * A comment on a value was added or deleted (core/comments). Not `translation.` events either:
   * nothing served changes.
   */
  'comment.added',
  'comment.deleted',
  /** A comment was marked resolved, or open again (core/comments/resolve-comment.ts): nothing served changes. */
  'comment.resolved',
  'comment.reopened',
  /**
   * A glossary term was added, changed or deleted (core/glossary). Nothing served changes: no
   * rebuild, no webhook.
   */
  'term.added',
  'term.updated',
  'term.deleted',
  /** A glossary file was imported (core/glossary/import-glossary.ts): its counts, one event for the file. Nothing served changes. */
  'glossary.imported',
  /**
   * A screenshot was uploaded, renamed or linked to other keys, or deleted (core/screenshots).
   * Nothing served changes: no rebuild, no webhook.
   */
  'screenshot.added',
  'screenshot.updated',
  'screenshot.deleted',
  /**
   * A task was created, changed, closed (done or canceled), opened again or deleted (core/tasks).
   * Nothing served changes: no rebuild.
   */
  'task.created',
  'task.updated',
  'task.completed',
  'task.canceled',
  'task.reopened',
  'task.deleted',
  'cache.rebuild_requested',
  'cache.built',
  /** A portal user joined an account (first-owner setup, an accepted invitation). */
  'member.added',
  /** An owner created an invitation link (its token is never recorded). */
  'member.invited',
  /** An owner revoked an invitation link before it was used. */
  'member.invite_revoked',
  /** An owner changed a member's role or language limits. */
  'member.updated',
  /** An owner removed a member from an account. */
  'member.removed',
  /** A webhook endpoint was registered, changed or deleted (its secret is never recorded). */
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  /** A delivered or failed webhook message was queued again (admin replay). */
  'webhook.replayed',
  /** tms turned an endpoint off after it failed continuously (WEBHOOKS_DISABLE_AFTER_SECONDS). */
  'webhook.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type EntityType = 'account' | 'project' | 'api_key' | 'key' | 'group' | 'language' | 'translation' | 'cache' | 'member' | 'webhook' | 'comment' | 'term' | 'screenshot' | 'task';

export type DomainEvent = {
  type: EventType;
  /** The project changed; null for account-level events. */
  projectId: string | null;
  /** The account, for account-level events (project events reach it through the project). */
  accountId?: string | null;
  actor: Actor;
  entity: { type: EntityType; id: string };
  /** The entity's relevant fields before and after, where that helps a reader (never secrets). */
  before?: unknown;
  after?: unknown;
};

/** A committed event: as recorded, with its sequence number (the table's identity). */
export type RecordedEvent = DomainEvent & { id: number };

/** Events whose commit changes what a project serves: its translations, keys, groups or languages. */
export function changesContent(type: EventType): boolean {
  if (type === 'key.tagged') return false;
  return type.startsWith('key.') || type.startsWith('group.') || type.startsWith('language.') || type.startsWith('translation.');
}
