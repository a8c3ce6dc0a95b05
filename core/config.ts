// Environment -> typed Config. Nothing set at all means embedded local mode: PGlite under the data
// dir, in-memory counters, a filesystem object store and the rebuild queue in that same database.
// Lambda entries build the same Config from SST's linked resources (functions/lambda/resource-env.ts).
import * as v from 'valibot';
import { unusableLibpqParameter } from './db/libpq-parameters.ts';
import { unusableRedisUrl } from './adapters/redis-connection.ts';
import { canonicalOrigin } from './accounts/origin.ts';

// An empty setting (`PORT=`, as an .env file template leaves it) is an unset one: its default applies.
// It once became 0 for numbers (a random port; the brute-force limit, disk guard and statement
// timeout turned off), '' for HOST (every interface) and for TMS_DATA_DIR (the working directory).
const optionalString = v.optional(v.pipe(v.string(), v.trim(), v.transform((s) => (s === '' ? undefined : s))));
const orDefault = (def: string) => v.transform((s: string) => (s === '' ? def : s));
const textFrom = (def: string) => v.optional(v.pipe(v.string(), v.trim(), orDefault(def)), def);
const intFrom = (def: number, min: number, max: number) =>
  v.optional(
    v.pipe(v.string(), v.trim(), orDefault(String(def)), v.toNumber(), v.integer(), v.minValue(min), v.maxValue(max)),
    String(def),
  );
const boolFrom = (def: boolean) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      orDefault(def ? 'true' : 'false'),
      v.picklist(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off']),
      v.transform((s) => ['1', 'true', 'yes', 'on'].includes(s)),
    ),
    def ? 'true' : 'false',
  );

/**
 * A connection URL whose scheme is one of `schemes`: a typo fails at start, not at the first call.
 * `refuse` names anything else in a well-formed URL that cannot work (undefined: nothing).
 */
const urlWithScheme = (schemes: string[], refuse: (url: string) => string | undefined = () => undefined) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => (s === '' ? undefined : s)),
      v.check(
        (s) => s === undefined || (URL.canParse(s) && schemes.includes(new URL(s).protocol)),
        `must be a URL starting with ${schemes.map((scheme) => `${scheme}//`).join(' or ')}`,
      ),
      v.rawCheck(({ dataset, addIssue }) => {
        const refused = dataset.typed && dataset.value !== undefined ? refuse(dataset.value) : undefined;
        if (refused) addIssue({ message: refused });
      }),
    ),
  );

const MT_PROVIDERS = ['deepl', 'openai', 'libretranslate', 'google', 'azure'] as const;

