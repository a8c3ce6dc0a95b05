// MT_TIME_LIMIT_MS: a bulk translation stops starting provider batches when a whole provider call
// (MT_TIMEOUT_MS) no longer fits in the limit, writes what came back, and counts the rest as
// `remaining`. On AWS the stacks set it below the functions' 20 s timeout (stacks/deploy-settings.ts),
// so a slow provider never outlives the function with its paid-for translations lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';
import { HTTP_FUNCTION_TIMEOUT_SECONDS, MT_TIME_LIMIT_MS, machineTranslationEnvironment, upgradeEnvironment } from '../../stacks/deploy-settings.ts';
import { loadConfig } from '../../core/config.ts';

let emulator: MtEmulator;
let t: TestApp & { close(): Promise<void> };

beforeAll(async () => {
  emulator = await startMtEmulator();
  t = await startTestApp({ env: { DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url, MT_TIMEOUT_MS: '1000', MT_TIME_LIMIT_MS: '1500' } });
});
afterAll(async () => {
  await t?.close();
  await emulator?.close();
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

describe('a bulk translation within MT_TIME_LIMIT_MS', () => {
  it('a slow provider: only the batches that fit run, what came back is written and charged, the rest is remaining for the next call', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    // 120 distinct source texts: three DeepL batches of at most 50.
    const source = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${String(i).padStart(3, '0')}`, `Text number ${i}`]));
    await json(await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(source) }));
    // Each answer 600 ms late: after the first batch a second one (up to 1,000 ms) no longer fits in 1,500 ms.
    emulator.delay(600);
    try {
      const before = emulator.calls.length;
      const first = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
      expect(first).toMatchObject({ translated: 50, from_provider: 50, translation_units: 50, remaining: 70, skipped: [] });
      expect(emulator.calls.length - before).toBe(1);
      const stored = (await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'))).translations as Record<string, unknown>;
      expect(Object.keys(stored)).toHaveLength(50);
      // The import's 120 source values, then the 50 from the provider.
      expect((await json(await t.call(p.apiKey, 'GET', '/v1/usage'))).translation_units_used).toBe(170);
      // only_missing (the default) resumes where it stopped.
      expect(await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 50, remaining: 20 });
      expect(await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 20, remaining: 0 });
    } finally {
      emulator.delay(0);
    }
  });

  it('without a limit (the default) every batch runs in one call', async () => {
    expect(loadConfig({}).MT_TIME_LIMIT_MS).toBe(0);
    const quick = await startTestApp({ env: { DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url, MT_TIMEOUT_MS: '1000' } });
    try {
      const q = await quick.newProject('team');
      for (const code of ['en', 'de']) await json(await quick.call(q.apiKey, 'POST', '/v1/languages', { code }));
      const source = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, `Text number ${i}`]));
      await json(await quick.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': q.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(source) }));
      emulator.delay(600);
      expect(await json(await quick.call(q.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 120, remaining: 0 });
    } finally {
      emulator.delay(0);
      await quick.close();
    }
  });
});

describe('what a deployed stage runs with (stacks/deploy-settings.ts)', () => {
  it('the translate and portal functions stop starting provider calls in time to answer before their timeout', () => {
    const env = machineTranslationEnvironment({ TMS_MT_PROVIDER: 'deepl' });
    const config = loadConfig(env);
    expect(config.MT_TIME_LIMIT_MS).toBe(MT_TIME_LIMIT_MS);
    // The last call starts with a whole MT_TIMEOUT_MS left in the limit, which leaves time to write.
    expect(config.MT_TIME_LIMIT_MS).toBeLessThan(HTTP_FUNCTION_TIMEOUT_SECONDS * 1000);
    expect(config.MT_TIMEOUT_MS * 2).toBeLessThanOrEqual(config.MT_TIME_LIMIT_MS);
    expect(machineTranslationEnvironment({ TMS_MT_TIMEOUT_MS: '5000' }).MT_TIMEOUT_MS).toBe('5000');
    // A provider timeout that could outlast the function is refused at deploy time.
    expect(() => machineTranslationEnvironment({ TMS_MT_TIMEOUT_MS: '30000' })).toThrow(/TMS_MT_TIMEOUT_MS must be .* from 1000 to 8000/);
    expect(() => machineTranslationEnvironment({ TMS_MT_TIMEOUT_MS: 'soon' })).toThrow(/TMS_MT_TIMEOUT_MS/);
  });

  it("a 402's upgrade_url leads to a page the deployed API serves: TMS_UPGRADE_URL, else the portal (/docs is not deployed)", () => {
    expect(loadConfig(upgradeEnvironment({})).UPGRADE_URL).toBe('/portal');
    expect(loadConfig(upgradeEnvironment({ TMS_UPGRADE_URL: 'https://example.com/pricing' })).UPGRADE_URL).toBe('https://example.com/pricing');
  });
});
