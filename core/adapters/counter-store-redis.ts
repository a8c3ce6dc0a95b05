// Counters in a self-hosted Redis, over TCP or its Unix socket. The quota check sits on every API
// request, so a slow or absent Redis must turn into a quick rejection the caller can fall back from,
// never a request that waits for a reconnect; the client keeps reconnecting in the background.
import { Redis, type RedisOptions } from 'ioredis';
import type { CounterStore } from '../ports/counter-store.ts';
import { redisConnection } from './redis-connection.ts';

export type RedisCounterStoreOptions = {
  url: string;
  /** Prepended to every key, so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Bound on waiting for a connection and on each command. */
  commandTimeoutMs?: number;
};

const MAX_RECONNECT_DELAY_MS = 1_000;

const INCREMENT_SCRIPT_NAME = 'tmsIncrementExpiring';
const INCREMENT_SCRIPT = `local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIREAT', KEYS[1], ARGV[2])
return value`;

export function createRedisCounterStore(options: RedisCounterStoreOptions): CounterStore {
  const keyPrefix = options.keyPrefix ?? '';
  const timeoutMs = options.commandTimeoutMs ?? 500;
  const clientOptions: RedisOptions = {
    commandTimeout: timeoutMs,
    // Callers never wait on this one (see whenReady); it only stops a connect to an unresponsive host
    // from holding the reconnect loop, and stays generous enough for a slow TLS handshake.
    connectTimeout: Math.max(timeoutMs, 1_000),
    // How long disconnect() lets a socket linger before destroying it (default 2 s); the timer keeps
    // the process alive, even when the socket was already dead.
    disconnectTimeout: timeoutMs,
    // Commands issued while disconnected fail at once instead of queueing for a reconnect that may
    // be minutes away; waiting for the first connection is done below, with a deadline.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command that timed out has already been reported as failed: replaying it after a reconnect
    // would count an API call the caller never saw counted.
    autoResendUnfulfilledCommands: false,
    // Short capped backoff: Redis coming back is noticed within a second.
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  };
  const connection = redisConnection(options.url);
  const redis = 'url' in connection ? new Redis(connection.url, clientOptions) : new Redis({ ...connection, ...clientOptions });
  // Failures reach callers as rejected promises; without a listener ioredis would also print every
  // reconnect failure to stderr.
  redis.on('error', () => {});
  // The count and its expiry in one script: atomic like MULTI/EXEC (no reader sees the count without
  // its expiry), but one command instead of four. ioredis's MULTI cost 21-30 us of the service's CPU
  // per increment here, the script 6-8 (docs/decisions.md, "Counting"). Sent as EVALSHA; ioredis
  // falls back to EVAL when Redis has lost its script cache (a restart, SCRIPT FLUSH).
  redis.defineCommand(INCREMENT_SCRIPT_NAME, { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  const incrementExpiring = (redis as unknown as Record<typeof INCREMENT_SCRIPT_NAME, (key: string, by: number, expireAt: number) => Promise<unknown>>)[INCREMENT_SCRIPT_NAME].bind(redis);

  let closed = false;

  function whenReady(): Promise<void> {
    if (closed) return Promise.reject(new Error('Redis counter store is closed'));
    switch (redis.status) {
      case 'ready':
        return Promise.resolve();
      case 'connecting':
      case 'connect':
        return waitForReady();
      default:
        // reconnecting, close, end: known to be down right now.
        return Promise.reject(new Error(`Redis counter store unavailable (${redis.status})`));
    }
  }

  // The first connection, or a reconnect already under way: worth a short wait. A refused
  // connection ('close') ends the wait at once rather than at the deadline.
  function waitForReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        redis.off('ready', onReady).off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => settle();
      const onClose = () => settle(new Error('Redis counter store unavailable (connection closed)'));
      const timer = setTimeout(
        () => settle(new Error(`Redis counter store not ready within ${timeoutMs} ms (${redis.status})`)),
        timeoutMs,
      );
      redis.once('ready', onReady).once('close', onClose);
    });
  }

  return {
    async increment(key, expireAtUnixSeconds, by = 1) {
      await whenReady();
      return Number(await incrementExpiring(keyPrefix + key, by, expireAtUnixSeconds));
    },
    async get(key) {
      await whenReady();
      const value = await redis.get(keyPrefix + key);
      return value === null ? 0 : Number(value);
    },
    async ping() {
      await whenReady();
      await redis.ping();
    },
    async close() {
      if (closed) return;
      closed = true;
      // QUIT lets in-flight replies arrive; it is bounded by commandTimeout, and disconnect() then
      // stops any reconnect loop whatever state the connection was in.
      if (redis.status === 'ready') await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}
