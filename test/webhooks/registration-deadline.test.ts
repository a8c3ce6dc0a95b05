// An endpoint's host name is looked up when it is saved (a private address is refused then), within
// WEBHOOKS_TIMEOUT_MS: a resolver that never answers is a 422 at the deadline, not a request held
// for as long as the system's resolver retries. A resolver that never answers cannot run here, so
// node:dns/promises is replaced: names under `.stalled.test` never resolve; others are Node's own.
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (host: string, options: unknown) =>
    host.endsWith('.stalled.test') ? new Promise(() => {}) : (real.lookup as (h: string, o: unknown) => Promise<unknown>)(host, options);
  return { ...real, default: { ...real, lookup }, lookup };
});

const { useTestApp } = await import('../support/test-app.ts');
const t = useTestApp({ env: { WEBHOOKS_TIMEOUT_MS: '300' } });

describe("an endpoint whose host's name is never resolved", () => {
  it('is refused with a 422 on url at the deadline, on create and on update', async () => {
    const p = await t.newProject('business');
    let started = Date.now();
    const created = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'https://hooks.stalled.test/tms', events: ['cache.rebuilt'] });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(created.status).toBe(422);
    expect(await created.json()).toEqual({
      detail: [{ loc: ['body', 'url'], msg: 'url refused: the host hooks.stalled.test was not resolved within 300 ms', type: 'value_error' }],
    });

    const ok = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'https://93.184.215.14/tms', events: ['cache.rebuilt'] });
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    started = Date.now();
    const updated = await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${id}`, { url: 'https://other.stalled.test/tms' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(updated.status).toBe(422);
    const [row] = await t.runtime.deps.sql<{ url: string }[]>`select url from webhook_endpoints where id = ${id}`;
    expect(row!.url).toBe('https://93.184.215.14/tms');
  });
});
