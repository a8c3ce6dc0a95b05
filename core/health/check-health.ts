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

/**
 * On its own connection where the process has one, since the pool's may all be busy with long work;
 * and on the pool when that connection cannot be had (a server at max_connections, a database that
 * takes one connection), since the service is then still served by the pool.
 */
async function askDatabase(deps: Pick<Deps, 'sql' | 'healthSql'>): Promise<void> {
  if (deps.healthSql) {
    try {
      return await mustBeWritable(deps.healthSql);
    } catch {
      // Refused or broken: the pool decides.
    }
  }
  await mustBeWritable(deps.sql);
}

/**
 * A database that answers but takes no writes (the embedded one on a nearly full disk, a standby)
 * cannot do the service's work: degraded, as one that does not answer.
 */
async function mustBeWritable(sql: Deps['sql']): Promise<void> {
  const [row] = await sql<{ read_only: string }[]>`select current_setting('transaction_read_only') as read_only`;
  if (row?.read_only === 'on') throw new Error('the database is read-only');
}

export async function checkHealth(deps: Pick<Deps, 'sql' | 'healthSql' | 'counters' | 'log'>): Promise<HealthReport> {
  const [db, redis] = await Promise.all([
    within(HEALTH_CHECK_TIMEOUT_MS, () => askDatabase(deps)),
    within(HEALTH_CHECK_TIMEOUT_MS, () => deps.counters.ping()),
  ]);
  const status = db === 'ok' && redis === 'ok' ? 'ok' : 'degraded';
  if (status === 'degraded') deps.log.warn('health degraded', { db, redis });
  return { status, db, redis };
}
