// What one request costs the service's own code, without the network: app.fetch() called in a loop
// in this process, on the embedded defaults (PGlite in a temporary directory, in-process counters),
// beside a one-route Hono app answering the same bytes (the framework's own floor).
//   npx tsx bench/request-cost.ts [--requests 20000] [--rounds 5] [--in-flight 32]
//   DATABASE_URL=postgres://... [REDIS_URL=redis://...] npx tsx bench/request-cost.ts   (adds the live reads)
//
// Why: `npm run bench` measures through sockets on a two-core machine, where the load generator,
// the service and the kernel share the cores and a row moves by a fifth from one hour to the next
// (docs/benchmarks.md). A change of a few microseconds on the hot path is lost in that. Here the
// same request runs tens of thousands of times with nothing else busy. Rounds still differ (a
// major GC lands in some, and this virtual machine's speed drifts), so the least disturbed round,
// the fastest, is the figure; between runs it stays within about a sixth, the median less so.
//
// It is not the service's whole cost per request: node:http's parsing and writing, and the socket,
// come on top (a bare node:http server's whole answer is about 23-27 us here, and each microsecond
// of the app's costs about 1.25 behind a socket). Requests are Fetch Requests built once, with
// @hono/node-server's Response in place as the server has it, and headers read as its requests
// read them (a lookup in node's plain object, not a Fetch Headers object's validation on every
// get). On the embedded defaults only reads that ask no database are measured (the cached ones): a
// live read's statement would go to PGlite in this very process, whose work would then share the
// loop with the requests in a way the server's does not. With DATABASE_URL (an admin connection, as
// for `npm run bench`: a throwaway database is made on that server and dropped at the end) the
// database is another process, as it is behind the service, and the live reads are measured too;
// REDIS_URL then puts the counters in Redis, as a self-hosted service has them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createThrowawayDatabase } from './database.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, 'in-flight': { type: 'string', default: '32' } },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
// Requests kept in flight at once, as the bench's connections do.
const inFlight = Number(values['in-flight']);
const positive = (n: number) => Number.isInteger(n) && n >= 1;
if (!positive(requests) || !positive(rounds) || !positive(inFlight)) {
  process.stderr.write('usage: npx tsx bench/request-cost.ts [--requests <n >= 1>] [--rounds <n >= 1>] [--in-flight <n >= 1>]\n');
  process.exit(2);
}

// @hono/node-server puts its own Response (and Request) in place when a server starts: the service's
// handlers then build the light Response the server writes without a Fetch Headers object.
getRequestListener(() => new Response(null));

