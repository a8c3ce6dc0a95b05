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
import { startTestApp, type TestApp } from '../support/test-app.ts';

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
