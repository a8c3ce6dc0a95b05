// Live reads, live but cheap (docs/decisions.md, "Live reads: content version and memo"). Every
// request asks the database, in one statement, for the project's content version; the body query
// rides in the same statement, gated: it runs only when the version differs from the one the memo
// holds a body for. Version and body therefore come from one snapshot, so a body is never stored
// under a version it does not match, and a read that starts after a write was answered sees it
// (the write's commit raised the version before its answer left). Requests for one body that arrive
// together share one statement sent after all of them arrived (core/translations/live-flights.ts).
import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import type { LiveBody, LiveMemo } from './live-memo.ts';
import type { LiveFlights } from './live-flights.ts';

export type LiveReadDeps = { sql: Sql; liveMemo: LiveMemo; liveFlights: LiveFlights };

/** No memo entry: a version no project has, so the body query runs. */
const NONE = '-1';

const encoder = new TextEncoder();

/** A strong validator of the exact bytes (RFC 9110 8.8.3): 128 bits of SHA-256, base64url. */
export function strongEtag(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * The body of one live read, from the memo when the project's version has not moved, else built
 * now. `query(fresh)` is the body's select; it must AND `fresh` into its WHERE clause (the gate,
 * a condition on the outer version `v.version`), and may read `v.version`. `render` turns its rows
 * into the JSON text, or throws (a 404 is never memoized).
 */
export function liveRead<R extends object>(
  deps: LiveReadDeps,
  projectId: string,
  memoKey: string,
  query: (fresh: postgres.Fragment) => postgres.Fragment,
  render: (rows: R[]) => string,
): Promise<LiveBody> {
  return deps.liveFlights.run(memoKey, () => readNow(deps, projectId, memoKey, query, render));
}

/** One statement, sent now; what the memo holds is looked at now too, not when the request came. */
async function readNow<R extends object>(
  deps: LiveReadDeps,
  projectId: string,
  memoKey: string,
  query: (fresh: postgres.Fragment) => postgres.Fragment,
  render: (rows: R[]) => string,
): Promise<LiveBody> {
  const { sql, liveMemo } = deps;
  const memoized = liveMemo.get(memoKey);
  const known = memoized?.version ?? NONE;
  // The lateral subquery's gate has no column of its own level: Postgres plans it as a one-time
  // filter, so an unchanged version costs the version lookup alone.
  const rows = await sql<(R & { version: string })[]>`
    select v.version, b.*
    from (select coalesce(sum(c.version), 0)::text as version from project_content_versions c where c.project_id = ${projectId}) v
    left join lateral (${query(sql`v.version <> ${known}`)}) b on true`;
  const version = rows[0]!.version;
  if (memoized && version === known) return memoized;
  const body = encoder.encode(render(rows)) as Uint8Array<ArrayBuffer>;
  const fresh: LiveBody = { version, body, etag: strongEtag(body) };
  liveMemo.set(memoKey, fresh);
  return fresh;
}
