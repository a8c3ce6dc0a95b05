import type { Deps } from '../deps.ts';

export type HealthReport = { status: 'ok' | 'degraded'; db: 'ok' | 'error'; redis: 'ok' | 'error' };

/** Each check gets its own short deadline, so a hanging dependency cannot hold /health. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_500;

async function within(ms: number, work: () => Promise<unknown>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'error'>((resolve) => {
    timer = setTimeout(() => resolve('error'), ms);
  });
  try {
    return await Promise.race([work().then(() => 'ok' as const, () => 'error' as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(deps: Pick<Deps, 'sql' | 'healthSql' | 'counters' | 'log'>): Promise<HealthReport> {
  // Its own connection where the process has one: the pool's may all be busy with long work.
  const sql = deps.healthSql ?? deps.sql;
  const [db, redis] = await Promise.all([
    within(HEALTH_CHECK_TIMEOUT_MS, () => sql`select 1`),
    within(HEALTH_CHECK_TIMEOUT_MS, () => deps.counters.ping()),
  ]);
  const status = db === 'ok' && redis === 'ok' ? 'ok' : 'degraded';
  if (status === 'degraded') deps.log.warn('health degraded', { db, redis });
  return { status, db, redis };
}
