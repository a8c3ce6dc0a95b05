// The activity log in words: each recorded domain event (core/events/domain-event.ts, payloads as
// the use-cases record them, docs/events.md) as a sentence for its "What" column and a short
// summary of its before/after for "Change", instead of the event's type and raw JSON, which a
// translator or owner cannot read. Kept apart from the page (and free of JSX) so that every event
// type's wording is tested on its own, from the payloads the real recording code writes. Words
// come back as parts: plain text, a name (shown monospaced) or a value's text (shown in its own
// language and direction); the page renders them through Hono JSX, which escapes every part.
// Payloads are read defensively: older events, or a field a later version adds or drops, give
// shorter words, never an error; an unknown (future) type is named by its type.
import type { ActivityItem } from '../../../core/portal/activity.ts';
import { clip as clipAt } from '../../../core/formats/text/clip.ts';

/** A part of the words: text; a name (a key, group, url); a value's text in its language. */
export type Part = string | { name: string } | { text: string; language: string };

/** Names the event itself does not carry, looked up by the page for the events shown. */
export type ActivityNames = {
  /** Translation key id -> its name (deleted keys included). */
  keys?: Readonly<Record<string, string>>;
  /** API key id -> its name (null: the key has none), revoked keys included. */
  apiKeys?: Readonly<Record<string, string | null>>;
  /** A member's user id -> their email (the account's own log, for its owners). */
  members?: Readonly<Record<string, string>>;
  /** Webhook endpoint id -> its url (shown by its host only). */
  webhooks?: Readonly<Record<string, string>>;
};

/** The fields of an event the words read (an ActivityItem, or a HistoryItem's). */
export type EventLike = Pick<ActivityItem, 'type' | 'actor_type' | 'actor_id' | 'actor_email' | 'entity_type' | 'entity_id' | 'before' | 'after' | 'erased'>;

type Payload = Record<string, unknown>;
const payload = (x: unknown): Payload => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Payload) : {});
const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const strings = (x: unknown): string[] | null => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : null);
const short = (id: string) => (id.length > 12 ? id.slice(0, 8) : id);
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (items: string[] | null, none = 'none') => (items && items.length ? items.join(', ') : none);
const onOff = (x: unknown) => (x === true ? 'on' : x === false ? 'off' : 'unset');
// A format's name as said: "an xliff" (ex-liff), "a json".
const article = (word: string) => (/^[aeioux]/i.test(word) ? `an ${word}` : `a ${word}`);
/** A free text (a key's description) cut to a line. */
const clip = (x: unknown) => {
  const text = str(x);
  return text && clipAt(text, 120);
};
const when = (iso: unknown) => (typeof iso === 'string' ? `${iso.replace('T', ' ').slice(0, 16)} UTC` : null);

/** The parts as plain text (tests, labels). */
export const plain = (parts: readonly Part[]): string =>
  parts.map((p) => (typeof p === 'string' ? p : 'name' in p ? p.name : `"${p.text}"`)).join('');

/** An API key as the API keys tab knows it: by its name; else (no name, a key unknown here) by the start of its id. */
export function apiKeyLabel(id: string | null, names: ActivityNames['apiKeys'] = {}): string {
  const name = id ? names[id] : null;
  return name ? `API key “${name}”` : `API key ${id ? short(id) : 'unknown'}`;
}

/** Who made a write: a portal user's email, an API key's name, the admin token or a part of tms. */
export function actorLabel(e: Pick<EventLike, 'actor_type' | 'actor_id' | 'actor_email'>, apiKeys?: ActivityNames['apiKeys']): string {
  if (e.actor_type === 'user') return e.actor_email ?? 'a removed user';
  if (e.actor_type === 'api_key') return apiKeyLabel(e.actor_id, apiKeys);
  if (e.actor_type === 'admin') return 'the operator (admin token)';
  return `tms (${e.actor_id})`;
}

/**
 * A translation value's key and language: from its entity id `keyId/language`, or for a comment's
 * events (entity: the comment) from the key_id and language they record.
 */
export function valueTarget(e: Pick<EventLike, 'entity_type' | 'entity_id'> & Partial<Pick<EventLike, 'before' | 'after'>>): { keyId: string; language: string } | null {
  if (e.entity_type === 'comment') {
    const recorded = payload(e.after ?? e.before);
    const keyId = str(recorded.key_id);
    const language = str(recorded.language);
    return keyId && language ? { keyId, language } : null;
  }
  if (e.entity_type !== 'translation') return null;
  const slash = e.entity_id.indexOf('/');
  return slash > 0 ? { keyId: e.entity_id.slice(0, slash), language: e.entity_id.slice(slash + 1) } : null;
}

