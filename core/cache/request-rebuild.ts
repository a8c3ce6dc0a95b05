import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { WriteInProject } from '../commands.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';

export type RebuildQueued = { project_id: string; status: 'queued'; message: string };

const RequestRebuildCommand = v.object({
  ...WriteInProject,
  /**
   * Not before this many milliseconds (auto_rebuild's hold, core/cache/auto-rebuild.ts); unset: as
   * soon as a worker is free. It never delays a request that is already due and waiting (one that a
   * running build took is not waiting: later writes wait for the delay).
   */
  delayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600 * 1000))),
});

/**
 * Records the request (bumping the project's request sequence) and queues it. Returns at once: the
 * build runs in the background, and its completion shows in GET /v1/cache/status. Once this commits
 * the request is durable: the Postgres queue reads it from cache_state, whichever process builds.
 */
export const requestRebuild = useCase(
  RequestRebuildCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'queue'>, { projectId, actor, delayMs }): Promise<RebuildQueued> => {
    const seq = await transaction(deps, async (tx) => {
      // A due request (not_before null) clears a failed build's backoff too: asked for, tried now.
      const notBefore = delayMs ? tx.sql`now() + make_interval(secs => ${delayMs / 1000})` : tx.sql`null`;
      const [row] = await tx.sql<{ seq: number }[]>`
        insert into cache_state (project_id, requested_seq, not_before) values (${projectId}, 1, ${notBefore})
        on conflict (project_id) do update set
          requested_seq = cache_state.requested_seq + 1,
          not_before = case
            when ${delayMs === undefined} then null
            when cache_state.requested_seq > cache_state.built_seq and cache_state.not_before is null
              and (cache_state.lease_until is null or cache_state.lease_until <= now()) then null
            else excluded.not_before
          end
        returning requested_seq::int as seq`;
      tx.record({ type: 'cache.rebuild_requested', projectId, actor, entity: { type: 'cache', id: projectId }, after: { seq: row!.seq } });
      return row!.seq;
    });
    // After commit: a builder that picks the message up at once must see the new sequence.
    await deps.queue.send({ projectId, seq });
    return {
      project_id: projectId,
      status: 'queued',
      message: 'Rebuild queued. Poll GET /v1/cache/status until last_rebuilt_at changes and ready is true.',
    };
  },
);
