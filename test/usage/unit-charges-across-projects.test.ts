// An account's projects share its translation units: concurrent imports in four projects (real
// PostgreSQL: each charge is a conditional upsert of the account's row) pass exactly what twice
// the allowance holds, and refuse the rest with 402.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { body } from '../translations/helpers.ts';

const t = useTestApp();
const values = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `${prefix} value ${i}`]));

describe.runIf(usingRealPostgres())('concurrent charges across projects of one account', () => {
  it('parallel imports in 4 projects never pass twice the allowance', async () => {
    const first = await t.newProject('team');
    await t.admin('PATCH', `/accounts/${first.accountId}`, { translation_unit_allowance: 25 });
    const keys = [first.apiKey];
    for (let i = 0; i < 3; i++) {
      const r = await t.admin('POST', `/accounts/${first.accountId}/projects`, { name: `p${i}` });
      expect(r.status, await r.clone().text()).toBe(201);
      keys.push((await body(r)).api_key.key);
    }
    for (const k of keys) expect((await t.call(k, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => t.call(keys[i % 4], 'POST', '/v1/import/de', JSON.stringify(values(`k${i}-`, 5)))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(6);
    expect((await body(await t.call(first.apiKey, 'GET', '/v1/usage'))).translation_units_used).toBe(50);
  });
});
