// If-Match on a value's writes (RFC 9110 13.1.1): "*" or a list of entity tags. A value's ETag is
// its version, as a strong tag ("42"). Comparison is strong: a weak tag (W/"42") or anything that
// is not one of our tags matches nothing, so the write answers 412 instead of guessing.
import type { Context } from 'hono';
import type { IfMatch } from '../../core/translations/schemas.ts';
import { validationError } from '../../core/errors.ts';

export const versionEtag = (version: number) => `"${version}"`;

/**
 * A read value's ETag: its version, and `-outdated` while it is outdated (core/translations/
 * outdated.ts). A strong validator changes with the answer, and `outdated` changes without the
 * version (the source is rewritten, or the value marked up to date): a conditional GET must not
 * answer 304 then. As an If-Match or If-None-Match of a write, it names the version alone.
 */
export const readValueEtag = (version: number, outdated: boolean) => (outdated ? `"${version}-outdated"` : versionEtag(version));

// One element of an entity-tag list (RFC 9110 8.8.3, 5.6.1): [W/]"etagc*", then a comma or the end;
// empty elements are allowed. etagc takes commas, so the list cannot simply be split on them.
const TAG_LIST_ELEMENT = /[\t ]*(?:((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")[\t ]*)?(?:,|$)/y;

/** The entity-tags of a list field, or undefined when it is not one (no tag, or anything else in it). */
function entityTags(field: string): string[] | undefined {
  const tags: string[] = [];
  for (let at = 0; at < field.length; at = TAG_LIST_ELEMENT.lastIndex) {
    TAG_LIST_ELEMENT.lastIndex = at;
    const m = TAG_LIST_ELEMENT.exec(field);
    if (!m) return undefined;
    if (m[1]) tags.push(m[1]);
  }
  return tags.length > 0 ? tags : undefined;
}

/**
 * A field that is not a tag list matches nothing as a whole: `*, "42"` or `"42", junk` is no list,
 * and reading the one tag in it would make the write on a guess.
 */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '*') return '*';
  const versions: number[] = [];
  for (const tag of entityTags(text) ?? []) {
    const m = /^"(\d{1,15})(?:-outdated)?"$/.exec(tag);
    if (m) versions.push(Number(m[1]));
  }
  return versions;
}

export const ifMatchOf = (c: Context) => parseIfMatch(c.req.header('if-match'));

const malformedIfNoneMatch = () =>
  validationError([{ loc: ['header', 'If-None-Match'], msg: 'If-None-Match must be * or a list of entity-tags, such as "42"', type: 'etag_invalid' }]);

/**
 * If-None-Match on a write: "*" (create only) or the tags of versions the write must not overwrite.
 * Its comparison is weak (RFC 9110 13.1.2): W/"42" names version 42 as "42" does. A field that is
 * not an entity-tag list is refused (422): read as naming no version, it let through the write it
 * was sent to hold back (`42` unquoted, meaning "not over version 42"). docs/decisions.md.
 */
export function parseIfNoneMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '*') return '*';
  const tags = entityTags(text);
  if (!tags) throw malformedIfNoneMatch();
  const versions: number[] = [];
  for (const tag of tags) {
    const m = /^(?:W\/)?"(\d{1,15})(?:-outdated)?"$/.exec(tag);
    if (m) versions.push(Number(m[1]));
  }
  return versions;
}

type WriteConditions = { ifMatch?: IfMatch; ifNoneMatch?: IfMatch };
const UNCONDITIONAL: WriteConditions = Object.freeze({});

/**
 * A write's preconditions as sent. With both, both must hold: RFC 9110 13.2.2 evaluates
 * If-None-Match after an If-Match that held (only the date conditions are skipped).
 */
export function writeConditions(c: Context): WriteConditions {
  const ifMatch = ifMatchOf(c);
  const ifNoneMatch = parseIfNoneMatch(c.req.header('if-none-match'));
  if (ifMatch === undefined) return ifNoneMatch === undefined ? UNCONDITIONAL : { ifNoneMatch };
  return ifNoneMatch === undefined ? { ifMatch } : { ifMatch, ifNoneMatch };
}
