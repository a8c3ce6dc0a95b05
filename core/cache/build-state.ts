// Where a project's pending rebuild stands, from cache_state (the durable queue of
// core/adapters/rebuild-queue-postgres.ts; on AWS the same row, with SQS carrying the message).
// GET /v1/cache/status shows it beside the spec's fields, so that a client polling after a 202 sees
// that a build is coming (or failing) instead of a `ready: true` that still describes the old build.
import type { Sql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';

/**
 * What a client sees of a failed build. Never the error itself: it can name files, hosts or SQL of
 * the deployment. The server log has the details (`"msg":"rebuild failed"`).
 */
export const BUILD_FAILED_MESSAGE = 'The last build failed and is retried automatically; the server log has the details.';

/**
 * The SQS builder's last receive of a failing request: the message goes to the dead-letter queue
 * next, and nothing retries it by itself.
 */
export const BUILD_ABANDONED_MESSAGE =
  'The last build failed on every retry and is not retried any more; POST /v1/cache/rebuild to try again (the server log has the details).';

/**
 * idle: nothing pending. queued: a request waits for a worker (or for auto_rebuild's quiet time).
 * building: a worker holds the project now. failed: the last attempt failed and a retry is due.
 */
export type BuildStateName = 'idle' | 'queued' | 'building' | 'failed';

export type BuildState = {
  pending: boolean;
  build_state: BuildStateName;
  /** When the last attempt failed, while no build has succeeded since; null otherwise. */
  failed_at: string | null;
  last_error: string | null;
};

export async function readBuildState(sql: Sql, projectId: string): Promise<BuildState> {
  const [row] = await sql<{ pending: boolean; building: boolean; attempts: number; failed_at: string | null; last_error: string | null }[]>`
    select requested_seq > built_seq or exists (select 1 from rebuild_holds h where h.project_id = ${projectId}) as pending,
           coalesce(lease_until > now(), false) as building, attempts,
           case when failed_at is null then null else ${isoUtc(sql, 'failed_at')} end as failed_at, last_error
    from cache_state where project_id = ${projectId}`;
  if (!row) return { pending: false, build_state: 'idle', failed_at: null, last_error: null };
  const failed = row.attempts > 0;
  const build_state: BuildStateName = row.building ? 'building' : !row.pending ? 'idle' : failed ? 'failed' : 'queued';
  return { pending: row.pending, build_state, failed_at: failed ? row.failed_at : null, last_error: failed ? row.last_error : null };
}

/**
 * Records a failed build where no lease is held (the SQS builder): SQS itself schedules the retry,
 * until the message's receive count reaches the queue's redrive limit (`lastAttempt`): then it goes
 * to the dead-letter queue and the status says that no retry follows.
 */
export async function recordBuildFailure(sql: Sql, projectId: string, options: { lastAttempt?: boolean } = {}): Promise<void> {
  const message = options.lastAttempt ? BUILD_ABANDONED_MESSAGE : BUILD_FAILED_MESSAGE;
  await sql`
    update cache_state set attempts = attempts + 1, failed_at = now(), last_error = ${message}
    where project_id = ${projectId}`;
}