const keyName = (id: string, names: ActivityNames, recorded?: unknown): Part => ({ name: names.keys?.[id] ?? str(recorded) ?? short(id) });
/**
 * A webhook's url by its host only: a url may be its own credential (a chat service's incoming
 * webhook, a token in the query), and every member of the project, translators too, reads the log.
 */
const urlHost = (url: string | null | undefined): string | null => {
  if (!url || !URL.canParse(url)) return null;
  return new URL(url).host || null;
};
const webhookName = (e: EventLike, names: ActivityNames, recorded?: unknown): Part => {
  const host = urlHost(str(recorded)) ?? urlHost(names.webhooks?.[e.entity_id]);
  return { name: host ? `${host} (${short(e.entity_id)})` : short(e.entity_id) };
};

function apiKeyScope(p: Payload): string {
  if (p.kind !== 'delivery') return 'live: full access';
  const parts = ['delivery: cached reads only'];
  const languages = strings(p.allowed_languages);
  const origins = strings(p.allowed_origins);
  if (languages?.length) parts.push(`languages ${languages.join(', ')}`);
  if (origins?.length) parts.push(`from ${origins.join(', ')}`);
  return parts.join('; ');
}

/** A role with its language limits: "translator for de, fr". */
const roleWords = (p: Payload) => {
  const role = str(p.role) ?? 'member';
  const languages = strings(p.languages);
  return languages?.length ? `${role} for ${languages.join(', ')}` : role;
};

/** Fallback chains: "de-AT → de → en, fr → en"; none when empty. */
function chains(x: unknown): string {
  const entries = Object.entries(payload(x))
    .map(([language, chain]) => [language, ...(strings(chain) ?? [])].join(' → '))
    .filter(Boolean);
  return entries.length ? entries.join(', ') : 'none';
}

const PROJECT_FIELDS: Record<string, string> = {
  auto_rebuild: 'auto rebuild',
  fallbacks: 'fallbacks',
  source_language: 'source language',
  quality_blocking: 'checks that block approval',
};
const ACCOUNT_FIELDS: Record<string, string> = {
  name: 'name',
  plan: 'plan',
  daily_call_limit: 'daily call limit',
  translation_unit_allowance: 'translation unit allowance',
};

