// Tags on keys (docs/decisions.md, "Tags on keys"): a key's labels beside its one group. A tag is
// taken as written (case kept: "iOS" is not "ios"), in NFC as names are, trimmed; commas separate
// tags where people type several at once (the portal's field, the CLI), so a tag has none.
import * as v from 'valibot';
import { hasAtLeastChars, hasAtMostChars, nfc, storableText } from '../validation.ts';

export const TAG_MAX_CHARS = 100;
export const TAGS_PER_KEY_MAX = 20;

/** One tag a request writes: 1 to 100 characters after trimming, no control characters, no comma. */
export const Tag = v.pipe(
  v.string('a tag must be a string'),
  v.transform((s) => nfc(s).trim()),
  v.check((s) => s.isWellFormed(), 'a tag contains an unpaired surrogate'),
  v.check((s) => hasAtLeastChars(s, 1), 'a tag must not be empty'),
  v.check((s) => hasAtMostChars(s, TAG_MAX_CHARS), `a tag is at most ${TAG_MAX_CHARS} characters`),
  v.check((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'a tag must not contain control characters'),
  v.check((s) => !s.includes(','), 'a tag must not contain a comma (commas separate tags)'),
  v.metadata({ minLength: 1, maxLength: TAG_MAX_CHARS }),
);

/** A key's whole set of tags as written: duplicates dropped, sorted, so that a set has one form. */
export const Tags = v.pipe(
  v.array(Tag, 'tags must be a list of strings'),
  v.transform(normalTags),
  v.check((tags) => tags.length <= TAGS_PER_KEY_MAX, `a key has at most ${TAGS_PER_KEY_MAX} tags`),
);

/** Tags added or removed by a bulk action: at least one. */
export const TagChanges = v.pipe(
  v.array(Tag, 'tags must be a list of strings'),
  v.maxLength(TAGS_PER_KEY_MAX, `name at most ${TAGS_PER_KEY_MAX} tags`),
  v.transform(normalTags),
);

/** Sorted (as JavaScript compares strings), duplicates dropped: the order every answer and event shows. */
export function normalTags(tags: string[]): string[] {
  return [...new Set(tags)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A filter's tag, in NFC and trimmed; one that could never be a tag matches no key (no error, as a group filter). */
export const TagLookup = v.pipe(
  v.string('tag must be given once'),
  storableText('tag', 1_000),
  v.transform((s) => nfc(s).trim()),
);
export const mayNameTag = (s: string) => v.is(Tag, s);

/**
 * Several keys' tag lists in one array parameter (a text[] of lists, split again in SQL by
 * string_to_array(list, chr(31))): tags hold no control character, so U+001F cannot be in one, and
 * an empty list is '' (string_to_array gives '{}').
 */
export const joinTags = (tags: string[]): string => tags.join('\u001f');

/** Tags typed as one text ("mobile, release-2.3"): split at commas, blanks dropped. */
export const splitTags = (text: string): string[] => text.split(',').map((t) => t.trim()).filter((t) => t !== '');
