// The only place that reads SST's linked resources. It maps each link this function has to the
// environment name core/config.ts knows, lays those over process.env and parses the result with the
// same loadConfig() the local server uses, so library code only ever sees a plain Config.
//
// A link is optional here: each function links only what it uses (stacks/api.ts, stacks/queue.ts),
// and `name in Resource` checks for one without throwing. What a function cannot run without is
// checked where it is used (lambda-deps.ts and the port factories), with an error naming the link.
import { Resource } from 'sst/resource';
import { ConfigError, loadConfig, type Config } from '../../core/config.ts';

/** Link name -> [environment name, the field of the linked resource that holds the value]. */
export const LINKED_ENV = {
  DatabaseUrl: ['DATABASE_URL', 'value'],
  UpstashRedisRestUrl: ['UPSTASH_REDIS_REST_URL', 'value'],
  UpstashRedisRestToken: ['UPSTASH_REDIS_REST_TOKEN', 'value'],
  AdminToken: ['TMS_ADMIN_TOKEN', 'value'],
  TranslationsBucket: ['S3_BUCKET', 'name'],
  RebuildQueue: ['SQS_QUEUE_URL', 'url'],
  RebuildDeadLetterQueue: ['SQS_DEAD_LETTER_QUEUE_URL', 'url'],
  MachineTranslationKey: ['MT_API_KEY', 'value'],
  EdgeCache: ['CLOUDFRONT_DISTRIBUTION_ID', 'distributionId'],
  WebhookQueue: ['WEBHOOKS_QUEUE_URL', 'url'],
} as const satisfies Record<string, readonly [keyof Config, 'value' | 'name' | 'url' | 'distributionId']>;

export type LinkName = keyof typeof LINKED_ENV;

/** The value an optional sst.Secret keeps until one is set. */
export const UNSET_SECRET = 'none';

/** The environment variables the linked resources of this function stand for. */
export function linkedEnv(): Record<string, string> {
  const resources = Resource as unknown as Record<string, Record<string, unknown> | undefined>;
  const env: Record<string, string> = {};
  for (const [link, [name, field]] of Object.entries(LINKED_ENV)) {
    if (!(link in Resource)) continue;
    const value = resources[link]?.[field];
    if (typeof value !== 'string') throw new ConfigError(`Linked resource ${link} has no string "${field}"`);
    // "none" is the placeholder of an optional secret left unset (stacks/secrets.ts): not set.
    if (value === UNSET_SECRET) continue;
    env[name] = value;
  }
  return env;
}

/**
 * Config for a Lambda: links over process.env, plus what Lambda itself dictates:
 * - TMS_DATA_DIR under /tmp, the only writable place (nothing should write there; it is a fence).
 * - One database connection unless the stack says otherwise: an instance serves one request at a
 *   time, and connections are what runs out when Lambda scales out.
 * - No auto_rebuild debounce: a timer would not outlive the invocation (a frozen instance runs no
 *   timers), so each write queues its rebuild at once and the builder's sequence check coalesces.
 */
export function lambdaConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = loadConfig({
    ...env,
    DATABASE_POOL_MAX: env['DATABASE_POOL_MAX'] ?? '1',
    ...linkedEnv(),
    TMS_DATA_DIR: '/tmp/tms',
    AUTO_REBUILD_DEBOUNCE_MS: '0',
  });
  if (!config.DATABASE_URL) {
    throw new ConfigError(
      'DATABASE_URL is required on Lambda: link the DatabaseUrl secret to this function ' +
        '(`npx sst secret set DatabaseUrl <url> --stage <stage>`); there is no embedded database here',
    );
  }
  return config;
}
