import type { Deps } from '../deps.ts';

export type RebuildQueued = { project_id: string; status: 'queued'; message: string };

/**
 * Records the request (bumping the project's request sequence) and queues it. Returns at once: the
 * build runs in the background, and its completion shows in GET /v1/cache/status.
 */
export async function requestRebuild(deps: Pick<Deps, 'sql' | 'queue'>, projectId: string): Promise<RebuildQueued> {
  const [row] = await deps.sql<{ seq: number }[]>`
    insert into cache_state (project_id, requested_seq) values (${projectId}, 1)
    on conflict (project_id) do update set requested_seq = cache_state.requested_seq + 1
    returning requested_seq::int as seq`;
  await deps.queue.send({ projectId, seq: row!.seq });
  return {
    project_id: projectId,
    status: 'queued',
    message: 'Rebuild queued. Poll GET /v1/cache/status until last_rebuilt_at changes and ready is true.',
  };
}
