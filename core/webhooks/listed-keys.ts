// What a bulk write (an import, a machine translation, a group's delete, rename or restore) records
// for webhooks about the keys it changed without an event of their own: the first KEYS_LISTED ids
// as `key_ids` in its event, beside its count. translations.changed names them as it names the keys
// of per-value events, and says `keys_truncated` when the count is more than the ids listed
// (core/webhooks/dispatch-outbox.ts). Kept here, free of imports, for the writers to share.

/** At most this many keys are named in one translations.changed, and listed by one bulk event. */
export const KEYS_LISTED = 1000;

/** The ids a bulk event lists: the first KEYS_LISTED. */
export const listedKeyIds = (ids: readonly string[]): string[] => ids.slice(0, KEYS_LISTED);

/**
 * The groups a bulk event lists (an import's): the first KEYS_LISTED, sorted, and `groups_truncated`
 * when there were more (translations.changed then says keys_truncated), so that one event of a file
 * with thousands of top-level prefixes stays bounded, in the database and in the payload.
 */
export const listedGroups = (groups: readonly string[]): { groups: string[]; groups_truncated?: true } =>
  groups.length > KEYS_LISTED ? { groups: groups.slice(0, KEYS_LISTED), groups_truncated: true } : { groups: [...groups] };
