// Wrong admin tokens are counted per client address as failed API keys are (AUTH_FAILURES_PER_MINUTE):
// past the limit the address is answered 429 with Retry-After, the right token included, on the admin
// API and on the portal's setup form, which checks the same token (and, after setup, would otherwise
// tell a right token, 409, from a wrong one, 401, for ever). One count for both doors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { hashPassword } from '../../core/users/password.ts';
import { ADMIN_TOKEN, startTestApp } from '../support/test-app.ts';
import { PortalClient } from '../portal/support/portal-client.ts';

const LIMIT = 5;
const PASSWORD = 'correct horse battery';

describe('wrong admin tokens from one address', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let address = '203.0.113.60';
  let app: ReturnType<typeof createApi>;
  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
    app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: () => address });
  });
  afterAll(async () => t?.close());

  const accounts = (authorization?: string) =>
    app.request('/admin/v1/accounts', { headers: authorization === undefined ? {} : { Authorization: authorization } });

  it('the admin API answers 401 up to the limit, then 429 in the envelope with Retry-After, even for the right token', async () => {
    address = '203.0.113.61';
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await accounts(`Bearer guess-${i}`)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), ...Array<number>(30 - LIMIT).fill(429)]);

    const refused = await accounts(`Bearer ${ADMIN_TOKEN}`);
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/too many failed authentications/i) });

    // Another address is not affected, nor is a caller whose address is unknown.
    address = '203.0.113.62';
    expect((await accounts(`Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    expect((await t.admin('GET', '/accounts')).status).toBe(200);
  });

  it('wrong tokens sent at once are counted as they are refused: exactly the limit gets 401', async () => {
    address = '203.0.113.66';
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => accounts(`Bearer parallel-${i}`)))).map((r) => r.status);
    expect({ 401: statuses.filter((s) => s === 401).length, 429: statuses.filter((s) => s === 429).length }).toEqual({ 401: LIMIT, 429: 30 - LIMIT });
  });

  it('a missing or malformed Authorization header counts as a failure too', async () => {
    address = '203.0.113.63';
    for (let i = 0; i < LIMIT; i++) expect((await accounts(i % 2 ? undefined : 'Basic abc')).status).toBe(401);
    expect((await accounts(`Bearer ${ADMIN_TOKEN}`)).status).toBe(429);
  });

  it("the portal's setup form, after setup: wrong tokens get 401, then the portal's 429 page with Retry-After, never 409 for the right one", async () => {
    await t.runtime.deps.sql`insert into users (email, password_hash) values ('owner@example.com', ${await hashPassword(PASSWORD)})`;
    address = '203.0.113.64';
    const browser = new PortalClient(app);
    expect((await browser.get('/portal/sign-in')).status).toBe(200);
    const setup = (token: string) =>
      browser.post('/portal/setup', { admin_token: token, email: 'someone@example.com', password: PASSWORD, account_name: 'Acme', plan: 'team' });
    for (let i = 0; i < LIMIT; i++) expect((await setup(`guess-${i}`)).status).toBe(401);
    const refused = await setup(ADMIN_TOKEN);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).toMatch(/too many failed authentications/i);
    // Still the portal's page, with its own headers.
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    expect(refused.headers.get('content-security-policy')).toContain("script-src 'self'");

    // The count is the admin API's too: that address is refused there as well.
    expect((await accounts(`Bearer ${ADMIN_TOKEN}`)).status).toBe(429);
    // From another address the right token meets "setup closed", as before.
    address = '203.0.113.65';
    expect((await setup(ADMIN_TOKEN)).status).toBe(409);
  });
});
