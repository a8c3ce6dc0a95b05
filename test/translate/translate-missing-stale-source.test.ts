// Translate missing reads the source texts, asks the provider (seconds), then writes: each translation
// is written against the source text it was made from, so a source changed while the provider worked
// leaves the new translation outdated.
import { describe, expect, it } from 'vitest';
import type { MtEmulator } from '../support/mt-emulators.ts';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';

let emulator: MtEmulator;
let t: StartedApp;
withDeeplTestApp((app, started) => {
  t = app;
  emulator = started;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Translate missing while the source text changes', () => {
  it('a translation of the old source text is outdated against the new one', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const { id } = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'hello' })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Hello world', status: 'approved' })).status).toBe(200);

    emulator.delay(1500);
    let res: Response;
    try {
      const pending = t.call(p.apiKey, 'POST', '/v1/translate/de', {});
      await sleep(500);
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Goodbye, cruel world', status: 'approved' })).status).toBe(200);
      res = await pending;
    } finally {
      emulator.delay(0);
    }
    expect(res.status, await res.clone().text()).toBe(200);
    const de = (await (await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`)).json()) as { value: string; outdated: boolean };
    // Written: the machine's translation of "Hello world" (the request sent the old text).
    expect(JSON.stringify(emulator.calls.at(-1)?.body)).toContain('Hello world');
    expect(de.value).toBeTruthy();
    // ...yet it says it is up to date with "Goodbye, cruel world".
    expect(de.outdated).toBe(true);
  });
});
