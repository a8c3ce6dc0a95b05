// The one SQL client: postgres.js, for PGlite (over its socket) and real Postgres alike.
import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export function createSql(
  url: string,
  options: {
    max: number;
    prepare: boolean;
    connectTimeoutSeconds: number;
    /** Server-side deadline per statement (Postgres statement_timeout); 0 or unset: none. */
    statementTimeoutMs?: number;
    /** A Unix socket file to connect through instead of the URL's host and port (the embedded database). */
    path?: string | undefined;
  },
): Sql {
  return postgres(url, {
    ...(options.path ? { path: options.path } : {}),
    max: options.max,
    // Transaction-mode poolers (PgBouncer, some RDS Proxy setups) cannot keep named statements.
    prepare: options.prepare,
    connect_timeout: options.connectTimeoutSeconds,
    // postgres.js waits before each reconnect, 3^failures / 100 s growing to 20 s by default: an
    // outage of a few seconds then held every call for as long, and kept the service down for up to
    // 20 s after the database was back. Waits of 50 ms doubling to 500 ms (with jitter) fail calls
    // fast while it is gone and reconnect within half a second of its return.
    backoff: (failures: number) => Math.min(0.05 * 2 ** failures, 0.5) * (0.5 + Math.random() / 2),
    idle_timeout: 60,
    onnotice: () => {},
    transform: { undefined: null },
    // A statement whose caller has gone (a request that timed out or was abandoned) must not go on
    // holding a connection and a core: Postgres ends any statement past this deadline. The builder
    // and migrations, which may legitimately run longer, raise it for their own transaction.
    connection: {
      application_name: 'tms',
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
  });
}

// Whether an error means "unreachable" is the database boundary's knowledge (errors.ts).
export { isConnectionError } from './errors.ts';
