import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { WriteInProject } from '../commands.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { AppError } from '../errors.ts';
import { BUILD_ABANDONED_MESSAGE } from './build-state.ts';

export type RebuildQueued = { project_id: string; status: 'queued'; message: string };

const RequestRebuildCommand = v.object({
  ...WriteInProject,
  /** auto_rebuild's timer: the process's hold of the project (holdRebuild), which this request replaces. */
  releaseHold: v.optional(v.string()),
});

/**
 * Records the request (bumping the project's request sequence) and queues it. Returns at once: the
 * build runs in the background, and its completion shows in GET /v1/cache/status. Once this commits
 * the request is durable: the Postgres queue reads it from cache_state, whichever process builds.
 * On SQS the message is sent before the commit: a refused send (an SQS outage) rolls the request
 * back and answers a dependency error, so the status never shows a queued build that no message
 * carries.
 */
export const requestRebuild = useCase(
  RequestRebuildCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'queue' | 'log'>, { projectId, actor, releaseHold }): Promise<RebuildQueued> => {
    const beforeCommit = deps.queue.sendBeforeCommit === true;
    let seq: number;
    try {
      seq = await transaction(deps, async (tx) => {
        // A request clears a failed build's backoff too (not_before): asked for, tried now. The
        // sequence goes past built_seq too: a build may have covered a sequence whose request rolled
        // back after its message was sent (SQS), and a later request must not count as covered by it.
        const [row] = await tx.sql<{ seq: number }[]>`
          insert into cache_state (project_id, requested_seq, not_before) values (${projectId}, 1, null)
          on conflict (project_id) do update set requested_seq = greatest(cache_state.requested_seq, cache_state.built_seq) + 1, not_before = null,
            -- A build the SQS builder gave up on (dead-lettered) is asked for anew: queued, not failed.
            attempts = case when cache_state.last_error = ${BUILD_ABANDONED_MESSAGE} then 0 else cache_state.attempts end,
            failed_at = case when cache_state.last_error = ${BUILD_ABANDONED_MESSAGE} then null else cache_state.failed_at end,
            last_error = case when cache_state.last_error = ${BUILD_ABANDONED_MESSAGE} then null else cache_state.last_error end
          returning requested_seq::int as seq`;
        if (releaseHold !== undefined) await tx.sql`delete from rebuild_holds where project_id = ${projectId} and holder = ${releaseHold}`;
        tx.record({ type: 'cache.rebuild_requested', projectId, actor, entity: { type: 'cache', id: projectId }, after: { seq: row!.seq } });
        if (beforeCommit) {
          // Last before the commit, so that little can roll the request back once its message is sent.
          await tx.flush();
          await sendOrRefuse(deps, { projectId, seq: row!.seq });
        }
        return row!.seq;
      });
    } catch (error) {
      // auto_rebuild's hold on SQS: no worker would ever take it, so it would show a pending build
      // for good. The request is refused; the hold goes with it (best effort).
      if (beforeCommit && releaseHold !== undefined) {
        await deps.sql`delete from rebuild_holds where project_id = ${projectId} and holder = ${releaseHold}`.catch(() => {});
      }
      throw error;
    }
    // After commit: a builder that picks the message up at once must see the new sequence.
    if (!beforeCommit) await deps.queue.send({ projectId, seq });
    return {
      project_id: projectId,
      status: 'queued',
      message: 'Rebuild queued. Poll GET /v1/cache/status until last_rebuilt_at changes and ready is true.',
    };
  },
);

async function sendOrRefuse(deps: Pick<Deps, 'queue' | 'log'>, message: { projectId: string; seq: number }) {
  try {
    await deps.queue.send(message);
  } catch (error) {
    deps.log.error('rebuild not queued', { project_id: message.projectId, seq: message.seq, error: String(error) });
    throw new AppError('dependency', 'The rebuild queue is unavailable: nothing was queued; retry shortly', { cause: error });
  }
}

/**
 * auto_rebuild's hold (core/cache/auto-rebuild.ts): a build of the project due in `holdMs` unless
 * this process's timer asks for one first (requestRebuild with releaseHold). One per process and
 * project (migration 026); a build made early for any other reason leaves it, so the writes it
 * stands for are built even if the process dies. A hold already there keeps its time. Returns how
 * many milliseconds the hold has left, as the database counts: writes made within them are covered.
 */
export async function holdRebuild(deps: Pick<Deps, 'sql'>, projectId: string, holder: string, holdMs: number): Promise<number> {
  // Two statements, in the order every request and claim locks them: the project's cache_state row,
  // then its hold. As one statement (the cache_state insert a CTE it never read, which Postgres runs
  // last) a renewal locked the hold, then waited on a request holding cache_state that wanted the
  // hold: a deadlock. Each statement alone waits on at most one of them.
  await deps.sql`insert into cache_state (project_id) values (${projectId}) on conflict (project_id) do nothing`;
  const [row] = await deps.sql<{ ms: number }[]>`
    insert into rebuild_holds (project_id, holder, held_until) values (${projectId}, ${holder}, now() + make_interval(secs => ${holdMs / 1000}))
    on conflict (project_id, holder) do update set held_until = rebuild_holds.held_until
    returning extract(epoch from held_until - now())::float8 * 1000 as ms`;
  return Number(row!.ms);
}
