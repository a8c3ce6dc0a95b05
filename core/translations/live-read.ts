// Live reads, live but cheap (docs/decisions.md, "Live reads stay live, but cheap"). Every request
// asks the database for the project's content version, in a statement sent after it arrived, so a
// read that starts after a write was answered sees it (the write's commit raised the version before
// its answer left).
// - A body the memo holds: the version alone decides whether it is current, and that question is
//   shared by every live read of the project that arrives meanwhile, whatever body it wants (keys,
//   groups, languages, the manifest; core/translations/live-flights.ts).
// - A body the memo lacks, or holds for a version the shared question found moved: one statement
//   for the version and the body, the body part gated on the version so that it runs only when
//   needed. Version and body come from one snapshot, so a body is never stored under a version it
//   does not match. Requests for one body that arrive together share that statement too.
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
  const { liveFlights, liveMemo } = deps;
  if (!liveMemo.get(memoKey)) return readShared(deps, projectId, memoKey, query, render);
  return liveFlights.run(versionFlight(projectId), () => projectVersion(deps.sql, projectId)).then((version) => {
    // Looked at again: a read that finished meanwhile may have stored this very version's body.
    const memoized = liveMemo.get(memoKey);
    return memoized && memoized.version === version ? memoized : readShared(deps, projectId, memoKey, query, render);
  });
}

/**
 * readNow, shared by the requests for one body that arrive while its statement is in flight. A
 * function of the module, not a closure made per request: under tsx, each named closure costs a
 * call that names it, on every request.
 */
function readShared<R extends object>(
  deps: LiveReadDeps,
  projectId: string,
  memoKey: string,
  query: (fresh: postgres.Fragment) => postgres.Fragment,
  render: (rows: R[]) => string,
): Promise<LiveBody> {
  return deps.liveFlights.run(memoKey, () => readNow(deps, projectId, memoKey, query, render));
}

/** The flight of a project's version question; memo keys start with the project id and a space. */
const versionFlight = (projectId: string) => `version ${projectId}`;

async function projectVersion(sql: Sql, projectId: string): Promise<string> {
  const [row] = await sql<{ version: string }[]>`${versionOf(sql, projectId)}`;
  return row!.version;
}

/** The project's content version: the sum of its slot rows (migration 007), as text. */
const versionOf = (sql: Sql, projectId: string) =>
  sql`select coalesce(sum(c.version), 0)::text as version from project_content_versions c where c.project_id = ${projectId}`;

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
    from (${versionOf(sql, projectId)}) v
    left join lateral (${query(sql`v.version <> ${known}`)}) b on true`;
  const version = rows[0]!.version;
  if (memoized && version === known) return memoized;
  const body = encoder.encode(render(rows)) as Uint8Array<ArrayBuffer>;
  const fresh: LiveBody = { version, body, etag: strongEtag(body) };
  liveMemo.set(memoKey, fresh);
  return fresh;
}
