// The one SQL client: postgres.js, for PGlite (over its socket) and real Postgres alike.
import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export function createSql(
  url: string,
  options: { max: number; prepare: boolean; connectTimeoutSeconds: number },
): Sql {
  return postgres(url, {
    max: options.max,
    // Transaction-mode poolers (PgBouncer, some RDS Proxy setups) cannot keep named statements.
    prepare: options.prepare,
    connect_timeout: options.connectTimeoutSeconds,
    idle_timeout: 60,
    onnotice: () => {},
    transform: { undefined: null },
    connection: { application_name: 'tms' },
  });
}

/** Errors that mean the database could not be reached (as opposed to a query it refused). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('ECONN') ||
      code === 'ETIMEDOUT' ||
      code === 'EPIPE' ||
      code === 'ENOTFOUND' ||
      code === 'CONNECT_TIMEOUT' ||
      code === 'CONNECTION_CLOSED' ||
      code === 'CONNECTION_ENDED' ||
      code === 'CONNECTION_DESTROYED' ||
      code === '57P01' || // admin_shutdown
      code === '57P03') // cannot_connect_now
  );
}
