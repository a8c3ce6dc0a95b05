// Plain settings the functions get from the deploying environment: `TMS_<NAME>` in the shell, in CI
// or in `.env.<stage>` next to sst.config.ts (SST loads it into process.env for the deploy). Plain
// functions of that environment, with no SST globals, so tests check what a stage would run with.

/** Every HTTP function's timeout. API Gateway gives up on an integration after 30 seconds. */
export const HTTP_FUNCTION_TIMEOUT_SECONDS = 20;

/**
 * How long a bulk translation (POST /v1/translate, the portal's "Translate missing") may spend on the
 * provider: the function's timeout less time to write what came back. Batches not started by then
 * are left for the next call (`remaining`), instead of the function timing out with the provider's
 * paid-for work lost and API Gateway's bare error for the caller.
 */
export const MT_TIME_LIMIT_MS = (HTTP_FUNCTION_TIMEOUT_SECONDS - 4) * 1000;

/** One provider call's timeout on AWS when TMS_MT_TIMEOUT_MS is unset (30 s elsewhere). */
export const MT_TIMEOUT_MS_ON_AWS = 8000;

type Env = Record<string, string | undefined>;

const MT_SETTINGS = [
  'MT_PROVIDER',
  'DEEPL_API_URL',
  'OPENAI_MODEL',
  'OPENAI_BASE_URL',
  'LIBRETRANSLATE_URL',
  'GOOGLE_TRANSLATE_URL',
  'AZURE_TRANSLATOR_URL',
  'AZURE_TRANSLATOR_REGION',
  'MT_TIMEOUT_MS',
] as const;

/**
 * Where a 402 QUOTA_EXCEEDED answer's upgrade_url sends the caller: TMS_UPGRADE_URL (the operator's
 * pricing or contact page), else the portal, where the account's usage is shown. The self-hosted
 * default, /docs, is not deployed on AWS (docs/deploy.md).
 */
export function upgradeEnvironment(env: Env): Record<string, string> {
  return { UPGRADE_URL: env['TMS_UPGRADE_URL']?.trim() || '/portal' };
}

/** Which provider the translate and portal functions use, and where; the key is a secret (MachineTranslationKey). */
export function machineTranslationEnvironment(env: Env): Record<string, string> {
  const settings: Record<string, string> = Object.fromEntries(MT_SETTINGS.flatMap((name) => (env[`TMS_${name}`] ? [[name, env[`TMS_${name}`]!]] : [])));
  const timeout = Number(settings['MT_TIMEOUT_MS'] ?? MT_TIMEOUT_MS_ON_AWS);
  // A provider call that may outlast the time left would be cut off with the function.
  if (!Number.isInteger(timeout) || timeout < 1000 || timeout > MT_TIME_LIMIT_MS / 2) {
    throw new Error(`TMS_MT_TIMEOUT_MS must be a whole number of milliseconds from 1000 to ${MT_TIME_LIMIT_MS / 2} on AWS (the functions time out after ${HTTP_FUNCTION_TIMEOUT_SECONDS} s), got "${settings['MT_TIMEOUT_MS']}"`);
  }
  return { ...settings, MT_TIMEOUT_MS: String(timeout), MT_TIME_LIMIT_MS: String(MT_TIME_LIMIT_MS) };
}

/**
 * Plain database settings for every function that links DatabaseUrl:
 * - One connection per Lambda instance: an instance serves one request at a time, and Postgres
 *   connections are the scarce resource when Lambda scales out.
 * - DATABASE_PREPARE travels with DatabaseUrl: named prepared statements break behind a
 *   transaction-mode pooler (PgBouncer/Supavisor in transaction mode, RDS Proxy), so a stage whose
 *   DatabaseUrl points at one deploys with TMS_DATABASE_PREPARE=false.
 * - TMS_DATABASE_CONNECT_TIMEOUT_SECONDS (5 s unset): a serverless database that wakes slower
 *   (docs/deploy.md, Neon) needs more on a cold start.
 * Checked here, at deploy: a bad value would otherwise fail every function at its cold start.
 */
export function databaseSettings(env: Env): Record<string, string> {
  const prepare = env['TMS_DATABASE_PREPARE']?.trim() || 'true';
  if (prepare !== 'true' && prepare !== 'false') throw new Error(`TMS_DATABASE_PREPARE must be "true" or "false", got "${prepare}"`);
  const settings: Record<string, string> = { DATABASE_POOL_MAX: '1', DATABASE_PREPARE: prepare };
  const connect = env['TMS_DATABASE_CONNECT_TIMEOUT_SECONDS']?.trim();
  if (connect) {
    // The HTTP functions give up after HTTP_FUNCTION_TIMEOUT_SECONDS: a connection must leave room for the work.
    const max = HTTP_FUNCTION_TIMEOUT_SECONDS / 2;
    if (!/^\d+$/.test(connect) || Number(connect) < 1 || Number(connect) > max) {
      throw new Error(`TMS_DATABASE_CONNECT_TIMEOUT_SECONDS must be a whole number of seconds from 1 to ${max} on AWS, got "${connect}"`);
    }
    settings['DATABASE_CONNECT_TIMEOUT_SECONDS'] = connect;
  }
  return settings;
}

/**
 * The query strings CloudFront keys each cached path pattern on (stacks/api.ts's cache policies), in
 * the distribution's order of precedence. The builder's edge invalidation (core/cache/edge-invalidation.ts)
 * must cover every copy they make: a language's paths are invalidated with a trailing `*` (every
 * `?fallback=` copy), the manifest by its exact path, so the manifest, which takes no query string,
 * is keyed on none (`/v1/cached/manifest?fallback=false` would otherwise be a copy of its own that
 * no build invalidates: an old build's manifest for up to 300 s).
 */
export const EDGE_CACHED_QUERY_STRINGS = [
  { pathPattern: '/v1/cached/builds/*', queryStrings: ['fallback'] },
  { pathPattern: '/v1/cached/manifest', queryStrings: [] },
  { pathPattern: '/v1/cached/*', queryStrings: ['fallback'] },
] as const satisfies readonly { pathPattern: string; queryStrings: readonly string[] }[];
