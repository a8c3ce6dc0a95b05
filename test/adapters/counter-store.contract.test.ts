// One contract for every CounterStore adapter. Memory always runs; Redis and Upstash (through the
// REST bridge to the same Redis) run when REDIS_URL is set, e.g. REDIS_URL=redis://127.0.0.1:6379.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCounterStore } from '../../core/adapters/counter-store.ts';
import { coalesceCounterStore } from '../../core/adapters/counter-store-coalescing.ts';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import { createRedisCounterStore } from '../../core/adapters/counter-store-redis.ts';
import { createUpstashCounterStore } from '../../core/adapters/counter-store-upstash.ts';
import { loadConfig } from '../../core/config.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';
import { startUpstashBridge } from '../support/upstash-bridge.ts';

const redisUrl = process.env.REDIS_URL ?? '';
// Unique per run, so runs sharing one Redis never see each other's counters.
const runPrefix = `tms-test:${randomUUID()}:`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
// Counters the tests leave in a shared Redis expire by themselves.
const inAMinute = () => nowSeconds() + 60;

type OpenedStore = { store: CounterStore; dispose?: () => Promise<void> };

function counterStoreContract(open: () => Promise<OpenedStore>) {
  let opened: OpenedStore | undefined;
  const store = () => {
    if (!opened) throw new Error('store not opened');
    return opened.store;
  };
  let keys = 0;
  const freshKey = (label: string) => `${label}:${++keys}`;

  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.store.close();
    await opened?.dispose?.();
  });

  it('starts an absent counter at 1', async () => {
    expect(await store().increment(freshKey('absent'), inAMinute())).toBe(1);
  });

  it('adds increments up', async () => {
    const key = freshKey('sum');
    for (const expected of [1, 2, 3]) expect(await store().increment(key, inAMinute())).toBe(expected);
    expect(await store().get(key)).toBe(3);
  });

  it('increments by the given amount', async () => {
    const key = freshKey('by');
    expect(await store().increment(key, inAMinute(), 5)).toBe(5);
    expect(await store().increment(key, inAMinute(), 3)).toBe(8);
    expect(await store().get(key)).toBe(8);
  });

  it('reads an absent counter as 0', async () => {
    expect(await store().get(freshKey('never-written'))).toBe(0);
  });

  it('rejects a fractional increment', async () => {
    await expect(store().increment(freshKey('fraction'), inAMinute(), 1.5)).rejects.toThrow();
  });

  it('forgets a counter once its expiry passes, then starts again at 1', async () => {
    const key = freshKey('expiry');
    const expireAt = nowSeconds() + 2;
    expect(await store().increment(key, expireAt)).toBe(1);
    expect(await store().get(key)).toBe(1);
    await sleep(expireAt * 1000 - Date.now() + 100);
    expect(await store().get(key)).toBe(0);
    expect(await store().increment(key, inAMinute())).toBe(1);
  });

  it('answers ping', async () => {
    await expect(store().ping()).resolves.toBeUndefined();
  });

  it('hands out 1..32 to 32 concurrent increments (atomic)', async () => {
    const key = freshKey('concurrent');
    const values = await Promise.all(Array.from({ length: 32 }, () => store().increment(key, inAMinute())));
    expect(values.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(await store().get(key)).toBe(32);
  });
}

describe('memory counter store', () => {
  counterStoreContract(async () => ({ store: createMemoryCounterStore() }));

  it('sweeps expired counters so memory stays bounded', async () => {
    let now = 0;
    const store = createMemoryCounterStore({ now: () => now });
    for (let i = 0; i < 100; i++) await store.increment(`day-1:${i}`, 10);
    expect(store.size()).toBe(100);
    now = 10_000;
    expect(await store.get('day-1:0')).toBe(0);
    now = 61_000;
    await store.increment('day-2', 100_000);
    expect(store.size()).toBe(1);
  });
});

describe.skipIf(!redisUrl)('redis counter store', () => {
  counterStoreContract(async () => ({
    store: createRedisCounterStore({ url: redisUrl, keyPrefix: `${runPrefix}redis:` }),
  }));
});

// REDIS_URL=unix:///…: a Redis of its own that listens on a socket file and on no TCP port. Needs
// the redis-server binary, which machines that set REDIS_URL have.
describe.skipIf(!redisUrl)('redis counter store, through a Unix socket', () => {
  let server: SocketRedis | undefined;
  counterStoreContract(async () => {
    server = await startRedisServerOnSocket();
    return {
      store: coalesceCounterStore(createRedisCounterStore({ url: `unix://${server.path}?db=3`, keyPrefix: runPrefix })),
      dispose: server.stop,
    };
  });

  it('counts in the database the URL names, configured as the service is', async () => {
    const store = createCounterStore(loadConfig({ REDIS_URL: `unix://${server!.path}?db=5`, REDIS_KEY_PREFIX: runPrefix }));
    const check = new Redis({ path: server!.path, db: 5 });
    try {
      expect(await store.increment('in-db-5', inAMinute(), 4)).toBe(4);
      expect(await check.get(`${runPrefix}in-db-5`)).toBe('4');
      expect(await check.select(0).then(() => check.get(`${runPrefix}in-db-5`))).toBeNull();
    } finally {
      check.disconnect();
      await store.close();
    }
  });
});

