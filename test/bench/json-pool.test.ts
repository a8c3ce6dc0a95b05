// The seed's client (bench/http.ts, createJsonPool): JSON sent with its content type and the
// caller's headers, the answer parsed, and any status but the expected one an error naming it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonPool, type JsonClient } from '../../bench/http.ts';

let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    if (req.url === '/missing') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Key not found"}');
    if (req.url === '/empty') return void res.writeHead(204).end();
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body ? JSON.parse(body) : null }));
  });
});
let client: JsonClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createJsonPool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 4);
});
afterAll(async () => {
  client.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("the seed's JSON client", () => {
  it('sends JSON with its content type and the given headers, and parses the answer', async () => {
    seen = [];
    const answer = await client.json<{ echoed: unknown }>('POST', '/v1/keys', 201, { headers: { 'X-API-Key': 'tms_x' }, json: { key: 'a.b', group_name: 'a' } });
    expect(answer).toEqual({ echoed: { key: 'a.b', group_name: 'a' } });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/keys' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers['x-api-key']).toBe('tms_x');
  });

  it('an empty answer is undefined; a request without a body carries no content type', async () => {
    seen = [];
    expect(await client.json('GET', '/empty', 204)).toBeUndefined();
    expect(seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('another status than the expected one is an error that names both and the body', async () => {
    await expect(client.json('PUT', '/missing', 200, { json: {} })).rejects.toThrow('PUT /missing: expected 200, got 404: {"detail":"Key not found"}');
  });

  it('16 calls at once over 4 connections all answer', async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => client.json<{ echoed: { i: number } }>('POST', '/x', 201, { json: { i } })));
    expect(answers.map((a) => a.echoed.i)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });
});
