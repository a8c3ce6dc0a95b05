// The Upstash client retries a request whose answer it did not get. When Upstash had run the
// increment and only its answer was lost (a reply past the deadline, a connection dropped on the way
// back), a plain INCRBY counted one API call twice: the account was billed two calls and neared
// its 429 faster. The increment names itself, so the retry answers the first result
// (core/adapters/counter-store-upstash.ts, INCREMENT_ONCE). Real Redis through the REST bridge, with
// a proxy in front that runs the first request and then drops its answer. Runs when REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createUpstashCounterStore } from '../../core/adapters/counter-store-upstash.ts';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.ts';

const redisUrl = process.env.REDIS_URL ?? '';
let bridge: UpstashBridge | undefined;
let proxy: Server | undefined;
afterAll(async () => {
  await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
  await bridge?.close();
});

describe.skipIf(!redisUrl)('upstash counter store, when an answer is lost', () => {
  it('counts one increment once: the retry answers the first result', async () => {
    bridge = await startUpstashBridge({ redisUrl, token: 't' });
    const target = new URL(bridge.url);
    let requests = 0;
    proxy = createServer((req, res) => {
      const n = ++requests;
      const forwarded = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          // The first request ran on the server; its answer never arrives.
          if (n === 1) return req.socket.destroy();
          res.writeHead(answer.statusCode ?? 500, answer.headers).end(Buffer.concat(chunks));
        });
      });
      req.pipe(forwarded);
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', () => r()));
    const prefix = `tms-test:${randomBytes(6).toString('hex')}:`;
    const store = createUpstashCounterStore({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: 't', keyPrefix: prefix, timeoutMs: 2_000 });
    const direct = createUpstashCounterStore({ url: bridge.url, token: 't', keyPrefix: prefix });

    const value = await store.increment('calls:acct', Math.floor(Date.now() / 1000) + 600);
    expect({ requests, value, stored: await direct.get('calls:acct') }).toEqual({ requests: 2, value: 1, stored: 1 });
    // Later increments count on as ever.
    expect(await direct.increment('calls:acct', Math.floor(Date.now() / 1000) + 600, 2)).toBe(3);
  });
});
