// Deps for one Lambda function, built once per cold start by its entry. The entry names the ports
// it uses by passing their factories (s3-objects.ts, sqs-queue.ts, upstash-counters.ts): esbuild
// bundles only what an entry imports, so a function that does not pass the S3 factory carries no
// S3 client at all. A port a function does not use gets a guard that fails loudly, not a stand-in
// that would quietly do the wrong thing (a memory queue that builds nothing, a bucket of nothing).
import type { Config } from '../../core/config.ts';
import type { Deps } from '../../core/deps.ts';
import { assembleDeps } from '../../core/assemble-deps.ts';
import { createSql } from '../../core/db/client.ts';
import { AppError } from '../../core/errors.ts';
import { createJsonLogger, type Logger } from '../../core/log.ts';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { RebuildQueue } from '../../core/ports/rebuild-queue.ts';
import type { EdgeCache } from '../../core/ports/edge-cache.ts';
import type { MachineTranslator } from '../../core/ports/machine-translator.ts';

export type LambdaPorts = {
  /** Built cache objects (S3): the cache, cached and builder functions. */
  objects?: (config: Config) => ObjectStore;
  /** Where rebuild requests go (SQS): the functions whose writes or routes queue a rebuild. */
  queue?: (config: Config) => RebuildQueue;
  /**
   * Shared counters (Upstash), used when UPSTASH_REDIS_REST_URL/TOKEN are set. Without them, or
   * without this port, counters live in the instance's memory: the daily quota is then counted per
   * instance, so an account can make up to (instances x limit) calls a day. Fine for a dev stage.
   */
  counters?: (config: Config) => CounterStore;
  /** The edge in front of the API (CloudFront): the builder, which invalidates what a build changed. */
  edge?: (config: Config) => EdgeCache;
  /** The machine translator from the configuration (translatorFromConfig): the translate and portal functions. */
  translator?: (config: Config) => MachineTranslator | null;
};

export function createLambdaDeps(config: Config, ports: LambdaPorts, options: { log?: Logger } = {}): Deps {
  const log = options.log ?? createJsonLogger();
  if (!config.DATABASE_URL) throw new AppError('dependency', 'DATABASE_URL is not configured');
  const sql = createSql(config.DATABASE_URL, {
    max: config.DATABASE_POOL_MAX,
    prepare: config.DATABASE_PREPARE,
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const shared = Boolean(config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN);
  if (ports.counters && !shared) {
    log.warn('UPSTASH_REDIS_REST_URL/TOKEN not linked: daily quotas are counted per Lambda instance');
  }
  const counters = ports.counters && shared ? ports.counters(config) : createMemoryCounterStore();
  const objects = ports.objects ? ports.objects(config) : unconfigured<ObjectStore>('objects', ['put', 'get', 'list', 'delete']);
  const queue = ports.queue ? ports.queue(config) : unconfigured<RebuildQueue>('queue', ['send']);
  const edge = ports.edge ? ports.edge(config) : unconfigured<EdgeCache>('edge', ['invalidate']);
  return assembleDeps({
    config,
    log,
    sql,
    counters,
    objects,
    edge,
    translator: ports.translator ? ports.translator(config) : null,
    // The SQS queue never runs builds in this process: the builder Lambda does, over its own deps.
    queue: () => queue,
    // Unset (a function not linked to AdminToken) keeps /admin/v1 closed: see functions/http/admin-auth.ts.
    // Never generated here: a token made up per instance would be useless and differ between them.
    adminToken: config.TMS_ADMIN_TOKEN ?? '',
  });
}

/**
 * A port this function was not given. Every method rejects with a 500 naming the port, so a route
 * that reaches it by mistake (a group moved between functions without its link) is found at once.
 * close() succeeds: there is nothing to release.
 */
export function unconfigured<T extends object>(port: string, methods: readonly string[]): T {
  const fail = async () => {
    throw new AppError('dependency', `${port} is not configured for this function`);
  };
  return Object.fromEntries([...methods.map((m) => [m, fail] as const), ['close', async () => {}] as const]) as T;
}
