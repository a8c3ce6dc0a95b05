// What one request costs the service's own code, without the network: app.fetch() called in a loop
// in this process, on the embedded defaults (PGlite in a temporary directory, in-process counters),
// beside a one-route Hono app answering the same bytes (the framework's own floor).
//   npx tsx bench/request-cost.ts [--requests 20000] [--rounds 5] [--in-flight 32] [--only cached-key,write-put]
//   DATABASE_URL=postgres://... [REDIS_URL=redis://...] npx tsx bench/request-cost.ts   (adds the live reads and the writes)
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
// live read's statement would go to PGlite in this very process (on its own thread), whose CPU
// would then count as the requests'. With DATABASE_URL (an admin connection, as
// for `npm run bench`: a throwaway database is made on that server and dropped at the end) the
// database is another process, as it is behind the service, and the live reads are measured too;
// REDIS_URL then puts the counters in Redis, as a self-hosted service has them. The writes
// (write-put, write-create-key, as the bench's rows of those names send them) come then too: their
// wall time per request is mostly the database's, so the figure to read for them is the process's
// CPU per request (process.cpuUsage over the round), which is the service's own share of a write;
// for the reads the two are the same.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createThrowawayDatabase } from './database.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, 'in-flight': { type: 'string', default: '32' }, only: { type: 'string' } },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
// Requests kept in flight at once, as the bench's connections do.
const inFlight = Number(values['in-flight']);
const positive = (n: number) => Number.isInteger(n) && n >= 1;
// --only names the rows to measure (the floor is always measured), e.g. to profile one of them.
const only = values.only ? new Set(values.only.split(',').map((name) => name.trim())) : undefined;
const wanted = (name: string) => !only || only.has(name);
if (!positive(requests) || !positive(rounds) || !positive(inFlight)) {
  process.stderr.write('usage: npx tsx bench/request-cost.ts [--requests <n >= 1>] [--rounds <n >= 1>] [--in-flight <n >= 1>] [--only <row,row>]\n');
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
// A request with a body, as @hono/node-server hands one over: method, URL and headers read without a
// Fetch Request, and the body's bytes taken whole once (its direct read of the socket's chunks), with
// the Content-Length a client sends. A Fetch Request with a body would cost the loop an AbortSignal,
// a web stream and its reader per request, which the server does not spend. Anything else a handler
// asks of it falls to Request.prototype's getters, which throw: the measure then stops on a 500.
const headersByLength = new Map<string, Headers>();
function lightWrite(path: string, headers: Record<string, string>, method: string, body: string): Request {
  const bytes = Buffer.from(body);
  const length = String(bytes.byteLength);
  let lightened = headersByLength.get(length);
  if (!lightened) headersByLength.set(length, (lightened = lightHeaders({ ...headers, 'Content-Length': length })));
  let used = false;
  const take = async (): Promise<Buffer> => {
    if (used) throw new TypeError('Body is unusable');
    used = true;
    return bytes;
  };
  return Object.create(Request.prototype, {
    method: { value: method },
    url: { value: `http://localhost${path}` },
    headers: { value: lightened },
    bodyUsed: { get: () => used },
    arrayBuffer: { value: async () => (await take()).buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    text: { value: async () => (await take()).toString('utf8') },
    json: { value: async () => JSON.parse((await take()).toString('utf8')) as unknown },
  }) as Request;
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
    // The keys group's chain (where a PUT of a value and a new key go) up to its validation, which
    // refuses the id before any database work: a write's own cost before its statement.
    { name: 'keys-422', path: '/v1/keys/not-a-uuid', status: 422, headers: apiKey },
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

  // A case is a request made afresh each time (a write's body can be read once) or one request
  // reused (a read's, as the server's parsed request is cheap to reuse here).
  type Make = () => Request;
  const measure = async (fetch: Fetch, make: Make, status: number, expected = 'x') => {
    const first = await fetch(make());
    if (first.status !== status) throw new Error(`${expected}: expected ${status}, got ${first.status} ${await first.text()}`);
    const run = async (count: number) => {
      let left = count;
      const worker = async () => {
        while (left > 0) {
          left--;
          const response = await fetch(make());
          if (response.status !== status) throw new Error(`${expected}: expected ${status}, got ${response.status}`);
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
    };
    await run(Math.min(requests, 5_000));
    const perRound: { wall: number; cpu: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await run(requests);
      const used = process.cpuUsage(cpu);
      perRound.push({ wall: ((performance.now() - started) * 1000) / requests, cpu: (used.user + used.system) / requests });
    }
    // The fastest round by wall time is the figure for a read; by CPU for a write (its wall time is
    // the database's).
    const by = (pick: (r: { wall: number; cpu: number }) => number) => {
      const sorted = perRound.map(pick).sort((a, b) => a - b);
      return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
    };
    return { wall: by((r) => r.wall), cpu: by((r) => r.cpu) };
  };
  const reuse = (path: string, headers: Record<string, string>): Make => {
    const request = lightRequest(path, headers);
    return () => request;
  };

  type Measured = Awaited<ReturnType<typeof measure>>;
  const rows: string[] = [
    '| request | us per request (fastest round) | median | slowest | CPU us per request (least of the rounds) | median |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const row = (name: string, { wall, cpu }: Measured) =>
    rows.push(`| ${name} | ${wall.min.toFixed(1)} | ${wall.median.toFixed(1)} | ${wall.max.toFixed(1)} | ${cpu.min.toFixed(1)} | ${cpu.median.toFixed(1)} |`);
  row('one-route Hono app, the same answer as cached-key (the floor)', await measure(floor.fetch, reuse(cachedKey, apiKey), 200));
  for (const c of cases.filter((c) => wanted(c.name))) row(c.name, await measure(app.fetch, reuse(c.path, c.headers), c.status, c.name));
  if (database) {
    // The writes, as the bench's rows send them: a PUT rotating over approved keys with a new value
    // each time, and new keys in a group of their own.
    const writeKeys: string[] = [];
    for (let i = 0; i < 200; i++) writeKeys.push((await call('POST', '/v1/keys', apiKey, { key: `write.k${i}`, group_name: 'write' })).id as string);
    const json = { ...apiKey, 'Content-Type': 'application/json' };
    let edits = 0;
    const put: Make = () => {
      const n = edits++;
      return lightWrite(`/v1/keys/${writeKeys[n % writeKeys.length]}/translations/de`, json, 'PUT', JSON.stringify({ value: `Wert ${n % writeKeys.length} (edit ${n})`, status: 'approved' }));
    };
    if (wanted('write-put')) row('write-put', await measure(app.fetch, put, 200, 'write-put'));
    let created = 0;
    const create: Make = () =>
      lightWrite('/v1/keys', json, 'POST', JSON.stringify({ key: `bench-created.k${++created}`, group_name: 'bench-created', description: 'created by request-cost' }));
    if (wanted('write-create-key')) row('write-create-key', await measure(app.fetch, create, 201, 'write-create-key'));
  }
  const where = database ? `PostgreSQL (${database.version.split(' ').slice(0, 2).join(' ')}), counters ${redisUrl ? 'in Redis' : 'in-process'}` : 'embedded defaults';
  process.stdout.write(`${rows.join('\n')}\n\n${requests.toLocaleString('en-US')} requests per round, ${inFlight} in flight, ${rounds} rounds; ${where}; node ${process.version}\n`);
} finally {
  await runtime?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
