// Everything core needs from the outside world, built once per process (or Lambda cold start)
// and passed explicitly. No module singletons.
import type { Config } from './config.ts';
import type { Sql } from './db/client.ts';
import type { Logger } from './log.ts';
import type { CounterStore } from './ports/counter-store.ts';
import type { ApiKeyVerifier } from './auth/api-key-verifier.ts';

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

export type Deps = {
  config: Config;
  sql: Sql;
  counters: CounterStore;
  apiKeys: ApiKeyVerifier;
  clock: Clock;
  log: Logger;
  /** The admin token guarding /admin/v1 (configured, or generated into the data dir). */
  adminToken: string;
};
