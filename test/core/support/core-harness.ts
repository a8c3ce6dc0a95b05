// Core use-cases called directly, without HTTP, on a real database: one fresh migrated database per
// test file (test/support/test-database.ts: embedded PGlite, or a clone on real Postgres when
// DATABASE_URL is set), Deps wired by the production assembleDeps, memory objects, Redis counters
// when REDIS_URL is set, and a queue that records what it was sent (builds run when a test says so).
import { translatorFromConfig } from '../../../core/translate/translator-from-config.ts';
import type { LiveBody } from '../../../core/translations/live-memo.ts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../../core/config.ts';
import type { Clock, Deps } from '../../../core/deps.ts';
import { assembleDeps } from '../../../core/assemble-deps.ts';
import { createSql } from '../../../core/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../core/db/embedded.ts';
import { createMemoryLogger } from '../../../core/log.ts';
import { createMemoryObjectStore } from '../../../core/adapters/object-store-memory.ts';
import { createMemoryCounterStore } from '../../../core/adapters/counter-store-memory.ts';
import { createRedisCounterStore } from '../../../core/adapters/counter-store-redis.ts';
import type { RebuildMessage } from '../../../core/ports/rebuild-queue.ts';
import type { EdgeCache } from '../../../core/ports/edge-cache.ts';
import type { RecordedEvent } from '../../../core/events/domain-event.ts';
import { ADMIN, type Actor } from '../../../core/actor.ts';
import type { Plan } from '../../../core/accounts/plans.ts';
import { createAccount } from '../../../core/accounts/create-account.ts';
import { createProject } from '../../../core/accounts/create-project.ts';
import { AppError, type AppErrorCode } from '../../../core/errors.ts';
import { createTestDatabase } from '../../support/test-database.ts';

export type CoreProject = {
  accountId: string;
  projectId: string;
  apiKeyId: string;
  apiKey: string;
  /** The project's API key as the actor of its writes. */
  actor: Actor;
};

/** A domain_events row as stored (ids as numbers, jsonb decoded). */
export type EventRow = {
  id: number;
  type: string;
  project_id: string | null;
  account_id: string | null;
  actor_type: string;
  actor_id: string | null;
  entity_type: string;
  entity_id: string;
  before: unknown;
  after: unknown;
};

export type CoreHarness = {
  readonly deps: Deps;
  /** Every event the bus published after a commit, in order. */
  readonly published: RecordedEvent[];
  /** Every message the queue was sent, in order. */
  readonly sent: RebuildMessage[];
  readonly log: ReturnType<typeof createMemoryLogger>;
  readonly kind: 'embedded' | 'postgres';
  /** Runs the core builder on a message, as the queue's consumer would. */
  build(message: RebuildMessage): Promise<void>;
  newAccount(plan?: Plan): Promise<string>;
  /** A fresh account on `plan` with one project and its first API key. */
  newProject(plan?: Plan): Promise<CoreProject>;
  /** The project's (or, with null, the account-level) events with id > after, in order. */
  events(scope: { projectId: string } | { accountId: string }, after?: number): Promise<EventRow[]>;
  /** The highest event id so far (0 when none). */
  lastEventId(): Promise<number>;
};

export type CoreOptions = { clock?: Clock; env?: Record<string, string>; edge?: EdgeCache };

const uniqueName = () => `acct-${randomBytes(3).toString('hex')}`;

