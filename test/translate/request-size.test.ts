// Provider requests are split by size as well as by count: DeepL refuses a request body over 128 KiB
// (413, "Request Entity Too Large"), and 50 texts of up to 10,000 characters each pass that by far, so a
// language with a few long values could never be translated (every call a 502).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { batches, batchLimits, jsonBytes } from '../../core/translate/batches.ts';
import { deeplTranslator } from '../../core/translate/providers/deepl.ts';
import { libreTranslateTranslator } from '../../core/translate/providers/libretranslate.ts';
import { openAiChatTranslator } from '../../core/translate/providers/openai-chat.ts';
import { GOOGLE_BATCH_BYTES, googleTranslator } from '../../core/translate/providers/google.ts';
import { azureTranslator } from '../../core/translate/providers/azure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { AZURE_LIMITS, EMULATOR_AZURE_REGION, EMULATOR_KEYS, GOOGLE_LIMITS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';

describe('batches(): by count and by bytes of JSON-encoded texts', () => {
  it('closes a batch when the next text would pass the byte budget or the count', () => {
    const ten = 'x'.repeat(7); // 9 bytes JSON-encoded, 10 with its comma
    expect(jsonBytes(ten)).toBe(10);
    expect(batches([ten, ten, ten, ten, ten], { count: 50, bytes: 25 })).toEqual([[ten, ten], [ten, ten], [ten]]);
    expect(batches([ten, ten, ten], { count: 2, bytes: 1000 })).toEqual([[ten, ten], [ten]]);
    expect(batches([], { count: 2, bytes: 1000 })).toEqual([]);
  });

  it('counts UTF-8 bytes and JSON escapes, not characters', () => {
    expect(jsonBytes('é')).toBe(5); // "é" is 2 bytes, quotes and comma 3
    expect(jsonBytes('a"b')).toBe(7); // the quote is escaped
    expect(batches(['日本語', '日本語'], { count: 50, bytes: 20 })).toEqual([['日本語'], ['日本語']]);
  });

  it('a text over the budget on its own goes alone, in its place', () => {
    const big = 'y'.repeat(100);
    expect(batches(['a', big, 'b', 'c'], { count: 50, bytes: 20 })).toEqual([['a'], [big], ['b', 'c']]);
  });

  it("each provider's budget keeps its request under what it accepts (DeepL: 128 KiB bodies)", () => {
    expect(batchLimits(deeplTranslator({ apiKey: 'k:fx' })).bytes).toBeLessThan(128 * 1024);
    for (const translator of [openAiChatTranslator({ url: 'http://localhost:1', apiKey: 'k', model: 'm' }), libreTranslateTranslator({ url: 'http://localhost:1' })]) {
      expect(batchLimits(translator).bytes, translator.provider).toBeGreaterThan(0);
    }
    // Google: 128 segments, and Google's recommended 5K code points (its hard limit is 100K bytes).
    expect(batchLimits(googleTranslator({ apiKey: 'k' }))).toEqual({ count: GOOGLE_LIMITS.segments, bytes: GOOGLE_BATCH_BYTES });
    expect(GOOGLE_BATCH_BYTES).toBeLessThanOrEqual(5_000);
    // Azure: 1,000 elements and 50,000 characters (JSON bytes are never fewer than characters).
    expect(batchLimits(azureTranslator({ apiKey: 'k' }))).toEqual({ count: AZURE_LIMITS.elements, bytes: AZURE_LIMITS.characters });
  });
});