/** A setting's value in words. */
function setting(field: string, x: unknown): string {
  if (field === 'auto_rebuild' || field === 'enabled') return onOff(x);
  if (field === 'fallbacks') return chains(x);
  if (Array.isArray(x)) return list(strings(x));
  if (x === null || x === undefined) return 'none';
  if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return String(x);
  return 'changed';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields an event recorded (known ones first, in their order); `changed`: only those whose value differs. */
function fieldsOf(before: Payload, after: Payload, known: Record<string, string>, changed: boolean): string[] {
  const fields = [...new Set([...Object.keys(known), ...Object.keys(after), ...Object.keys(before)])].filter((f) => f !== 'id' && (f in after || f in before));
  return changed ? fields.filter((f) => !same(before[f], after[f])) : fields;
}
const labelOf = (field: string, known: Record<string, string>) => known[field] ?? field.replaceAll('_', ' ');

/** "auto rebuild: off → on; fallbacks: de → en (was: none)"; a field set to the value it had: "(unchanged)". */
function settingChanges(before: Payload, after: Payload, fields: string[], known: Record<string, string>): string {
  return fields
    .map((f) => {
      const label = labelOf(f, known);
      if (same(before[f], after[f])) return `${label}: ${setting(f, after[f])} (unchanged)`;
      // A chain's own arrows would read as the change's: the old chains are said after.
      if (f === 'fallbacks') return `${label}: ${setting(f, after[f])} (was: ${setting(f, before[f])})`;
      return `${label}: ${setting(f, before[f])} → ${setting(f, after[f])}`;
    })
    .join('; ');
}

/** What the event did, as the rest of a sentence that starts with who did it. */
export function describeEvent(e: EventLike, names: ActivityNames = {}): Part[] {
  const before = payload(e.before);
  const after = payload(e.after);
  const value = valueTarget(e);
  switch (e.type) {
    case 'account.created':
      return ['created the account ', { name: str(after.name) ?? short(e.entity_id) }];
    case 'account.updated': {
      const fields = fieldsOf(before, after, ACCOUNT_FIELDS, true).map((f) => labelOf(f, ACCOUNT_FIELDS));
      return [`changed the account${fields.length ? `: ${fields.join(', ')}` : ''}`];
    }
    case 'project.created':
      return ['created the project ', { name: str(after.name) ?? short(e.entity_id) }];
    case 'project.updated': {
      const fields = fieldsOf(before, after, PROJECT_FIELDS, false).map((f) => labelOf(f, PROJECT_FIELDS));
      return [`changed the project settings${fields.length ? `: ${fields.join(', ')}` : ''}`];
    }
    case 'api_key.created': {
      const name = str(after.name);
      return [`created ${name ? `API key “${name}”` : `API key ${short(e.entity_id)}`} (${after.kind === 'delivery' ? 'delivery' : 'live'})`];
    }
    case 'api_key.revoked':
      return [`revoked ${apiKeyLabel(e.entity_id, names.apiKeys)}`];
    case 'key.created':
      return ['created key ', keyName(e.entity_id, names, after.key)];
    case 'key.updated':
      return ['changed key ', keyName(e.entity_id, names, after.key)];
    case 'key.tagged':
      return ['changed the tags of key ', keyName(e.entity_id, names, after.key)];
    case 'key.deleted':
      return ['deleted key ', keyName(e.entity_id, names, before.key)];
    case 'key.restored':
      return ['restored key ', keyName(e.entity_id, names, after.key), ' from the trash'];
    case 'group.renamed':
      return ['renamed group ', { name: str(before.name) ?? '?' }, ' to ', { name: str(after.name) ?? e.entity_id }];
    case 'group.deleted':
      return ['deleted group ', { name: e.entity_id }];
    case 'group.restored':
      return ['restored group ', { name: e.entity_id }, ' from the trash'];
    case 'language.added':
      return [`added language ${e.entity_id}`];
    case 'language.removed':
      return [`removed language ${e.entity_id}`];
    case 'translation.written': {
      if (!value) break;
      const target: Part[] = [keyName(value.keyId, names), ` (${value.language})`];
      const was = e.before === null || e.before === undefined ? null : before;
      if (!was) return ['wrote ', ...target];
      if (was.value !== after.value || was.status === after.status) return ['changed the value of ', ...target];
      // The same text in another status: a review step.
      if (after.status === 'approved') return ['approved ', ...target];
      if (after.status === 'review') return ['sent ', ...target, ' to review'];
      return ['set ', ...target, ` back to ${str(after.status) ?? 'draft'}`];
    }
    case 'translation.deleted':
      if (!value) break;
      return ['deleted the value of ', keyName(value.keyId, names), ` (${value.language})`];
    case 'translation.imported': {
      const format = str(after.format);
      return [`imported ${format ? `${article(format)} file` : 'a file'} into ${e.entity_id}`];
    }
    case 'translation.machine_translated':
      return [`ran Translate missing for ${e.entity_id}`];
    case 'value.marked_up_to_date':
      if (!value) break;
      return ['marked ', keyName(value.keyId, names), ` (${value.language}) up to date with its source text`];
    case 'comment.added':
      if (!value) break;
      return ['commented on ', keyName(value.keyId, names), ` (${value.language})`];
    case 'comment.deleted': {
      if (!value) break;
      // Someone else's comment deleted (moderation) is said so; the text is not recorded (core/comments/add-comment.ts).
      const own = before.author_type === e.actor_type && before.author_id === e.actor_id;
      return [own ? 'deleted their comment on ' : 'deleted a comment on ', keyName(value.keyId, names), ` (${value.language})`];
    }
    case 'comment.resolved':
    case 'comment.reopened': {
      if (!value) break;
      const own = after.author_type === e.actor_type && after.author_id === e.actor_id;
      const verb = e.type === 'comment.resolved' ? 'resolved' : 'reopened';
      return [`${verb} ${own ? 'their' : 'a'} comment on `, keyName(value.keyId, names), ` (${value.language})`];
    }
    case 'term.added':
      return ['added the glossary term ', termName(e, after.term)];
    case 'term.updated': {
      // A new spelling is said in the sentence; what else changed, in the summary.
      const [was, now] = [str(before.term), str(after.term)];
      if (was && now && was !== now) return ['renamed the glossary term ', { name: was }, ' to ', { name: now }];
      return ['changed the glossary term ', termName(e, after.term ?? before.term)];
    }
    case 'term.deleted':
      return ['deleted the glossary term ', termName(e, before.term)];
    case 'glossary.imported': {
      // One event for the whole file (core/glossary/import-glossary.ts): its counts are the summary's.
      const format = str(after.format);
      return [`imported a glossary file${format ? ` (${format})` : ''}`];
    }
    case 'screenshot.added':
      return ['uploaded the screenshot ', screenshotName(e, after.name)];
    case 'screenshot.updated':
      // A rename is said in the summary ("renamed from …"): the sentence names it as it is now.
      return ['changed the screenshot ', screenshotName(e, after.name ?? before.name)];
    case 'screenshot.deleted':
      return ['deleted the screenshot ', screenshotName(e, before.name)];
    case 'task.created':
      return ['created the task ', taskName(e, after)];
    case 'task.updated':
      return ['changed the task ', taskName(e, after, before)];
    case 'task.completed':
      return ['marked the task ', taskName(e, after, before), ' done'];
    case 'task.canceled':
      return ['canceled the task ', taskName(e, after, before)];
    case 'task.reopened':
      return ['opened the task ', taskName(e, after, before), ' again'];
    case 'task.deleted':
      return ['deleted the task ', taskName(e, before)];
    case 'cache.rebuild_requested':
      return ['asked to publish the translations (cache rebuild queued)'];
    case 'cache.built':
      return ['published the translations (cache built)'];
    case 'member.added':
      // An accepted invitation is recorded as the new member's own act.
      if (e.actor_type === 'user' && e.actor_id === e.entity_id) return [`joined the account as ${roleWords(after)}`];
      return ['added ', { name: str(after.email) ?? 'a member' }, ` as ${roleWords(after)}`];
    case 'member.invited':
      return [`invited someone as ${roleWords(after)}`];
    case 'member.invite_revoked':
      return [`revoked an unused invitation (${roleWords(before)})`];
    case 'member.updated': {
      const who = names.members?.[e.entity_id];
      return who ? ['changed the role of ', { name: who }, ` to ${roleWords(after)}`] : [`changed a member's role to ${roleWords(after)}`];
    }
    case 'member.removed': {
      const who = names.members?.[e.entity_id] ?? str(before.email);
      return who ? ['removed ', { name: who }, ` (${roleWords(before)})`] : [`removed a member (${roleWords(before)})`];
    }
    case 'webhook.created':
      return ['registered webhook ', webhookName(e, names, after.url)];
    case 'webhook.updated': {
      const fields = fieldsOf(before, after, {}, true);
      if (fields.length === 1 && fields[0] === 'enabled') return [`turned ${after.enabled ? 'on' : 'off'} webhook `, webhookName(e, names, after.url)];
      return ['changed webhook ', webhookName(e, names, after.url)];
    }
    case 'webhook.deleted':
      return ['deleted webhook ', webhookName(e, names, before.url)];
    case 'webhook.replayed':
      return ['sent a message of webhook ', webhookName(e, names), ' again'];
    case 'webhook.disabled':
      return ['turned off webhook ', webhookName(e, names), ', which kept failing'];
  }
  // A type this version does not know (or a value event without its key): said by its type.
  return [e.type, ' ', { name: e.entity_id.length > 40 ? e.entity_id.slice(0, 8) : e.entity_id }];
}

/** A task by its number and name as recorded (core/tasks: every event carries its number). */
function taskName(e: EventLike, payload: Payload, other: Payload = {}): Part {
  const number = num(payload.number) ?? num(other.number);
  const name = str(payload.name) ?? str(other.name);
  return { name: `${number !== null ? `#${number}` : short(e.entity_id)}${name ? ` ${name}` : ''}` };
}

/** What a task.* event changed (core/tasks/update-task.ts records each changed field before and after, and the keys added or removed as counts). */
function taskChanges(before: Payload, after: Payload): Part[] {
  const parts: string[] = [];
  const n = (field: string) => num(after[field]) ?? 0;
  if (str(after.name) && str(before.name)) parts.push(`renamed from ${before.name}`);
  if ('due_date' in after) parts.push(`due ${str(after.due_date) ?? 'no day'}${'due_date' in before ? ` (was ${str(before.due_date) ?? 'no day'})` : ''}`);
  if ('description' in after) parts.push('description changed');
  if ('assignees' in after) parts.push(`${count(strings(after.assignees)?.length ?? 0, 'assignee')} now`);
  if (n('keys_added')) parts.push(`${count(n('keys_added'), 'key')} added`);
  if (n('keys_removed')) parts.push(`${count(n('keys_removed'), 'key')} removed`);
  return parts.length ? [parts.join('; ')] : [];
}

/** A screenshot by its recorded name (its events carry it), else by the start of its id. */
const screenshotName = (e: EventLike, recorded: unknown): Part => ({ name: str(recorded) ?? short(e.entity_id) });

/**
 * What a screenshot.updated changed (core/screenshots/update-screenshot.ts records the key ids linked,
 * unlinked and given another region, and the name before and after): "linked 2 keys, unlinked 1,
 * moved 1 region; renamed from Sign-in". The keys are counted, not named: a screenshot shows up to
 * a hundred, and the screenshot's page names them.
 */
function screenshotChanges(before: Payload, after: Payload): Part[] {
  const n = (field: string) => strings(after[field])?.length ?? 0;
  const links = [
    n('linked') ? `linked ${count(n('linked'), 'key')}` : null,
    n('unlinked') ? `unlinked ${n('linked') ? n('unlinked') : count(n('unlinked'), 'key')}` : null,
    n('moved') ? `moved ${count(n('moved'), 'region')}` : null,
  ].filter(Boolean);
  const [was, now] = [str(before.name), str(after.name)];
  const renamed = was && now && was !== now ? [`renamed from `, { name: was }] : [];
  return [...(links.length ? [links.join(', ')] : []), ...(links.length && renamed.length ? ['; '] : []), ...renamed];
}

/** A glossary term by its recorded spelling (events carry it), else by the start of its id. */
const termName = (e: EventLike, recorded: unknown): Part => ({ name: str(recorded) ?? short(e.entity_id) });

/** A term's translations, each in its own language: de "Übersicht", fr "Tableau de bord". */
function termTranslations(x: unknown): Part[] {
  const entries = Object.entries(payload(x)).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.flatMap(([language, text], i) => [`${i ? ', ' : ''}${language} `, { text, language }]);
}

/**
 * What a term.updated changed besides its spelling: the fields recorded (only those that changed:
 * core/glossary/update-term.ts), a translation by language, added, changed or removed.
 */
function termChanges(before: Payload, after: Payload): Part[] {
  const parts: Part[][] = [];
  const yesNo = (x: unknown) => (x === true ? 'yes' : x === false ? 'no' : '?');
  if ('description' in after || 'description' in before) parts.push([`description: ${clip(before.description) ?? 'none'} → ${clip(after.description) ?? 'none'}`]);
  if ('case_sensitive' in after) parts.push([`case-sensitive: ${yesNo(before.case_sensitive)} → ${yesNo(after.case_sensitive)}`]);
  // Recorded as translatable; the form's words are "do not translate".
  const kept = (x: unknown) => yesNo(typeof x === 'boolean' ? !x : x);
  if ('translatable' in after) parts.push([`do not translate: ${kept(before.translatable)} → ${kept(after.translatable)}`]);
  if ('translations' in after || 'translations' in before) {
    const [was, now] = [payload(before.translations), payload(after.translations)];
    const languages = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort().filter((l) => was[l] !== now[l]);
    for (const language of languages) {
      const side = (x: unknown): Part[] => (typeof x === 'string' ? [{ text: x, language }] : ['none']);
      parts.push([`${language}: `, ...side(was[language]), ' → ', ...side(now[language])]);
    }
  }
  return parts.flatMap((p, i) => (i ? ['; ', ...p] : p));
}

/** A value's text and status: "Hallo" (draft), the text in its own language and direction. */
const valueWords = (x: Payload, language: string): Part[] => [{ text: typeof x.value === 'string' ? x.value : '', language }, ` (${str(x.status) ?? '?'})`];

/** Said for a value's text that its language's removal deleted (core/portal/activity.ts, `erased`). */
const ERASED = 'text deleted when the language was removed';

/** What the event changed, short: counts, old and new settings, a value's old and new text. Empty when the sentence says it all. */
export function summarizeChange(e: EventLike): Part[] {
  const before = payload(e.before);
  const after = payload(e.after);
  const value = valueTarget(e);
  switch (e.type) {
    case 'account.created':
      return [`${str(after.plan) ?? 'unknown'} plan`];
    case 'account.updated':
      return [settingChanges(before, after, fieldsOf(before, after, ACCOUNT_FIELDS, true), ACCOUNT_FIELDS)];
    case 'project.created':
      return [
        [str(after.source_language) ? `source language ${after.source_language}` : null, 'auto_rebuild' in after ? `auto rebuild: ${onOff(after.auto_rebuild)}` : null]
          .filter(Boolean)
          .join('; '),
      ];
    case 'project.updated':
      return [settingChanges(before, after, fieldsOf(before, after, PROJECT_FIELDS, false), PROJECT_FIELDS)];
    case 'api_key.created':
      return [apiKeyScope(after)];
    case 'key.created':
    case 'key.restored': {
      const description = clip(after.description);
      const tags = strings(after.tags);
      const limit = num(after.max_length);
      return [
        `in group ${str(after.group_name) ?? '?'}`,
        ...(description ? [`; description: ${description}`] : []),
        ...(tags?.length ? [`; tags: ${list(tags)}`] : []),
        ...(limit !== null ? [`; character limit: ${limit}`] : []),
      ];
    }
    case 'key.updated':
    case 'key.tagged': {
      const parts: string[] = [];
      if (before.group_name !== after.group_name) parts.push(`group: ${str(before.group_name) ?? 'none'} → ${str(after.group_name) ?? 'none'}`);
      if (before.description !== after.description) parts.push(`description: ${clip(before.description) ?? 'none'} → ${clip(after.description) ?? 'none'}`);
      // Tags (core/keys/update-key.ts records the whole row; a bulk tagging or an import only the tags,
      // with the key's name in after.key): the whole set before and after, as the key shows them.
      const [tagsBefore, tagsAfter] = [list(strings(before.tags)), list(strings(after.tags))];
      if (tagsBefore !== tagsAfter) parts.push(`tags: ${tagsBefore} → ${tagsAfter}`);
      // Events before migration 035 carry no limit: absent on both sides is no change.
      if ((before.max_length ?? null) !== (after.max_length ?? null)) parts.push(`character limit: ${num(before.max_length) ?? 'none'} → ${num(after.max_length) ?? 'none'}`);
      return [parts.join('; ') || 'nothing changed'];
    }
    case 'key.deleted':
      return [`${str(before.group_name) ? `from group ${before.group_name}, ` : ''}moved to the trash`];
    case 'group.renamed':
    case 'group.restored':
      return num(after.keys) === null ? [] : [count(num(after.keys)!, 'key')];
    case 'group.deleted':
      return num(before.keys) === null ? [] : [`${count(num(before.keys)!, 'key')} moved to the trash`];
    case 'language.removed':
      return num(before.values) === null ? [] : [`${count(num(before.values)!, 'value')} deleted`];
    case 'translation.written': {
      if (!value || e.after === null || e.after === undefined) break;
      if (e.erased) return [ERASED];
      return [...(e.before ? valueWords(before, value.language) : ['nothing']), ' → ', ...valueWords(after, value.language)];
    }
    case 'translation.deleted':
      if (!value) break;
      if (e.erased) return [ERASED];
      return ['was ', ...valueWords(before, value.language)];
    case 'value.marked_up_to_date':
      if (!value) break;
      return ['still ', ...valueWords(after, value.language)];
    case 'comment.added':
    case 'comment.deleted':
    case 'comment.resolved':
    case 'comment.reopened':
      // The value is named in the sentence; the comment's text is not recorded (core/comments/add-comment.ts).
      if (!value) break;
      return [];
    case 'translation.imported': {
      const n = (field: string) => num(after[field]) ?? 0;
      const counts = [count(n('keys_created'), 'new key'), count(n('values_created'), 'new value'), `${n('values_updated')} changed`];
      if (num(after.values_unchanged) !== null) counts.push(`${n('values_unchanged')} unchanged`);
      // Said when there are any (most formats carry none; older events have no count).
      if (n('descriptions_updated') > 0) counts.push(count(n('descriptions_updated'), 'description changed', 'descriptions changed'));
      const how = [str(after.status) ? `as ${after.status}` : null, after.conflict === 'keep' ? 'existing values kept' : null, num(after.translation_units) ? count(n('translation_units'), 'translation unit') : null].filter(Boolean);
      return [`${counts.join(', ')}${how.length ? ` (${how.join('; ')})` : ''}`];
    }
    case 'translation.machine_translated': {
      const n = (field: string) => num(after[field]) ?? 0;
      const sources = [`${n('from_memory')} from translation memory`, `${n('from_provider')} from ${str(after.provider) ?? 'the provider'}`];
      const units = num(after.translation_units) ? `; ${count(n('translation_units'), 'translation unit')}` : '';
      return [`${count(n('written'), 'value')} written${str(after.status) ? ` as ${after.status}` : ''}: ${sources.join(', ')}${units}`];
    }
    case 'term.added': {
      const translations = termTranslations(after.translations);
      return translations.length ? ['translations: ', ...translations] : e.after ? ['no translations yet'] : [];
    }
    case 'term.updated':
      return termChanges(before, after);
    case 'term.deleted':
      return [];
    case 'glossary.imported': {
      if (!e.after) return [];
      const n = (field: string) => num(after[field]) ?? 0;
      return [`${count(n('terms_created'), 'term')} added, ${n('terms_updated')} changed, ${count(n('translations_written'), 'translation')} written`];
    }
    case 'screenshot.added': {
      if (!e.after) return [];
      const [width, height] = [num(after.width), num(after.height)];
      const keys = strings(after.keys)?.length ?? 0;
      return [`${width !== null && height !== null ? `${width} × ${height} px; ` : ''}${keys ? `linked to ${count(keys, 'key')}` : 'no key linked yet'}`];
    }
    case 'screenshot.updated':
      return screenshotChanges(before, after);
    case 'screenshot.deleted':
      return [];
    case 'task.created': {
      if (!e.after) return [];
      const keys = num(after.keys) ?? 0;
      const due = str(after.due_date);
      return [`${after.kind === 'review' ? 'review' : 'translate'} ${count(keys, 'key')} in ${str(after.language) ?? '?'}${due ? `, due ${due}` : ''}`];
    }
    case 'task.updated':
    case 'task.completed':
    case 'task.canceled':
    case 'task.reopened':
      return taskChanges(before, after);
    case 'task.deleted':
      return [];
    case 'cache.rebuild_requested':
      return num(after.seq) === null ? [] : [`request ${after.seq}`];
    case 'cache.built':
      return num(after.seq) === null ? [] : [`everything up to request ${after.seq}`];
    case 'member.added':
      return [str(after.invite_id) ? 'through an invitation' : 'at setup'];
    case 'member.invited':
      return when(after.expires_at) ? [`the link works until ${when(after.expires_at)}`] : [];
    case 'member.updated':
      return [`${roleWords(before)} → ${roleWords(after)}`];
    case 'webhook.created':
      return [`events: ${list(strings(after.events))}`];
    case 'webhook.updated': {
      const parts = fieldsOf(before, after, {}, true).map((f) => {
        if (f === 'url') {
          const [from, to] = [urlHost(str(before.url)) ?? 'none', urlHost(str(after.url)) ?? 'none'];
          return from === to ? `url changed (same host, ${to})` : `url: ${from} → ${to}`;
        }
        if (f === 'events') return `events: ${list(strings(after.events))}`;
        if (f === 'description') return `description: ${clip(before.description) ?? 'none'} → ${clip(after.description) ?? 'none'}`;
        if (f === 'enabled') return after.enabled ? 'turned on' : 'turned off';
        return `${f.replaceAll('_', ' ')} changed`;
      });
      return [parts.join('; ') || 'nothing changed'];
    }
    case 'webhook.deleted':
      return [`it had events: ${list(strings(before.events))}`];
    case 'webhook.replayed':
      return str(after.replay_of) ? [`delivery ${short(String(after.replay_of))} queued again`] : [];
    case 'webhook.disabled':
      return when(after.failing_since) ? [`failing since ${when(after.failing_since)}`] : [];
    case 'api_key.revoked':
    case 'language.added':
    case 'member.invite_revoked':
    case 'member.removed':
      return [];
  }
  return unknownSummary(e.after ?? e.before);
}

/** A payload of an unknown type, as "field: value" pairs of its plain fields (never JSON). */
function unknownSummary(x: unknown): Part[] {
  const text = Object.entries(payload(x))
    .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${k.replaceAll('_', ' ')}: ${String(v)}`)
    .join(', ');
  return text ? [clipAt(text, 200)] : [];
}