export function useCore(options: CoreOptions = {}): CoreHarness {
  let state:
    | {
        deps: Deps;
        kind: 'embedded' | 'postgres';
        build: (message: RebuildMessage) => Promise<void>;
        close(): Promise<void>;
      }
    | undefined;
  const published: RecordedEvent[] = [];
  const sent: RebuildMessage[] = [];
  const log = createMemoryLogger();

  beforeAll(async () => {
    const db = await createTestDatabase();
    let embedded: EmbeddedPostgres | undefined;
    let url: string;
    let path: string | undefined;
    if (db.kind === 'embedded') {
      embedded = await startEmbeddedPostgres({ loadDataDir: db.tarball });
      url = embedded.url;
      path = embedded.path;
    } else {
      url = db.url;
    }
    // PGlite has one backend: one connection, as the embedded runtime uses (core/db/embedded.ts).
    const sql = createSql(url, { path, max: db.kind === 'embedded' ? 1 : 8, prepare: true, connectTimeoutSeconds: 5 });
    const config = loadConfig({
      TMS_ADMIN_TOKEN: 'core-test-admin-token',
      // Auto-rebuild decides inside the publish that follows each commit, so tests see its effect
      // as soon as the write returns (no timers left behind).
      AUTO_REBUILD_DEBOUNCE_MS: '0',
      ...options.env,
    });
    const counters = process.env.REDIS_URL
      ? createRedisCounterStore({ url: process.env.REDIS_URL, keyPrefix: `tms-core-test:${randomBytes(6).toString('hex')}:` })
      : createMemoryCounterStore();
    let build!: (message: RebuildMessage) => Promise<void>;
    const deps = assembleDeps({
      config,
      log,
      sql,
      counters,
      objects: createMemoryObjectStore(),
      queue: (run) => {
        build = run;
        return {
          send: async (message) => void sent.push(message),
          close: async () => {},
        };
      },
      adminToken: config.TMS_ADMIN_TOKEN!,
      translator: translatorFromConfig(config),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.edge ? { edge: options.edge } : {}),
    });
    deps.events.subscribe((events) => void published.push(...events));
    state = {
      deps,
      kind: db.kind,
      build: (message) => build(message),
      async close() {
        await counters.close();
        await sql.end({ timeout: 5 });
        await embedded?.close();
        if (db.kind === 'postgres') await db.drop();
      },
    };
  });
  afterAll(async () => {
    await state?.close();
  });

  const ready = () => {
    if (!state) throw new Error('core harness not started (use inside tests)');
    return state;
  };

  const newAccount = async (plan: Plan = 'free') => (await createAccount(ready().deps, { name: uniqueName(), plan, actor: ADMIN })).id;

  return {
    get deps() {
      return ready().deps;
    },
    get kind() {
      return ready().kind;
    },
    published,
    sent,
    log,
    build: (message) => ready().build(message),
    newAccount,
    async newProject(plan = 'free') {
      const accountId = await newAccount(plan);
      const project = await createProject(ready().deps, { accountId, name: 'project', actor: ADMIN });
      return {
        accountId,
        projectId: project.id,
        apiKeyId: project.api_key.id,
        apiKey: project.api_key.key,
        actor: { type: 'api_key', id: project.api_key.id },
      };
    },
    async events(scope, after = 0) {
      const { sql } = ready().deps;
      const where = 'projectId' in scope ? sql`project_id = ${scope.projectId}` : sql`account_id = ${scope.accountId}`;
      return sql<EventRow[]>`
        select id::int, type, project_id, account_id, actor_type, actor_id, entity_type, entity_id, before, after
        from domain_events where ${where} and id > ${after} order by id`;
    },
    async lastEventId() {
      const [row] = await ready().deps.sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from domain_events`;
      return row!.id;
    },
  };
}

/** The AppError a promise rejects with, failing the test when it resolves or throws anything else. */
export async function domainError(promise: Promise<unknown>, code?: AppErrorCode): Promise<AppError> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    if (!(error instanceof AppError)) throw new Error(`expected an AppError, got: ${String(error)}`, { cause: error });
    if (code !== undefined && error.code !== code) {
      throw new Error(`expected AppError ${code}, got ${error.code}: ${error.message}`, { cause: error });
    }
    return error;
  }
  throw new Error(`expected an AppError${code ? ` ${code}` : ''}, but it resolved with ${JSON.stringify(outcome)}`);
}

/** Seeds `count` live keys `${prefix}${n}` in one set-based statement (no use-case, no events). */
export async function seedKeys(deps: Pick<Deps, 'sql'>, projectId: string, count: number, options: { group?: string; prefix?: string } = {}) {
  const group = options.group ?? 'seeded';
  const prefix = options.prefix ?? `${group}.k`;
  await deps.sql`
    insert into translation_keys (project_id, key, group_name)
    select ${projectId}, ${prefix} || n, ${group} from generate_series(1, ${count}::int) as n`;
}

export const liveKeyCount = async (deps: Pick<Deps, 'sql'>, projectId: string, group?: string) => {
  const [row] = await deps.sql<{ n: number }[]>`
    select count(*)::int as n from translation_keys
    where project_id = ${projectId} and deleted_at is null ${group === undefined ? deps.sql`` : deps.sql`and group_name = ${group}`}`;
  return row!.n;
};

/** The JSON of a live read's body (live reads return bytes with their version and ETag). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const liveJson = async (read: Promise<LiveBody>): Promise<any> => JSON.parse(Buffer.from((await read).body).toString('utf8'));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const bodyJson = (live: LiveBody): any => JSON.parse(Buffer.from(live.body).toString('utf8'));
