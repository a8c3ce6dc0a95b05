// Machine translation of a value with a plain percent sign, end to end through the DeepL emulator:
// the word after `%` is translated with the rest, not cut off as a printf placeholder.
import { describe, expect, it } from 'vitest';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';

let t: StartedApp;
withDeeplTestApp((app) => {
  t = app;
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

describe('POST /v1/translate/{language} with a percent sign', () => {
  it('"Get 50% off" is translated whole: "GET 50% OFF", the word after % included', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'promo' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: 'Get 50% off', status: 'approved' }));
    const body = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(body.translated).toBe(1);
    const de = await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'));
    const value = de.translations.promo;
    expect(typeof value === 'string' ? value : value.value).toBe('GET 50% OFF');
  });
});
