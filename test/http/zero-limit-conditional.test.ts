// docs/rate-limits.md: "`0` refuses every call" (docs/decisions.md: "an override of 0 refuses
// everything (an operator's off switch)"). A conditional read on a fresh day was served 304 behind it.
import { describe, expect, it } from 'vitest';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import { silentLogger } from '../../core/log.ts';
import { createCallCounter } from '../../core/usage/count-call.ts';
import { createApi } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { useTestApp } from '../support/test-app.ts';
import { project } from '../translations/helpers.ts';

const t = useTestApp();

describe('daily_call_limit 0', () => {
  it('refuses a conditional read too (no 304 behind the off switch)', async () => {
    let now = Date.parse('2031-05-17T12:00:00Z');
    const app = createApi(
      { ...t.runtime.deps, calls: createCallCounter({ store: createMemoryCounterStore({ now: () => now }), log: silentLogger, now: () => now }) },
      allRouteGroups,
    );
    const p = await project(t, ['de'], 'team');
    const id = await p.key('home.title');
    await p.put(id, 'de', 'Hallo', 'approved');
    const first = await app.request('/v1/translations/de', { headers: { 'X-API-Key': p.apiKey } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;

    expect((await t.admin('PATCH', `/accounts/${p.accountId}`, { daily_call_limit: 0 })).status).toBe(200);
    now = Date.parse('2031-05-18T08:00:00Z'); // a new UTC day: nothing counted yet
    const plain = await app.request('/v1/translations/de', { headers: { 'X-API-Key': p.apiKey } });
    expect(plain.status).toBe(429);
    now = Date.parse('2031-05-19T08:00:00Z'); // another fresh day
    const revalidation = await app.request('/v1/translations/de', { headers: { 'X-API-Key': p.apiKey, 'If-None-Match': etag } });
    expect(revalidation.status).toBe(429);
  });
});
