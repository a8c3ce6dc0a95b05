// Load measurements with autocannon, in this process: the service and its ceiling, each warmed up
// (JIT, connection pools, caches; thrown away), then measured in turns (runInTurns). Latencies are taken from every response at
// full resolution (autocannon's own histogram rounds to whole milliseconds).
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Instance, type Options, type Result } from 'autocannon';
import { perResponse, type CpuMeter, type CpuPerResponse, type CpuSample } from './cpu.ts';

export type LoadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

export type LoadSpec = {
  connections: number;
  /** Seconds measured for each party, over all its turns. */
  duration: number;
  /** Seconds of load before each party's turns, not recorded. */
  warmup: number;
  /** The one status every response must have (200, 201, or 304 for revalidations). */
  expectedStatus: number;
  /** One fixed request, or a generator called for every request (writes vary path and body). */
  request: LoadRequest | (() => LoadRequest);
};

export type LoadResult = {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Response bytes on the wire (status line and headers included) per response. */
  wireBytesPerResponse: number;
  bytesPerSecond: number;
  responses: number;
  seconds: number;
  errors: number;
  timeouts: number;
  /** autocannon's count: every status outside 2xx, a revalidation's expected 304 included. */
  non2xx: number;
  /** Responses whose status is not the expected one. */
  unexpectedStatus: number;
  statusCodes: Record<string, number>;
  /** CPU per response over the measured run (warm-up excluded); null without a meter. */
  cpu: CpuPerResponse | null;
};

let active: Instance | undefined;

/** Ends the running measurement at once (Ctrl-C). */
export function stopActiveLoad(): void {
  active?.stop();
}

function optionsFor(baseUrl: string, spec: LoadSpec, seconds: number): Options {
  const common = { connections: spec.connections, duration: seconds, pipelining: 1, timeout: 10 };
  const { request } = spec;
  if (typeof request !== 'function') {
    return {
      ...common,
      url: baseUrl + request.path,
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
  }
  const first = request();
  return {
    ...common,
    url: baseUrl + first.path,
    requests: [
      {
        setupRequest: (defaults) => {
          const next = request();
          return { ...defaults, method: next.method, path: next.path, headers: next.headers, ...(next.body !== undefined ? { body: next.body } : {}) };
        },
      },
    ],
  };
}

function run(options: Options, onResponse?: (status: number, bytes: number, ms: number) => void): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      active = undefined;
      if (error) reject(error);
      else resolve(result);
    });
    active = instance;
    if (onResponse) instance.on('response', (_client, status, bytes, ms) => onResponse(status, bytes, ms));
  });
}

/**
 * Waits until the server has worked off what the last run left in flight. autocannon stops by
 * closing its sockets, but the server still finishes every request it had begun (database queries
 * included), and that backlog must not be billed to the next measurement. One GET on a fresh
 * connection: on embedded PGlite, with its single connection, it queues behind the backlog.
 */
async function settle(baseUrl: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = get(`${baseUrl}/health`, { agent: false, timeout: 120_000 }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => resolve());
    req.on('timeout', () => req.destroy());
  });
  await sleep(200);
}

/** One party measured: its base URL and, optionally, the meter of its server's, the database's and this process's CPU, read around each of its turns. */
export type LoadTarget = { url: string; cpu?: CpuMeter };

/**
 * The order of `turns` turns for each of two parties, 0 and 1, as ABBA blocks (0 1 1 0 0 1 1 0 ...):
 * each party is measured as often early as late in every block, so a drift of the machine's speed
 * during the measurement (a noisy neighbour coming or going) falls on both alike.
 */
export function turnOrder(turns: number): (0 | 1)[] {
  const order: (0 | 1)[] = [];
  for (let i = 0; i < turns; i++) order.push(...(i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)));
  return order;
}

/** What one party's turns add up to, before it becomes a LoadResult. */
export type Tally = {
  latencies: Float64Array;
  count: number;
  unexpectedStatus: number;
  wireBytes: number;
  bodyBytes: number;
  seconds: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU microseconds spent during the turns, summed; null without a meter. */
  cpu: CpuSample | null;
};

export const emptyTally = (metered: boolean): Tally => ({
  latencies: new Float64Array(1 << 16),
  count: 0,
  unexpectedStatus: 0,
  wireBytes: 0,
  bodyBytes: 0,
  seconds: 0,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: {},
  cpu: metered ? { server: 0, database: 0, client: 0 } : null,
});

