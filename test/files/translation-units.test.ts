// The monthly translation-unit quota (spec sections 7 and 8): refused whole past twice the
// allowance with the object detail, admin overrides, and exact counting under concurrency.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

const importFile = (t: TestApp, p: Project, values: Record<string, string>, query = '') =>
  t.app.request(`/v1/import/de${query}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(values),
  });
const values = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `${prefix} value ${i}`]));

async function setAllowance(p: Project, allowance: number | null) {
  const res = await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: allowance });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await body(res)).translation_unit_allowance).toBe(allowance);
}

describe('translation-unit quota', () => {
  it('allows up to twice the allowance, then refuses the whole import with QUOTA_EXCEEDED', async () => {
    const p = await project(t, ['de'], 'team');
    await setAllowance(p, 10);
    expect((await importFile(t, p, values('a', 15))).status).toBe(200); // 15 of 20
    const refused = await importFile(t, p, values('b', 6)); // would be 21
    expect(refused.status).toBe(402);
    const { detail } = await body(refused);
    expect(detail).toEqual({
      code: 'QUOTA_EXCEEDED',
      used: 21,
      limit: 20,
      reset_date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
      upgrade_url: expect.any(String),
    });
    expect((await body(await p.get('/v1/keys'))).count).toBe(15);
    // Exactly reaching the limit is allowed; unchanged values (memory hits) are free even then.
    expect((await importFile(t, p, values('c', 5))).status).toBe(200);
    expect((await importFile(t, p, values('a', 15))).status).toBe(200);
    const usage = await body(await p.get('/v1/usage'));
    expect(usage).toMatchObject({ translation_units_used: 20, translation_units_allowance: 10 });
  });

  it('a dry run over the limit answers 402 too, and spends nothing', async () => {
    const p = await project(t, ['de'], 'team');
    await setAllowance(p, 1);
    expect((await importFile(t, p, values('a', 3), '?dry_run=true')).status).toBe(402);
    expect((await importFile(t, p, values('a', 2), '?dry_run=true')).status).toBe(200);
    expect((await body(await p.get('/v1/usage'))).translation_units_used).toBe(0);
  });

  it('the free plan allows 1,000 units a month; null returns an override to the plan', async () => {
    const p = await project(t, ['de'], 'free');
    expect((await body(await p.get('/v1/usage'))).translation_units_allowance).toBe(1000);
    await setAllowance(p, 5);
    expect((await body(await p.get('/v1/usage'))).translation_units_allowance).toBe(5);
    await setAllowance(p, null);
    expect((await body(await p.get('/v1/usage'))).translation_units_allowance).toBe(1000);
  });

  it.skipIf(!usingRealPostgres())('16 parallel imports never pass twice the allowance and never refuse one below it', async () => {
    const p = await project(t, ['de'], 'team');
    // Limit 2 x 50 = 100 units; 16 imports of 10 new values each: exactly 10 fit.
    await setAllowance(p, 50);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => importFile(t, p, values(`p${i}-`, 10))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(6);
    expect((await body(await p.get('/v1/usage'))).translation_units_used).toBe(100);
    expect((await body(await p.get('/v1/keys'))).count).toBe(100);
  });
});
