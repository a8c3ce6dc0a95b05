// Finished deliveries (sent or given up) are kept WEBHOOKS_RETENTION_DAYS, then deleted by the
// worker (at its start and every ten minutes) and by the AWS sweep: each carries its whole signed
// body, and the table only grew. A pending delivery within its retry window (a day here) stays; one
// past it, which no attempt came to end (its webhook off), is given up first (disabled-endpoint-deliveries.test.ts).
import { describe, expect, it } from 'vitest';
import { createPostgresWebhookWorker } from '../../core/adapters/webhook-worker-postgres.ts';
import { pruneDeliveries } from '../../core/webhooks/prune-deliveries.ts';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETENTION_DAYS: '30', WEBHOOKS_POLL_MS: '60000' } });

async function deliveries(projectId: string, rows: { status: string; daysAgo: number }[]) {
  const created = await t.admin('POST', `/projects/${projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['cache.rebuilt'] });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (const [i, row] of rows.entries()) {
    await t.runtime.deps.sql`
      insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, next_attempt_at, created_at)
      values (${id}, ${projectId}, ${`msg_${i}`}, 'cache.rebuilt', '{}', ${row.status},
              ${row.status === 'pending' ? t.runtime.deps.sql`now() + interval '1 hour'` : null},
              now() - make_interval(days => ${row.daysAgo}))`;
  }
  return id;
}

const left = (endpointId: string) =>
  t.runtime.deps.sql<{ status: string; days: number }[]>`
    select status, round(extract(epoch from now() - created_at) / 86400)::int as days from webhook_deliveries
    where endpoint_id = ${endpointId} order by created_at`;

describe('finished webhook deliveries past their retention', () => {
  it('are deleted; newer ones and pending ones stay, and the delivery log no longer lists them', async () => {
    const p = await t.newProject('business');
    const endpoint = await deliveries(p.projectId, [
      { status: 'succeeded', daysAgo: 45 },
      { status: 'pending', daysAgo: 40 },
      { status: 'failed', daysAgo: 31 },
      { status: 'succeeded', daysAgo: 29 },
      { status: 'failed', daysAgo: 2 },
      { status: 'pending', daysAgo: 0 },
    ]);
    // The 40-day-old pending one, past its retry window, is given up and then past the retention.
    expect(await pruneDeliveries(t.runtime.deps)).toBe(3);
    expect(await left(endpoint)).toEqual([
      { status: 'succeeded', days: 29 },
      { status: 'failed', days: 2 },
      { status: 'pending', days: 0 },
    ]);
    const log = await t.admin('GET', `/projects/${p.projectId}/webhooks/${endpoint}/deliveries`);
    expect(((await log.json()) as { deliveries: unknown[] }).deliveries).toHaveLength(3);
    expect(await pruneDeliveries(t.runtime.deps)).toBe(0);
  });

  it('are deleted by a webhook worker when it starts', async () => {
    const p = await t.newProject('business');
    const endpoint = await deliveries(p.projectId, [
      { status: 'succeeded', daysAgo: 60 },
      { status: 'succeeded', daysAgo: 1 },
    ]);
    const worker = createPostgresWebhookWorker({ deps: t.runtime.deps, pollMs: 60_000, workerId: 'pruning' });
    for (let i = 0; i < 100 && (await left(endpoint)).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    await worker.drain();
    expect(await left(endpoint)).toEqual([{ status: 'succeeded', days: 1 }]);
  });
});
