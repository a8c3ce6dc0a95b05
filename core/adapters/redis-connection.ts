// What REDIS_URL names, as the Redis client takes it: `redis://` or `rediss://` over TCP (the client
// reads those itself), or `unix:///run/redis/redis.sock` for a Redis on the same machine, through its
// Unix socket. The socket skips the loopback's TCP stack on both sides of every round trip
// (docs/decisions.md, "On one machine, through Unix sockets"). The `unix:` form is the one redis-py and
// Sidekiq read: the socket file's path, and `db`, `username` and `password` as query parameters.

export type RedisConnection = { url: string } | { path: string; db?: number; username?: string; password?: string };

const SOCKET_PARAMETERS = new Set(['db', 'username', 'password']);

/** Why `url`, a well-formed `unix:` URL, cannot be connected to (undefined: it can, or it is TCP). */
export function unusableRedisUrl(url: string): string | undefined {
  // A malformed URL is the scheme check's to name (it runs beside this one).
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'unix:') return undefined;
  if (parsed.host !== '') {
    return `a unix: URL names the socket file, e.g. unix:///run/redis/redis.sock, not a host ("${parsed.host}")`;
  }
  if (!parsed.pathname.startsWith('/') || parsed.pathname === '/') {
    return 'a unix: URL must name the socket file by its absolute path, e.g. unix:///run/redis/redis.sock';
  }
  try {
    decodeURIComponent(parsed.pathname);
  } catch {
    return "the socket file's path in the unix: URL has a % not followed by two hex digits (write % as %25)";
  }
  for (const name of parsed.searchParams.keys()) {
    if (!SOCKET_PARAMETERS.has(name)) return `unknown parameter "${name}" in the unix: URL (db, username and password are read)`;
  }
  const db = parsed.searchParams.get('db');
  if (db !== null && !/^\d{1,5}$/.test(db)) return `db must be a database number, e.g. ?db=0 (got "${db}")`;
  return undefined;
}

/** The client's connection for a REDIS_URL that configuration has accepted. */
export function redisConnection(url: string): RedisConnection {
  const parsed = new URL(url);
  if (parsed.protocol !== 'unix:') return { url };
  const db = parsed.searchParams.get('db');
  const username = parsed.searchParams.get('username');
  const password = parsed.searchParams.get('password');
  return {
    path: decodeURIComponent(parsed.pathname),
    ...(db !== null ? { db: Number(db) } : {}),
    ...(username !== null ? { username } : {}),
    ...(password !== null ? { password } : {}),
  };
}
