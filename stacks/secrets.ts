import { databaseSettings } from './deploy-settings.ts';

// Every sst.Secret in one object. The component names are the keys the Lambda entries read through
// `Resource` (Resource.DatabaseUrl.value, ...), so renaming one breaks the running code: keep them.
// Values are per stage: `npx sst secret set DatabaseUrl <url> --stage <stage>`.
export const secrets = {
  databaseUrl: new sst.Secret('DatabaseUrl'),
  // Optional for a dev stage: left unset (placeholder "none"), each function instance counts the
  // daily quotas in its own memory (a warning at cold start). Production sets both.
  upstashRedisRestUrl: new sst.Secret('UpstashRedisRestUrl', 'none'),
  upstashRedisRestToken: new sst.Secret('UpstashRedisRestToken', 'none'),
  adminToken: new sst.Secret('AdminToken'),
  // The machine translation provider's key (DeepL, OpenAI-compatible, LibreTranslate, Google, Azure). Optional: a
  // stage without it translates from memory only. Its placeholder keeps deploys working unset.
  machineTranslationKey: new sst.Secret('MachineTranslationKey', 'none'),
};

/** What every function that talks to Postgres links: the connection string. */
export const databaseLinks = [secrets.databaseUrl];
/** What every function that counts quota (all of them) links. */
export const quotaLinks = [secrets.upstashRedisRestUrl, secrets.upstashRedisRestToken];

/** Plain (non-secret) database settings for every function that links DatabaseUrl. */
export const databaseEnvironment = databaseSettings(process.env);
