// If-Match on one value: the condition a write puts in its own statement, and the 412 it answers.
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { preconditionFailed } from '../errors.ts';
import type { IfMatch } from './schemas.ts';

/** SQL: true when the version expression satisfies If-Match (always, without one). */
export function versionGuard(sql: Sql, ifMatch: IfMatch | undefined, version: postgres.Fragment): postgres.Fragment {
  if (ifMatch === undefined) return sql`true`;
  if (ifMatch === '*') return sql`${version} is not null`;
  // An empty list (only weak or malformed tags were sent) matches nothing.
  return sql`coalesce(${version} = any(${ifMatch.map(String)}::bigint[]), false)`;
}

/**
 * SQL: true when the version expression satisfies If-None-Match (always, without one): the value
 * does not exist for `*`, or is at none of the listed versions.
 */
export function unlessVersion(sql: Sql, ifNoneMatch: IfMatch | undefined, version: postgres.Fragment): postgres.Fragment {
  return ifNoneMatch === undefined ? sql`true` : sql`not ${versionGuard(sql, ifNoneMatch, version)}`;
}

/** Whether a value at `current` (null: none) satisfies If-Match: which of two conditions refused a write. */
export const matchesIfMatch = (ifMatch: IfMatch, current: number | null) => current !== null && (ifMatch === '*' || ifMatch.includes(current));

export const ifMatchFailed = (keyId: string, language: string, ifMatch: IfMatch, current: number | null) =>
  preconditionFailed(
    current === null
      ? `This key has no '${language}' value any more: it was deleted since you read it`
      : `The '${language}' value was changed since you read it (it is now at version ${current}): nothing was written`,
    [{ key_id: keyId, language, expected: ifMatch === '*' ? '*' : (ifMatch[0] ?? 0), current }],
  );

/** If-None-Match on a write: `*` and the value exists, or the value is at one of the listed versions. */
export const ifNoneMatchFailed = (keyId: string, language: string, ifNoneMatch: IfMatch, current: number | null) =>
  preconditionFailed(
    current === null
      ? `The '${language}' value was written by someone else meanwhile: nothing was written`
      : ifNoneMatch === '*'
        ? `The '${language}' value already exists (version ${current}): nothing was written`
        : `The '${language}' value is at version ${current}, which If-None-Match excludes: nothing was written`,
    [{ key_id: keyId, language, expected: ifNoneMatch === '*' ? null : (ifNoneMatch[0] ?? 0), current }],
  );
