// One attempt's timeout covers the name lookup too. A resolver that never answers cannot run here,
// so node:dns/promises is replaced: names under `.stalled.test` never resolve, names under
// `.slow.test` resolve to loopback after 1 s; every other name is Node's own lookup.
import { createServer, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (host: string, options: unknown) => {
    if (host.endsWith('.stalled.test')) return new Promise(() => {});
    if (host.endsWith('.slow.test')) return new Promise((resolve) => setTimeout(resolve, 1_000, [{ address: '127.0.0.1', family: 4 }]));
    return (real.lookup as (h: string, o: unknown) => Promise<unknown>)(host, options);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const { sendWebhook } = await import('../../core/webhooks/send-webhook.ts');

describe('a webhook attempt\'s timeout', () => {
  it('ends an attempt whose host name is never resolved, at the timeout, saying so', async () => {
    const started = Date.now();
    const result = await sendWebhook({ url: 'https://hooks.stalled.test/tms', headers: {}, body: '{}', timeoutMs: 200, allowPrivate: false });
    const took = Date.now() - started;
    expect(result).toEqual({ ok: false, statusCode: null, error: "no complete answer within 200 ms (the host's name was not resolved in time)" });
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(2_000);
  });

  it('counts the lookup\'s time against the attempt: a slow lookup leaves only the rest for the answer', async () => {
    // A server that accepts and never answers: the attempt ends at the timeout, 2 s after it began,
    // not 2 s after the 1 s lookup. The second between the lookup and the deadline is wide so that a
    // loaded CI machine, whose event loop can stall for a few hundred ms, still connects before the
    // deadline fires (with 200 ms between them, one CI run saw both timers fire in one turn).
    const sockets: Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const started = Date.now();
      const result = await sendWebhook({ url: `http://hooks.slow.test:${port}/tms`, headers: {}, body: '{}', timeoutMs: 2_000, allowPrivate: true });
      const took = Date.now() - started;
      expect(result).toEqual({ ok: false, statusCode: null, error: 'no complete answer within 2000 ms' });
      expect(sockets.length).toBe(1);
      expect(took).toBeGreaterThanOrEqual(1_990);
      expect(took).toBeLessThan(2_700);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