export const EnvSchema = v.object({
  PORT: intFrom(3000, 0, 65535),
  HOST: textFrom('127.0.0.1'),
  TMS_DATA_DIR: textFrom('./.tms'),
  /**
   * A bearer token is visible ASCII (RFC 6750's b64token is a subset): a space inside cannot be sent
   * in `Authorization: Bearer …`, and a non-ASCII character arrives as other bytes (Node reads header
   * values as latin1), so such a token would be accepted here and refused on every request.
   */
  TMS_ADMIN_TOKEN: v.pipe(
    optionalString,
    v.check(
      (s) => s === undefined || /^[\x21-\x7e]+$/.test(s),
      'must be visible ASCII characters only (letters, digits, punctuation; no spaces, no other characters), as an HTTP bearer token is: generate one with `openssl rand -base64 32`',
    ),
  ),
  /**
   * The embedded database refuses writes while its disk has less free space than this (MB), since
   * PGlite cannot survive a full disk (core/db/disk-guard.ts); 0 turns the guard off.
   */
  TMS_DATA_DIR_MIN_FREE_MB: intFrom(512, 0, 16 * 1024 * 1024),
  DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], unusableLibpqParameter),
  /** Pool size per process. Lambda wants 1. */
  DATABASE_POOL_MAX: intFrom(10, 1, 100),
  /** Named prepared statements; turn off behind transaction-mode poolers (PgBouncer, RDS Proxy pinning). */
  DATABASE_PREPARE: boolFrom(true),
  DATABASE_CONNECT_TIMEOUT_SECONDS: intFrom(5, 1, 60),
  /** Postgres ends a request's statement after this long (statement_timeout); 0 turns it off. */
  DATABASE_STATEMENT_TIMEOUT_MS: intFrom(15000, 0, 600000),
  /** Redis over TCP, or through its Unix socket on the same machine (core/adapters/redis-connection.ts). */
  REDIS_URL: urlWithScheme(['redis:', 'rediss:', 'unix:'], unusableRedisUrl),
  /** Prefix of every counter key in Redis / Upstash, so that several deployments can share one. */
  REDIS_KEY_PREFIX: v.optional(v.pipe(v.string(), v.trim(), orDefault('tms:'), v.maxLength(100)), 'tms:'),
  UPSTASH_REDIS_REST_URL: urlWithScheme(['https:', 'http:']),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  /** S3 bucket for built cache objects; unset means the filesystem under TMS_DATA_DIR/objects. */
  S3_BUCKET: optionalString,
  /** A self-hosted S3 (MinIO, Garage, Ceph): its URL with the scheme, http://127.0.0.1:9000. */
  S3_ENDPOINT: urlWithScheme(['http:', 'https:']),
  S3_REGION: optionalString,
  /** Set by Lambda; the region for S3 and SQS when S3_REGION is not. */
  AWS_REGION: optionalString,
  S3_FORCE_PATH_STYLE: boolFrom(false),
  /** SQS queue for rebuild requests; unset means the durable queue in Postgres, built by every process's worker. */
  SQS_QUEUE_URL: optionalString,
  SQS_ENDPOINT: urlWithScheme(['http:', 'https:']),
  SQS_DEAD_LETTER_QUEUE_URL: optionalString,
  /**
   * The rebuild queue's redrive limit (its maxReceiveCount; stacks/queue.ts sets both): on a failed
   * build's last receive the builder records that no retry follows, instead of "retried automatically".
   */
  REBUILD_MAX_RECEIVES: intFrom(10, 1, 1000),
  /** Machine translation (issue 17): which provider, when more than one is configured. */
  MT_PROVIDER: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => (s === '' ? undefined : s)),
      v.optional(v.picklist(MT_PROVIDERS, `must be one of ${MT_PROVIDERS.join(', ')}`)),
    ),
  ),
  /** The key of the provider in use, MT_PROVIDER's or the only one configured (on AWS: the MachineTranslationKey secret; "none" means unset). */
  MT_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.transform((s) => (s === '' || s === 'none' ? undefined : s)))),
  DEEPL_API_KEY: optionalString,
  /** DeepL's API root; unset means api-free.deepl.com for ":fx" keys, api.deepl.com otherwise. */
  DEEPL_API_URL: urlWithScheme(['https:', 'http:']),
  /** An OpenAI-compatible chat-completions endpoint: the model turns it on (Ollama: http://localhost:11434/v1). */
  OPENAI_MODEL: optionalString,
  OPENAI_BASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      orDefault('https://api.openai.com/v1'),
      v.check((s) => URL.canParse(s) && ['https:', 'http:'].includes(new URL(s).protocol), 'must be a URL starting with https:// or http://'),
    ),
    'https://api.openai.com/v1',
  ),
  OPENAI_API_KEY: optionalString,
  LIBRETRANSLATE_URL: urlWithScheme(['http:', 'https:']),
  LIBRETRANSLATE_API_KEY: optionalString,
  /** Google Cloud Translation - Basic (v2): an API key of a project with the Cloud Translation API enabled. */
  GOOGLE_TRANSLATE_API_KEY: optionalString,
  /** Google's API root (a proxy, a test's emulator); unset means https://translation.googleapis.com. */
  GOOGLE_TRANSLATE_URL: urlWithScheme(['https:', 'http:']),
  /** Azure AI Translator (v3): the resource's key. */
  AZURE_TRANSLATOR_KEY: optionalString,
  /** The resource's region (westeurope): needed for a regional or multi-service resource, not for a global one. */
  AZURE_TRANSLATOR_REGION: optionalString,
  /** Azure's endpoint; unset means the global https://api.cognitive.microsofttranslator.com. */
  AZURE_TRANSLATOR_URL: urlWithScheme(['https:', 'http:']),
  /** How long one provider call may take. */
  MT_TIMEOUT_MS: intFrom(30000, 1000, 300000),
  /**
   * How long one bulk translation may spend on the provider in all (0: no limit). A batch is started
   * only while a whole MT_TIMEOUT_MS still fits; the rest is left for the next call (`remaining`).
   * The stacks set it below the functions' timeout (stacks/deploy-settings.ts).
   */
  MT_TIME_LIMIT_MS: intFrom(0, 0, 3_600_000),
  /**
   * The CloudFront distribution in front of the API: after each build the builder invalidates the
   * mutable cached paths that changed. Unset: no edge to tell (self-hosted, embedded).
   */
  CLOUDFRONT_DISTRIBUTION_ID: optionalString,
  /** For a CloudFront-compatible server (tests); unset on AWS. */
  CLOUDFRONT_ENDPOINT: urlWithScheme(['http:', 'https:']),
  /** How long a verified API key is trusted in process before the database is asked again. */
  API_KEY_CACHE_SECONDS: intFrom(30, 0, 3600),
  /** How long a well-formed key that matched nothing is refused without asking the database again. */
  API_KEY_NEGATIVE_CACHE_SECONDS: intFrom(10, 0, 3600),
  /** Failed authentications per client address per minute before 429 (in process); 0 turns it off. */
  AUTH_FAILURES_PER_MINUTE: intFrom(60, 0, 100000),
  /** Reverse proxies in front of the local server whose X-Forwarded-For is believed (0: the socket's peer). */
  TRUST_PROXY_HOPS: intFrom(0, 0, 10),
  /** The self-hosted server gives a client this long to send a whole request, and its headers. */
  HTTP_REQUEST_TIMEOUT_MS: intFrom(30000, 1000, 600000),
  HTTP_HEADERS_TIMEOUT_MS: intFrom(10000, 1000, 600000),
  /** How often a process's rebuild worker looks for builds that another process queued (no SQS). */
  REBUILD_POLL_MS: intFrom(2000, 50, 60000),
  /** On SIGTERM / Ctrl-C, how long `npm start` waits for in-flight requests and the running build. */
  SHUTDOWN_TIMEOUT_MS: intFrom(10000, 0, 600000),
  /** Debounce for auto_rebuild after writes. */
  AUTO_REBUILD_DEBOUNCE_MS: intFrom(2000, 0, 600000),
  LOG_REQUESTS: boolFrom(true),
  /**
   * Where a 402 QUOTA_EXCEEDED sends a caller to raise the plan (its detail's upgrade_url): the
   * operator's pricing or contact page. The default, the API docs' account section, is relative.
   */
  UPGRADE_URL: textFrom('/docs#/Admin'),
  /**
   * Browser origins allowed to call the API: `*`, or a comma-separated list of origins, each taken as
   * a browser sends it (`https://App.example.com:443/` is `https://app.example.com`); one that is no
   * origin is refused at start, not left to match no browser.
   */
  CORS_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      orDefault('*'),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        if (dataset.value === '*') return '*';
        const origins = dataset.value.split(',').map((o) => o.trim()).filter(Boolean);
        const bad = origins.filter((o) => canonicalOrigin(o) === null);
        if (bad.length || origins.length === 0) {
          addIssue({ message: `not an origin (scheme://host[:port], nothing after it): ${bad.join(', ') || dataset.value}` });
          return NEVER;
        }
        return [...new Set(origins.map((o) => canonicalOrigin(o)!))].join(',');
      }),
    ),
    '*',
  ),
  // Webhooks (core/webhooks, docs/operations.md "Webhooks").
  /** Allow endpoints on private, loopback, link-local and unique-local addresses (tests, closed networks). */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolFrom(false),
  /** How long one attempt may take, connection to last byte; no redirect is ever followed. */
  WEBHOOKS_TIMEOUT_MS: intFrom(10000, 100, 60000),
  /** First retry delay; each next one is 4 times longer, at most 8 hours. */
  WEBHOOKS_RETRY_BASE_MS: intFrom(5000, 10, 3600000),
  /** A delivery still failing this long after its event is marked failed (one day). */
  WEBHOOKS_RETRY_WINDOW_SECONDS: intFrom(86400, 1, 30 * 86400),
  /** An endpoint failing every attempt for this long is disabled (three days). */
  WEBHOOKS_DISABLE_AFTER_SECONDS: intFrom(3 * 86400, 1, 365 * 86400),
  /** translations.changed gathers a project's changes for this long after the first one. */
  WEBHOOKS_DEBOUNCE_MS: intFrom(5000, 0, 600000),
  /** Finished deliveries (sent or given up) are kept this many days for the log and replays. */
  WEBHOOKS_RETENTION_DAYS: intFrom(30, 1, 3650),
  /** How often the Postgres worker looks for deliveries that another process queued. */
  WEBHOOKS_POLL_MS: intFrom(1000, 20, 60000),
  /** SQS queue carrying delivery attempts (AWS); unset means the Postgres worker in this process. */
  WEBHOOKS_QUEUE_URL: optionalString,
});

