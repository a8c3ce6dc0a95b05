// POST /v1/translate/{language} writes after the provider answers, in a transaction of its own: what
// changed in the project meanwhile wins. A language removed meanwhile is a 404 with nothing written or
// charged (it was the insert's foreign-key violation, a 500); a value a person changed meanwhile is
// kept, reported as changed_meanwhile and not charged (with only_missing: false it was overwritten).
import { describe, expect, it } from 'vitest';
import { type TestProject } from '../support/test-app.ts';
import type { MtEmulator } from '../support/mt-emulators.ts';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';

let emulator: MtEmulator;
let t: StartedApp;
withDeeplTestApp((app, started) => {
  t = app;
  emulator = started;
});

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}
async function key(p: TestProject, name: string, values: Record<string, [string, string]>) {
  const k = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string };
  for (const [language, [value, status]] of Object.entries(values)) {
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/${language}`, { value, status })).status).toBe(200);
  }
  return k.id;
}
const unitsUsed = async (p: TestProject) => ((await (await t.call(p.apiKey, 'GET', '/v1/usage')).json()) as { translation_units_used: number }).translation_units_used;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `request` started while the provider takes 1.5 s to answer, and `meanwhile` run half a second in. */
async function whileProviderWorks(request: () => Promise<Response>, meanwhile: () => Promise<void>): Promise<Response> {
  emulator.delay(1500);
  try {
    const pending = request();
    await sleep(500);
    await meanwhile();
    return await pending;
  } finally {
    emulator.delay(0);
  }
}

describe('machine translation while the project changes', () => {
  it('the target language removed while the provider works: 404 language not registered, nothing written or charged', async () => {
    const p = await project();
    await key(p, 'hello', { en: ['Hello world', 'approved'] });
    const res = await whileProviderWorks(
      () => t.call(p.apiKey, 'POST', '/v1/translate/de', {}),
      async () => expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200),
    );
    const text = await res.text();
    expect(res.status, text).toBe(404);
    expect(JSON.parse(text).detail).toMatch(/'de' is not registered/);
    expect(await unitsUsed(p)).toBe(0);
  });

  it('only_missing: false does not overwrite a draft a person edited while the provider worked: kept, reported, not charged', async () => {
    const p = await project();
    const edited = await key(p, 'hello', { en: ['Hello world', 'approved'], de: ['alter Entwurf', 'draft'] });
    const untouched = await key(p, 'save', { en: ['Save changes', 'approved'], de: ['alt', 'draft'] });
    const res = await whileProviderWorks(
      () => t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }),
      async () => expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${edited}/translations/de`, { value: 'Hallo Welt, von Hand', status: 'draft' })).status).toBe(200),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { translated: number; translation_units: number; skipped: unknown[] };
    expect(body).toMatchObject({ translated: 1, translation_units: 1 });
    expect(body.skipped).toEqual([{ key_id: edited, key: 'hello', reason: 'changed_meanwhile' }]);
    const value = async (id: string) => ((await (await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`)).json()) as { value: string }).value;
    // The machine translated the draft it read ("alter Entwurf" was to be replaced), not the person's newer text.
    expect(await value(edited)).toBe('Hallo Welt, von Hand');
    expect(await value(untouched)).not.toBe('alt');
    expect(await unitsUsed(p)).toBe(1);
  });

  it('with only_missing (the default) a value a person added while the provider worked is kept and reported too', async () => {
    const p = await project();
    const id = await key(p, 'hello', { en: ['Hello world', 'approved'] });
    const res = await whileProviderWorks(
      () => t.call(p.apiKey, 'POST', '/v1/translate/de', {}),
      async () => expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Hallo Welt', status: 'review' })).status).toBe(200),
    );
    const body = (await res.json()) as { translated: number; translation_units: number; skipped: unknown[] };
    expect(body).toMatchObject({ translated: 0, translation_units: 0, skipped: [{ key_id: id, key: 'hello', reason: 'changed_meanwhile' }] });
    expect(await unitsUsed(p)).toBe(0);
  });
});
