// Shared valibot building blocks. Limits count characters (Unicode code points, as Postgres'
// char_length does), not bytes or UTF-16 units: "👋" is one character.
import * as v from 'valibot';

export const countChars = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

// A character is one or two UTF-16 units, so the string's length bounds its count of characters
// from both sides: most checks are settled by the length alone, without walking the string (every
// request validates a key or group name this way, some twice).
/** Whether `s` has at least `min` characters. */
export const hasAtLeastChars = (s: string, min: number) => s.length >= 2 * min || countChars(s) >= min;
/** Whether `s` has at most `max` characters. */
export const hasAtMostChars = (s: string, max: number) => s.length <= max || countChars(s) <= max;

/**
 * A string Postgres can store: well-formed UTF-16 (no lone surrogates, which have no UTF-8 form)
 * and no NUL character (text columns refuse it). Both would otherwise surface as a 5xx.
 */
export const storableText = (field: string, max: number, min = 0) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.check((s) => s.isWellFormed(), `${field} contains an unpaired surrogate`),
    v.check((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`),
    v.check((s) => hasAtLeastChars(s, min), `${field} must be at least ${min} character${min === 1 ? '' : 's'}`),
    v.check((s) => hasAtMostChars(s, max), `${field} must be at most ${max.toLocaleString('en-US')} characters`),
    // The same limits for /openapi.json (JSON Schema counts code points too); no check of its own.
    v.metadata(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max }),
  );

/**
 * A name people give and read (an account, a project, an API key): trimmed, then 1 to `max`
 * characters without control characters. A name of spaces only was taken as given and showed as
 * blank in every list.
 */
export const labelText = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    storableText(field, max, 1),
    v.check((s) => !/[\u0000-\u001f\u007f]/.test(s), `${field} must not contain control characters`),
  );

// ASCII text is its own NFC (no character of it composes or decomposes): the test costs less than
// half of normalize()'s call, and nearly every name is ASCII.
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Key and group names compare in NFC, the form keyboards type (docs/decisions.md, "Names and
 * codes"): `café` written by a macOS tool in NFD (e + U+0301) names the same key as `café` typed.
 * Every name written is stored in NFC and every name a request reads by is taken in NFC. Values
 * are not names: they stay as written.
 */
export const nfc = (s: string) => (ASCII.test(s) ? s : s.normalize('NFC'));
/** A name a request reads or changes something by (a path's group or key, a filter's group), in NFC. */
export const LookupName = v.pipe(v.string(), v.transform(nfc));

// Lowercased: Postgres reads a UUID in capitals as the same id, and answers must name it the one way
// every listing does (a PUT to /v1/keys/5D78…/… answers key_id 5d78…).
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'), v.transform((s) => s.toLowerCase()));

/**
 * Group names, in NFC (as key names): 1 to 200 of letters, digits, spaces, -, _ and . (section 2), not edged by spaces, not
 * `.` or `..`. Letters include their combining marks (\p{M}): Hindi, Tamil or Bengali words write
 * vowel signs and viramas as marks (`हिन्दी`), and were refused; a name does not start with one.
 * Digits are decimal digits of any script (\p{Nd}: `0`, `٣`, `४`), not other numbers (`½`, `²`).
 */
export const GROUP_NAME_PATTERN = /^(?!\p{M})[\p{L}\p{M}\p{Nd} _.-]{1,200}$/u;
/**
 * What a stored group may be named: also numbers other than digits, which names written before
 * they were refused may hold. A path or filter naming one still finds it (to read, rename away or
 * delete); only names written (GroupName) follow the spec's alphabet.
 */
const STORED_GROUP_NAME_PATTERN = /^(?!\p{M})[\p{L}\p{M}\p{N} _.-]{1,200}$/u;
const groupName = (pattern: RegExp) =>
  v.pipe(
    v.string('group name must be a string'),
    v.transform(nfc),
    v.check((s) => hasAtLeastChars(s, 1) && hasAtMostChars(s, 200), 'group name must be 1 to 200 characters'),
    v.regex(pattern, 'group name may contain only letters, digits, spaces, hyphens, underscores and periods'),
    v.check((s) => s.trim() === s, 'group name must not start or end with a space'),
    // As for key names: URL parsing removes these path segments, so the group could never be addressed.
    v.check((s) => s !== '.' && s !== '..', "group name must not be '.' or '..'"),
    v.metadata({ minLength: 1, maxLength: 200 }),
  );
/** A group name a request writes (a new key's group, a rename's target, an import's group). */
export const GroupName = groupName(GROUP_NAME_PATTERN);
/** Whether a request's name may be written as a group name. */
export const isGroupName = (s: string) => v.is(GroupName, s);
export const StoredGroupName = groupName(STORED_GROUP_NAME_PATTERN);
/** Whether a group of this name can exist: reads, filters, deletes and restores ask this, not isGroupName. */
export const mayNameGroup = (s: string) => v.is(StoredGroupName, s);

/**
 * Key names, in NFC: 1 to 500 characters, no control characters (they break paths, files and logs), and
 * not `.` or `..`: URL parsing removes those path segments, so such a key could never be read alone.
 */
export const KeyName = v.pipe(
  v.string('key must be a string'),
  v.transform(nfc),
  storableText('key', 500, 1),
  v.check((s) => !/[\u0000-\u001f\u007f]/.test(s), 'key must not contain control characters'),
  v.check((s) => s !== '.' && s !== '..', "key must not be '.' or '..'"),
);
