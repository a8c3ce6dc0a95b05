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

// Whether an error means "unreachable" is the database boundary's knowledge (errors.ts).
export { isConnectionError } from './errors.ts';
