import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { WriteInProject } from '../commands.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';

export type RebuildQueued = { project_id: string; status: 'queued'; message: string };

const RequestRebuildCommand = v.object({ ...WriteInProject });

/**
 * Records the request (bumping the project's request sequence) and queues it. Returns at once: the
 * build runs in the background, and its completion shows in GET /v1/cache/status.
 */
export const requestRebuild = useCase(
  RequestRebuildCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'queue'>, { projectId, actor }): Promise<RebuildQueued> => {
    const seq = await transaction(deps, async (tx) => {
      const [row] = await tx.sql<{ seq: number }[]>`
        insert into cache_state (project_id, requested_seq) values (${projectId}, 1)
        on conflict (project_id) do update set requested_seq = cache_state.requested_seq + 1
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
