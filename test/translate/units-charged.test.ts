// Translation units of a bulk translation (spec section 8: unchanged strings never count): a text
// with no words is its own translation, copied without the provider and free; a re-translation
// costs a unit only for a text it changes. Both were charged (a review of 2026-11-29).
import { describe, expect, it } from 'vitest';
import type { MtEmulator } from '../support/mt-emulators.ts';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';
import { type TestProject } from '../support/test-app.ts';

let emulator: MtEmulator;
let t: StartedApp;
withDeeplTestApp((app, started) => {
  t = app;
  emulator = started;
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function setup(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

async function key(p: TestProject, name: string, source: string): Promise<string> {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: source, status: 'approved' }));
  return k.id;
}

const units = async (p: TestProject) => (await json(await t.call(p.apiKey, 'GET', '/v1/usage'))).translation_units_used as number;

describe('translation units of POST /v1/translate/{language}', () => {
  it('a value with no words ({count}, %1$s / %2$s) is copied without calling the provider, and costs nothing', async () => {
    const p = await setup();
    await key(p, 'count', '{count}');
    await key(p, 'pair', '%1$s / %2$s');
    const calls = emulator.calls.length;
    const dry = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { dry_run: true }));
    expect(dry.translation_units).toBe(0);
    const body = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(emulator.calls.length).toBe(calls); // the provider was never asked
    expect(body.translated).toBe(2);
    expect(body.translation_units).toBe(0);
    expect(await units(p)).toBe(0);
  });

  it('re-translating a draft (only_missing: false) costs a unit only when the text changes (spec: unchanged strings never count)', async () => {
    const p = await setup();
    await key(p, 'save', 'Save');
    const changed = await key(p, 'open', 'Open');
    // The emulator's translation of each, stored once as drafts; then one of them edited by hand.
    expect(await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 2, translation_units: 2 });
    const stored = (await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'))).translations as Record<string, { value: string }>;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${changed}/translations/de`, { value: 'Von Hand', status: 'draft' })).status).toBe(200);
    const again = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }));
    expect(again).toMatchObject({ from_provider: 2, translated: 2, translation_units: 1 });
    expect(await units(p)).toBe(3);
    const now = (await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'))).translations as Record<string, { value: string }>;
    expect(now.save!.value).toBe(stored.save!.value);
    expect(now.open!.value).toBe(stored.open!.value);
  });
});
