// One load measurement with autocannon, in this process: a short warm-up (JIT, connection pools,
// caches) that is thrown away, then the measured run. Latencies are taken from every response at
// full resolution (autocannon's own histogram rounds to whole milliseconds).
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Instance, type Options, type Result } from 'autocannon';
import { perResponse, type CpuMeter, type CpuPerResponse } from './cpu.ts';

export type LoadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

export type LoadSpec = {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load before the measured run, not recorded. */
  warmup: number;
  /** The one status every response must have (200, 201, or 304 for revalidations). */
  expectedStatus: number;
  /** One fixed request, or a generator called for every request (writes vary path and body). */
  request: LoadRequest | (() => LoadRequest);
  /** Samples the CPU of the server, the database and this process around the measured run. */
  cpu?: CpuMeter;
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

export async function runLoad(baseUrl: string, spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmup > 0) {
    await run(optionsFor(baseUrl, spec, spec.warmup));
    await settle(baseUrl);
  }

  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let unexpectedStatus = 0;
  let wireBytes = 0;
  const cpuBefore = spec.cpu?.sample();
  const result = await run(optionsFor(baseUrl, spec, spec.duration), (status, bytes, ms) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
    wireBytes += bytes;
    if (status !== spec.expectedStatus) unexpectedStatus++;
  });
  // After the settle: the requests still in flight when the clients stopped (at most one per
  // connection) were begun in the run, and their work belongs to it.
  await settle(baseUrl);
  const cpu = spec.cpu && cpuBefore ? perResponse(cpuBefore, spec.cpu.sample(), count) : null;

  const sorted = latencies.subarray(0, count).sort();
  const at = (p: number) => (count ? sorted[Math.min(count - 1, Math.max(0, Math.ceil(p * count) - 1))]! : NaN);
  let sum = 0;
  for (const ms of sorted) sum += ms;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count: n }] of Object.entries(result.statusCodeStats)) statusCodes[code] = n;
  return {
    requestsPerSecond: round(result.requests.average, 1),
    latencyMs: { p50: round(at(0.5), 2), p90: round(at(0.9), 2), p99: round(at(0.99), 2), max: round(at(1), 2), mean: round(sum / count, 2) },
    wireBytesPerResponse: count ? Math.round(wireBytes / count) : 0,
    bytesPerSecond: Math.round(result.throughput.average),
    responses: count,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    unexpectedStatus,
    statusCodes,
    cpu,
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
