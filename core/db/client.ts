// The one SQL client: postgres.js, for PGlite (over its socket) and real Postgres alike.
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { fromLibpqParameters } from './libpq-parameters.ts';

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
  const target = options.path ? { url, path: options.path } : fromLibpqParameters(url);
  return postgres(target.url, {
    ...(target.path ? { path: target.path } : severalHosts(url) ? {} : { socket: hangUpIsAnError }),
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

/**
 * The TCP connection to Postgres, opened as postgres.js would, except that the server closing it
 * cleanly (FIN without a Postgres error) is an error. postgres.js 3.4.9 answers such a close during
 * startup by reconnecting at once, forever, with the waiting query never settled and its connect
 * timeout restarted on every attempt (porsager/postgres#1193): an address that accepts and hangs up
 * (docker-proxy for a stopped container, HAProxy or a load balancer with no healthy backend, a
 * DATABASE_URL naming an HTTP port) hung every call and the start-up, and spun a core. As an error it
 * takes the path of a refused connection: the query fails at once, the pool backs off between
 * attempts, and it reconnects by itself once Postgres is back. A close this side began (idle
 * timeout, sql.end) stays a normal close. Multi-host URLs keep postgres.js's own connect.
 */
function hangUpIsAnError(options: { host: string[]; port: number[]; path?: string | false }): Socket {
  const host = options.host[0]!;
  const port = options.port[0]!;
  // Connects in the background as postgres.js's own socket does; what it writes meanwhile is
  // buffered, and its connect timeout covers the connection and the startup together.
  const socket = (options.path ? connect({ path: options.path }) : connect({ host, port })) as Socket & { host?: string; port?: number };
  socket.host = host;
  socket.port = port;
  socket.once('end', () => {
    if (socket.writableEnded) return;
    const error = Object.assign(new Error(`the server at ${host}:${port} closed the connection without a Postgres error`), {
      code: 'CONNECTION_CLOSED',
    });
    socket.destroy(error);
  });
  return socket;
}

/** postgres://u:p@host1:5432,host2:5432/db: postgres.js tries the hosts in turn, on its own sockets. */
function severalHosts(url: string): boolean {
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  return authority.slice(authority.lastIndexOf('@') + 1).includes(',');
}