describe('DeepL request size through POST /v1/translate/{language}', () => {
  const DEEPL_MAX_BODY = 128 * 1024;
  let server: Server;
  let t: TestApp & { close(): Promise<void> };
  const bodies: number[] = [];

  beforeAll(async () => {
    // DeepL's /v2/translate, refusing a body over 128 KiB as DeepL does; the "translation" is the text.
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks);
      bodies.push(raw.length);
      if (raw.length > DEEPL_MAX_BODY) {
        res.writeHead(413, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
      }
      const body = JSON.parse(raw.toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ translations: (body.text as string[]).map((text) => ({ detected_source_language: 'EN', text })) }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp({ env: { DEEPL_API_KEY: 'k:fx', DEEPL_API_URL: url } });
  });
  afterAll(async () => {
    await t?.close();
    server?.close();
  });

  it('20 values of 8,000 characters (each within the 10,000 a value may hold) are translated in requests under 128 KiB, not a 502', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    for (let i = 0; i < 20; i++) {
      const k = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `help.article${i}` })).json()) as { id: string };
      const text = `Article ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(290);
      expect(text.length).toBeLessThanOrEqual(8_000);
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: text, status: 'approved' })).status).toBe(200);
    }
    bodies.length = 0;
    const res = await t.call(p.apiKey, 'POST', '/v1/translate/de', {});
    const body = await res.text();
    expect(res.status, body.slice(0, 300)).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ translated: 20, remaining: 0 });
    // 160,000 characters: two requests, each under DeepL's limit.
    expect(bodies).toHaveLength(2);
    expect(Math.max(...bodies)).toBeLessThanOrEqual(DEEPL_MAX_BODY);
  });
});

describe('Google and Azure request sizes: their emulators refuse what the real services refuse', () => {
  let emulator: MtEmulator;
  let google: TestApp & { close(): Promise<void> };
  let azure: TestApp & { close(): Promise<void> };

  beforeAll(async () => {
    emulator = await startMtEmulator();
    google = await startTestApp({ env: { GOOGLE_TRANSLATE_API_KEY: EMULATOR_KEYS.google, GOOGLE_TRANSLATE_URL: emulator.url } });
    azure = await startTestApp({ env: { AZURE_TRANSLATOR_KEY: EMULATOR_KEYS.azure, AZURE_TRANSLATOR_REGION: EMULATOR_AZURE_REGION, AZURE_TRANSLATOR_URL: emulator.url } });
  });
  afterAll(async () => {
    await google?.close();
    await azure?.close();
    await emulator?.close();
  });

  /** A project with `en` values of `texts` (imported), translated to `de` through the API. */
  async function translateAll(t: TestApp, texts: string[]) {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const source = Object.fromEntries(texts.map((text, i) => [`k${String(i).padStart(4, '0')}`, text]));
    const imported = await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(source) });
    expect(imported.status, await imported.clone().text()).toBeLessThan(300);
    const before = emulator.calls.length;
    const res = await t.call(p.apiKey, 'POST', '/v1/translate/de', {});
    const body = await res.text();
    expect(res.status, body.slice(0, 300)).toBe(200);
    return { answer: JSON.parse(body), calls: emulator.calls.slice(before) };
  }

  it('the emulators refuse a request over the limits with the real errors (so a batching mistake fails a test)', async () => {
    const many = Array.from({ length: 129 }, (_, i) => `Text ${i}`);
    const g = await googleTranslator({ apiKey: EMULATOR_KEYS.google, url: emulator.url }).translate({ texts: many, from: 'en', to: 'de' }).catch((e) => e);
    expect(g).toMatchObject({ provider: 'google', status: 400, message: expect.stringContaining('Too many text segments') });
    const huge = ['x'.repeat(30_000), 'y'.repeat(30_000)];
    const a = await azureTranslator({ apiKey: EMULATOR_KEYS.azure, region: EMULATOR_AZURE_REGION, url: emulator.url, fetch: (async (url: string | URL | Request, init?: RequestInit) => {
      // One request of both texts, as a caller that did not split would send it.
      return fetch(url, { ...init, body: JSON.stringify(huge.map((Text) => ({ Text }))) });
    }) as typeof fetch }).translate({ texts: ['a'], from: 'en', to: 'de' }).catch((e) => e);
    expect(a).toMatchObject({ provider: 'azure', status: 400, message: expect.stringContaining('400077') });
  });

  it('Google: 300 short values in requests of at most 128 segments and 5,000 code points', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `Save file number ${i}`);
    const { answer, calls } = await translateAll(google, texts);
    expect(answer).toMatchObject({ translated: 300, remaining: 0 });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) {
      expect(call.body.q.length).toBeLessThanOrEqual(GOOGLE_LIMITS.segments);
      expect([...call.body.q.join('')].length).toBeLessThanOrEqual(5_000);
    }
  });

  it('Google: 20 values of 8,000 characters go one a request (over the recommended 5K alone, far under 100K bytes), not a 502', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `Article ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(290));
    const { answer, calls } = await translateAll(google, texts);
    expect(answer).toMatchObject({ translated: 20, remaining: 0 });
    expect(calls.map((c) => c.body.q.length)).toEqual(Array(20).fill(1));
  });

  it('Azure: 20 values of 8,000 characters (160,000) in requests of at most 50,000 characters, not a 502', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `Article ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(290));
    const { answer, calls } = await translateAll(azure, texts);
    expect(answer).toMatchObject({ translated: 20, remaining: 0 });
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) {
      expect(call.body.length).toBeLessThanOrEqual(AZURE_LIMITS.elements);
      expect(call.body.reduce((n: number, e: { Text: string }) => n + e.Text.length, 0)).toBeLessThanOrEqual(AZURE_LIMITS.characters);
    }
  });

  it("Azure: a batch the glossary's markup takes past 50,000 characters is sent as more requests, each within it", async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `Part ${i}: ` + 'open the dashboard and lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua '.repeat(55));
    expect(texts.reduce((n, t) => n + t.length + 3, 0)).toBeLessThanOrEqual(AZURE_LIMITS.characters);
    const before = emulator.calls.length;
    const out = await azureTranslator({ apiKey: EMULATOR_KEYS.azure, region: EMULATOR_AZURE_REGION, url: emulator.url }).translate({ texts, from: 'en', to: 'de', glossary: [{ source: 'Dashboard', target: 'Übersicht' }] });
    expect(out).toHaveLength(6);
    expect(out.every((t) => t.includes('Übersicht') && !/dashboard/i.test(t))).toBe(true);
    const calls = emulator.calls.slice(before);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(call.body.reduce((n: number, e: { Text: string }) => n + e.Text.length, 0)).toBeLessThanOrEqual(AZURE_LIMITS.characters);
  });
});