// What createCounterStore hands out for Redis and Upstash: the same contract must hold through it.
describe('coalescing counter store, over memory', () => {
  counterStoreContract(async () => ({ store: coalesceCounterStore(createMemoryCounterStore()) }));
});

describe.skipIf(!redisUrl)('coalescing counter store, over redis', () => {
  counterStoreContract(async () => ({
    store: coalesceCounterStore(createRedisCounterStore({ url: redisUrl, keyPrefix: `${runPrefix}coalesced:` })),
  }));
});

describe.skipIf(!redisUrl)('upstash counter store, through the REST bridge', () => {
  counterStoreContract(async () => {
    const token = randomUUID();
    const bridge = await startUpstashBridge({ redisUrl, token });
    const store = createUpstashCounterStore({ url: bridge.url, token, keyPrefix: `${runPrefix}upstash:` });
    return { store, dispose: bridge.close };
  });
});

describe('counter store faults', () => {
  it('redis: rejects quickly when nothing listens, and closes without hanging', async () => {
    const store = createRedisCounterStore({ url: `redis://127.0.0.1:${await freePort()}` });
    await expectQuickRejection(() => store.increment('k', inAMinute()));
    await expectQuickRejection(() => store.ping());
    expect(await elapsedMs(() => store.close())).toBeLessThan(2000);
  });

  it('upstash: rejects quickly when nothing listens', async () => {
    const store = createUpstashCounterStore({ url: `http://127.0.0.1:${await freePort()}`, token: 't' });
    await expectQuickRejection(() => store.increment('k', inAMinute()));
    await expectQuickRejection(() => store.ping());
  });

  it('redis: rejects quickly when the server accepts but never answers', async () => {
    const silent = await startSilentServer();
    const store = createRedisCounterStore({ url: `redis://127.0.0.1:${silent.port}` });
    try {
      await expectQuickRejection(() => store.increment('k', inAMinute()));
      await expectQuickRejection(() => store.ping());
      expect(await elapsedMs(() => store.close())).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  it('upstash: rejects quickly when the server accepts but never answers', async () => {
    const silent = await startSilentServer();
    const store = createUpstashCounterStore({ url: `http://127.0.0.1:${silent.port}`, token: 't', timeoutMs: 300 });
    try {
      await expectQuickRejection(() => store.increment('k', inAMinute()));
      await expectQuickRejection(() => store.ping());
    } finally {
      await silent.close();
    }
  });

  it.skipIf(!redisUrl)('upstash: rejects a wrong token', async () => {
    const bridge = await startUpstashBridge({ redisUrl, token: 'right' });
    try {
      const store = createUpstashCounterStore({ url: bridge.url, token: 'wrong' });
      await expect(store.ping()).rejects.toThrow(/Unauthorized/);
    } finally {
      await bridge.close();
    }
  });

  // Needs the redis-server binary, which machines that set REDIS_URL have.
  it.skipIf(!redisUrl)('redis: recovers by itself when Redis goes away and comes back', async () => {
    const port = await freePort();
    let server = await startRedisServer(port);
    const store = createRedisCounterStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: runPrefix });
    try {
      expect(await store.increment('recovery', inAMinute())).toBe(1);

      await stopProcess(server);
      await expectQuickRejection(() => store.increment('recovery', inAMinute()));
      await expectQuickRejection(() => store.ping());

      server = await startRedisServer(port);
      // Reconnection runs on the adapter's own backoff (capped at 1 s); nothing here prods it.
      await vi.waitFor(() => store.ping(), { timeout: 5_000, interval: 50 });
      // A fresh server without persistence: the counter starts over.
      expect(await store.increment('recovery', inAMinute())).toBe(1);
    } finally {
      await store.close();
      await stopProcess(server);
    }
  });
});

async function elapsedMs(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

async function expectQuickRejection(call: () => Promise<unknown>): Promise<void> {
  const elapsed = await elapsedMs(() => expect(call()).rejects.toThrow());
  expect(elapsed).toBeLessThan(2000);
}

/** A port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Accepts TCP connections and never writes a byte: a hung server, for timeout tests. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type SocketRedis = { path: string; stop: () => Promise<void> };

async function startRedisServerOnSocket(): Promise<SocketRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-redis-'));
  const path = join(dir, 'redis.sock');
  const child = spawn('redis-server', ['--port', '0', '--unixsocket', path, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', reject));
  await Promise.race([spawnFailed, vi.waitFor(() => canConnectTo({ path }), { timeout: 5_000, interval: 25 })]);
  return {
    path,
    stop: async () => {
      await stopProcess(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', reject));
  await Promise.race([spawnFailed, vi.waitFor(() => canConnect(port), { timeout: 5_000, interval: 25 })]);
  return child;
}

const canConnect = (port: number) => canConnectTo({ host: '127.0.0.1', port });

function canConnectTo(to: { host: string; port: number } | { path: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(to);
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
