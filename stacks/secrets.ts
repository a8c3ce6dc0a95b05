// Every sst.Secret in one object. The component names are the keys the Lambda entries read through
// `Resource` (Resource.DatabaseUrl.value, ...), so renaming one breaks the running code: keep them.
// Values are per stage: `npx sst secret set DatabaseUrl <url> --stage <stage>`.
export const secrets = {
  databaseUrl: new sst.Secret('DatabaseUrl'),
  upstashRedisRestUrl: new sst.Secret('UpstashRedisRestUrl'),
  upstashRedisRestToken: new sst.Secret('UpstashRedisRestToken'),
  adminToken: new sst.Secret('AdminToken'),
  // The machine translation provider's key (DeepL, OpenAI-compatible, LibreTranslate). Optional: a
  // stage without it translates from memory only. Its placeholder keeps deploys working unset.
  machineTranslationKey: new sst.Secret('MachineTranslationKey', 'none'),
};

/** What every function that talks to Postgres links: the connection string. */
export const databaseLinks = [secrets.databaseUrl];
/** What every function that counts quota (all of them) links. */
export const quotaLinks = [secrets.upstashRedisRestUrl, secrets.upstashRedisRestToken];

// DATABASE_PREPARE travels with DatabaseUrl: named prepared statements break behind a
// transaction-mode pooler (PgBouncer/Supavisor in transaction mode, RDS Proxy), so a stage whose
// DatabaseUrl points at one must deploy with TMS_DATABASE_PREPARE=false, e.g. in `.env.<stage>`
// next to sst.config.ts (SST loads it into process.env for the deploy) or in CI's environment.
const databasePrepare = process.env['TMS_DATABASE_PREPARE'] ?? 'true';
if (databasePrepare !== 'true' && databasePrepare !== 'false') {
  throw new Error(`TMS_DATABASE_PREPARE must be "true" or "false", got "${databasePrepare}"`);
}

/** Plain (non-secret) database settings for every function that links DatabaseUrl. */
export const databaseEnvironment = {
  // One connection per Lambda instance: an instance serves one request at a time, and Postgres
  // connections are the scarce resource when Lambda scales out.
  DATABASE_POOL_MAX: '1',
  DATABASE_PREPARE: databasePrepare,
};
