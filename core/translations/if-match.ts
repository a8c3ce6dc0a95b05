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

export const ifMatchFailed = (keyId: string, language: string, ifMatch: IfMatch, current: number | null) =>
  preconditionFailed(
    current === null
      ? `This key has no '${language}' value any more: it was deleted since you read it`
      : `The '${language}' value was changed since you read it (it is now at version ${current}): nothing was written`,
    [{ key_id: keyId, language, expected: ifMatch === '*' ? '*' : (ifMatch[0] ?? 0), current }],
  );