export type Config = v.InferOutput<typeof EnvSchema>;

export class ConfigError extends Error {}

/**
 * What a long-running server (`npm start`) refuses beyond loadConfig: settings that contradict each
 * other, where one would silently win. (Lambda lays its links over whatever the environment holds.)
 */
export function checkServerConfig(config: Config): void {
  if (config.REDIS_URL && config.UPSTASH_REDIS_REST_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL and UPSTASH_REDIS_REST_URL are both set: the daily quota is counted in one store; unset one of them',
    );
  }
  // Before the database is opened or migrated: a start that must fail fails first.
  machineTranslationProvider(config);
}

type MtProvider = (typeof MT_PROVIDERS)[number];

/**
 * The machine translation provider the settings choose, or null when none is configured. A
 * provider's own variable wins; MT_API_KEY is the key of the provider MT_PROVIDER names. Several
 * configured without MT_PROVIDER, or MT_PROVIDER naming one that is not, cannot work: refused.
 */
export function machineTranslationProvider(
  config: Pick<Config, 'MT_PROVIDER' | 'MT_API_KEY' | 'DEEPL_API_KEY' | 'OPENAI_MODEL' | 'LIBRETRANSLATE_URL' | 'GOOGLE_TRANSLATE_API_KEY' | 'AZURE_TRANSLATOR_KEY'>,
): MtProvider | null {
  const configured: MtProvider[] = [];
  // A provider configured by its key alone is configured by MT_API_KEY when MT_PROVIDER names it.
  const keyed = (own: string | undefined, provider: MtProvider) => own ?? (config.MT_PROVIDER === provider ? config.MT_API_KEY : undefined);
  if (keyed(config.DEEPL_API_KEY, 'deepl')) configured.push('deepl');
  if (config.OPENAI_MODEL) configured.push('openai');
  if (config.LIBRETRANSLATE_URL) configured.push('libretranslate');
  if (keyed(config.GOOGLE_TRANSLATE_API_KEY, 'google')) configured.push('google');
  if (keyed(config.AZURE_TRANSLATOR_KEY, 'azure')) configured.push('azure');
  const provider = config.MT_PROVIDER ?? (configured.length === 1 ? configured[0]! : undefined);
  if (!provider) {
    if (configured.length > 1) {
      throw new ConfigError(`Invalid configuration:\n  MT_PROVIDER: several machine translation providers are configured (${configured.join(', ')}): set MT_PROVIDER to one of them`);
    }
    return null;
  }
  if (!configured.includes(provider)) {
    throw new ConfigError(`Invalid configuration:\n  MT_PROVIDER: ${provider} is not configured (see README, "Machine translation")`);
  }
  return provider;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = v.safeParse(EnvSchema, env);
  if (!result.success) {
    const lines = result.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = result.output;
  if (Boolean(config.UPSTASH_REDIS_REST_URL) !== Boolean(config.UPSTASH_REDIS_REST_TOKEN)) {
    throw new ConfigError('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must be set together');
  }
  return config;
}