const dataDir = await mkdtemp(join(tmpdir(), 'tms-request-cost-'));
const adminToken = 'request-cost-admin-token-0123456789';
const adminUrl = process.env.DATABASE_URL;
const redisUrl = adminUrl ? process.env.REDIS_URL : undefined;
const database = adminUrl ? await createThrowawayDatabase(adminUrl) : undefined;
Object.assign(process.env, { TMS_DATA_DIR: dataDir, TMS_ADMIN_TOKEN: adminToken, LOG_REQUESTS: 'false', NODE_ENV: 'production' });
for (const name of ['DATABASE_URL', 'REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'S3_BUCKET', 'SQS_QUEUE_URL']) delete process.env[name];
if (database) process.env.DATABASE_URL = database.url;
if (redisUrl) process.env.REDIS_URL = redisUrl;

// Imported after the environment is set: the config is read from it.
const { loadConfig } = await import('../core/config.ts');
const { createRuntime } = await import('../core/create-runtime.ts');
const { createJsonLogger } = await import('../core/log.ts');
const { createApi } = await import('../functions/http/create-api.ts');
const { allRouteGroups } = await import('../functions/route-groups.ts');

type Fetch = (request: Request) => Response | Promise<Response>;

// As @hono/node-server's requests answer a header: the name checked and lower-cased, then looked up
// in the plain object node:http parsed (a Fetch Headers object validates name and value on each get,
// which would add a few microseconds that the server does not spend). Anything else a handler asks
// of the headers (iteration, a change) goes to a real Headers object, as there.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~\dA-Za-z]+$/;
function lightHeaders(plain: Record<string, string>): Headers {
  const headers = new Headers(plain);
  const lower = Object.fromEntries(Object.entries(plain).map(([name, value]) => [name.toLowerCase(), value]));
  const get = (name: string): string | null => {
    if (!HEADER_NAME.test(name)) throw new TypeError(`Invalid header name: ${name}`);
    return lower[name.toLowerCase()] ?? null;
  };
  return Object.defineProperties(headers, { get: { value: get }, has: { value: (name: string) => get(name) !== null } });
}
function lightRequest(path: string, headers: Record<string, string>): Request {
  const request = new Request(`http://localhost${path}`, { headers });
  Object.defineProperty(request, 'headers', { value: lightHeaders(headers) });
  return request;
}

let runtime: Awaited<ReturnType<typeof createRuntime>> | undefined;
try {
  runtime = await createRuntime(loadConfig(), { log: createJsonLogger(), migrate: true });
  const app = createApi(runtime.deps, allRouteGroups, {});
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const init: RequestInit = { method, headers: { 'Content-Type': 'application/json', ...headers } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await app.fetch(new Request(`http://localhost${path}`, init));
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  // A project with one approved key in two languages, built once.
  const admin = { Authorization: `Bearer ${adminToken}` };
  const account = await call('POST', '/admin/v1/accounts', admin, { name: 'request cost', plan: 'team' });
  await call('PATCH', `/admin/v1/accounts/${account.id}`, admin, { daily_call_limit: 1_000_000_000 });
  const project = await call('POST', `/admin/v1/accounts/${account.id}/projects`, admin, { name: 'request cost' });
  const apiKey = { 'X-API-Key': (project.api_key as { key: string }).key };
  for (const code of ['en', 'de']) await call('POST', '/v1/languages', apiKey, { code });
  const key = await call('POST', '/v1/keys', apiKey, { key: 'home.title', group_name: 'home' });
  await call('PUT', `/v1/keys/${key.id}/translations/en`, apiKey, { value: 'Home', status: 'approved' });
  await call('PUT', `/v1/keys/${key.id}/translations/de`, apiKey, { value: 'Startseite', status: 'approved' });
  await call('POST', '/v1/cache/rebuild', apiKey);
  for (let polls = 0; !(await call('GET', '/v1/cache/status', apiKey)).ready; polls++) {
    if (polls > 600) throw new Error('the build did not finish in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const cachedKey = '/v1/cached/translations/de/home/home.title';
  const etagOf = async (path: string) => (await app.fetch(new Request(`http://localhost${path}`, { headers: apiKey }))).headers.get('etag') ?? '';
  const cases: { name: string; path: string; status: number; headers: Record<string, string> }[] = [
    { name: 'cached-key', path: cachedKey, status: 200, headers: apiKey },
    { name: 'cached-key-304', path: cachedKey, status: 304, headers: { ...apiKey, 'If-None-Match': await etagOf(cachedKey) } },
    { name: 'cached-key-404', path: '/v1/cached/translations/de/home/no.such.key', status: 404, headers: apiKey },
    { name: 'cached-group', path: '/v1/cached/translations/de/home', status: 200, headers: apiKey },
    { name: 'cached-manifest', path: '/v1/cached/manifest', status: 200, headers: apiKey },
  ];
  // The live reads, when the database is a process of its own (see the top of this file).
  const liveKey = '/v1/translations/de/home/home.title';
  if (database) {
    cases.push(
      { name: 'live-key', path: liveKey, status: 200, headers: apiKey },
      { name: 'live-key-304', path: liveKey, status: 304, headers: { ...apiKey, 'If-None-Match': await etagOf(liveKey) } },
    );
  }

  // The floor: one Hono route answering cached-key's own status, headers and body, no middleware.
  const sample = await app.fetch(new Request(`http://localhost${cachedKey}`, { headers: apiKey }));
  const sampleHeaders = Object.fromEntries(sample.headers);
  const sampleBody = await sample.text();
  const floor = new Hono().get('/v1/cached/translations/:language/:group/:key', () => new Response(sampleBody, { status: 200, headers: { ...sampleHeaders } }));

  const measure = async (fetch: Fetch, path: string, headers: Record<string, string>, status: number) => {
    const request = lightRequest(path, headers);
    const first = await fetch(request);
    if (first.status !== status) throw new Error(`${path}: expected ${status}, got ${first.status}`);
    const run = async (count: number) => {
      let left = count;
      const worker = async () => {
        while (left > 0) {
          left--;
          await fetch(request);
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
    };
    await run(Math.min(requests, 5_000));
    const perRound: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await run(requests);
      perRound.push(((performance.now() - started) * 1000) / requests);
    }
    perRound.sort((a, b) => a - b);
    return { median: perRound[Math.floor(perRound.length / 2)]!, min: perRound[0]!, max: perRound.at(-1)! };
  };

  const rows: string[] = ['| request | us per request (fastest round) | median | slowest |', '|---|---:|---:|---:|'];
  const row = (name: string, r: { median: number; min: number; max: number }) =>
    rows.push(`| ${name} | ${r.min.toFixed(1)} | ${r.median.toFixed(1)} | ${r.max.toFixed(1)} |`);
  row('one-route Hono app, the same answer as cached-key (the floor)', await measure(floor.fetch, cachedKey, apiKey, 200));
  for (const c of cases) row(c.name, await measure(app.fetch, c.path, c.headers, c.status));
  const where = database ? `PostgreSQL (${database.version.split(' ').slice(0, 2).join(' ')}), counters ${redisUrl ? 'in Redis' : 'in-process'}` : 'embedded defaults';
  process.stdout.write(`${rows.join('\n')}\n\n${requests.toLocaleString('en-US')} requests per round, ${inFlight} in flight, ${rounds} rounds; ${where}; node ${process.version}\n`);
} finally {
  await runtime?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