function record(tally: Tally, ms: number): void {
  if (tally.count === tally.latencies.length) {
    const grown = new Float64Array(tally.latencies.length * 2);
    grown.set(tally.latencies);
    tally.latencies = grown;
  }
  tally.latencies[tally.count++] = ms;
}

const addCpu = (sum: number | null, before: number | null, after: number | null) => (sum === null || before === null || after === null ? null : sum + after - before);

/** One measured turn of one party, added to its tally. */
async function measureTurn(target: LoadTarget, spec: LoadSpec, seconds: number, tally: Tally): Promise<void> {
  const cpuBefore = target.cpu?.sample();
  const result = await run(optionsFor(target.url, spec, seconds), (status, bytes, ms) => {
    record(tally, ms);
    tally.wireBytes += bytes;
    if (status !== spec.expectedStatus) tally.unexpectedStatus++;
  });
  // After the settle: the requests still in flight when the clients stopped (at most one per
  // connection) were begun in the turn, and their work belongs to it.
  await settle(target.url);
  if (tally.cpu && target.cpu && cpuBefore) {
    const after = target.cpu.sample();
    tally.cpu = {
      server: addCpu(tally.cpu.server, cpuBefore.server, after.server),
      database: addCpu(tally.cpu.database, cpuBefore.database, after.database),
      client: tally.cpu.client + after.client - cpuBefore.client,
    };
  }
  tally.seconds += result.duration;
  tally.bodyBytes += result.throughput.total;
  tally.errors += result.errors;
  tally.timeouts += result.timeouts;
  tally.non2xx += result.non2xx;
  for (const [code, { count: n }] of Object.entries(result.statusCodeStats)) tally.statusCodes[code] = (tally.statusCodes[code] ?? 0) + n;
}

/** A party's turns as one result: rates over the turns' summed time, percentiles over all their responses. */
export function resultOf(tally: Tally): LoadResult {
  const { count } = tally;
  const sorted = tally.latencies.subarray(0, count).sort();
  const at = (p: number) => (count ? sorted[Math.min(count - 1, Math.max(0, Math.ceil(p * count) - 1))]! : NaN);
  let sum = 0;
  for (const ms of sorted) sum += ms;
  return {
    requestsPerSecond: tally.seconds > 0 ? round(count / tally.seconds, 1) : 0,
    latencyMs: { p50: round(at(0.5), 2), p90: round(at(0.9), 2), p99: round(at(0.99), 2), max: round(at(1), 2), mean: round(sum / count, 2) },
    wireBytesPerResponse: count ? Math.round(tally.wireBytes / count) : 0,
    bytesPerSecond: tally.seconds > 0 ? Math.round(tally.bodyBytes / tally.seconds) : 0,
    responses: count,
    seconds: round(tally.seconds, 2),
    errors: tally.errors,
    timeouts: tally.timeouts,
    non2xx: tally.non2xx,
    unexpectedStatus: tally.unexpectedStatus,
    statusCodes: tally.statusCodes,
    cpu: tally.cpu ? perResponse({ server: 0, database: 0, client: 0 }, tally.cpu, count) : null,
  };
}

/**
 * Two parties (the service and its ceiling) measured in turns, ABBA (turnOrder), `spec.duration`
 * seconds each in all, split into `turns` turns per party; each is warmed up first. (autocannon
 * stops at its next whole-second sample: a turn runs its share rounded up, and its rate is over the
 * time it ran.) Measured one
 * after the other, 5 s each, the ceiling of the same small answer cost 21 to 66 us of CPU from one
 * run to the next on this virtual machine, and cached-key's ratio read 0.38 in one run and 0.73 in
 * another with the service unchanged: the ratio measured the machine's drift between the two
 * halves as much as the service. In turns, both sides see the same stretches of time.
 */
export async function runInTurns(targets: readonly [LoadTarget, LoadTarget], spec: LoadSpec, turns: number): Promise<[LoadResult, LoadResult]> {
  if (spec.warmup > 0) {
    for (const target of targets) {
      await run(optionsFor(target.url, spec, spec.warmup));
      await settle(target.url);
    }
  }
  const tallies = [emptyTally(targets[0].cpu !== undefined), emptyTally(targets[1].cpu !== undefined)] as const;
  for (const party of turnOrder(turns)) await measureTurn(targets[party], spec, spec.duration / turns, tallies[party]);
  return [resultOf(tallies[0]), resultOf(tallies[1])];
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
