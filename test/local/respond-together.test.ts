// The answers ready in one pass of the event loop leave together (functions/http/respond-together.ts):
// the first at once, the others at the pass's end, each with its own answer, and nothing held past
// the pass. Then through a real server: many clients at once, each gets its own answer.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respondTogether } from '../../functions/http/respond-together.ts';
import { useTestApp } from '../support/test-app.ts';

const nextPass = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('respondTogether', () => {
  it('answers one callback makes ready (one database reply) leave at once, together', async () => {
    const events: string[] = [];
    const answer = respondTogether(async (n: number) => `answer ${n}`);
    const all = [1, 2, 3].map((n) => answer(n).then((text) => events.push(text)));
    setImmediate(() => events.push('end of pass'));
    await Promise.all(all);
    await nextPass();
    expect(events).toEqual(['answer 1', 'answer 2', 'answer 3', 'end of pass']);
  });

  // Immediates queued before a check phase are callbacks of that one pass, as the sockets read in one
  // poll phase are. (Not 0 ms timers: on a busy machine a millisecond can pass between two of them,
  // and the later one then runs in the next pass; CI 2026-12-07.)
  const afterOwnCallback = (name: string) => new Promise<string>((resolve) => setImmediate(() => resolve(name)));

  it("an answer a later callback of the pass makes ready waits for the pass's end; the first does not", async () => {
    const events: string[] = [];
    const answer = respondTogether(afterOwnCallback);
    const a = answer('a').then((name) => events.push(name));
    const b = answer('b').then((name) => events.push(name));
    setImmediate(() => events.push('a later callback of the same pass'));
    await Promise.all([a, b]);
    expect(events).toEqual(['a', 'a later callback of the same pass', 'b']);
  });

  it('starts over in the next pass: its first answer goes at once again', async () => {
    const answer = respondTogether(afterOwnCallback);
    await Promise.all([answer('a'), answer('b')]);
    const events: string[] = [];
    const c = answer('c').then((name) => events.push(name));
    setImmediate(() => events.push('a later callback of the same pass'));
    await c;
    expect(events).toEqual(['c']);
  });

  it('an answer that waited for I/O is held only to the end of the pass it became ready in', async () => {
    const events: string[] = [];
    const answer = respondTogether(async (ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms;
    });
    const fast = [answer(0), answer(0)];
    const slow = answer(30).then((ms) => events.push(`slow ${ms}`));
    expect(await Promise.all(fast)).toEqual([0, 0]);
    events.push('fast ones answered');
    await slow;
    expect(events).toEqual(['fast ones answered', 'slow 30']);
  });

  it('passes a failure on at once, holding nothing', async () => {
    const answer = respondTogether(async (fail: boolean) => {
      if (fail) throw new Error('refused');
      return 'ok';
    });
    const results = await Promise.allSettled([answer(false), answer(true), answer(false)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
  });
});

/** A real server on a free loopback port answering through respondTogether; closed after the block. */
function serveTogether(fetch: () => (request: Request) => Response | Promise<Response>): { base: () => string } {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = serve({ fetch: respondTogether(fetch()), port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => server.once('listening', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return { base: () => base };
}

describe('respondTogether behind a real server', () => {
  const echo = new Hono().get('/echo/:n', (c) => c.json({ n: Number(c.req.param('n')) }));
  const { base } = serveTogether(() => echo.fetch);

  it('answers 200 clients at once, each with its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, n) => {
        const response = await fetch(`${base()}/echo/${n}`);
        return { status: response.status, body: (await response.json()) as { n: number } };
      }),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, n) => ({ status: 200, body: { n } })));
  });
});

describe('the API behind respondTogether', () => {
  const t = useTestApp();
  const { base } = serveTogether(() => t.app.fetch);

  it('a burst of refusals and health checks: every client its own status and envelope', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, async (_, n) => {
        const response = n % 2 ? await fetch(`${base()}/v1/keys`, { headers: { 'X-API-Key': `tms_not_a_key_${n}` } }) : await fetch(`${base()}/health`);
        return { n, status: response.status, body: (await response.json()) as Record<string, unknown> };
      }),
    );
    for (const { n, status, body } of answers) {
      if (n % 2) {
        expect(status).toBe(401);
        expect(body).toEqual({ detail: expect.any(String) });
      } else {
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'ok' });
      }
    }
  });
});
