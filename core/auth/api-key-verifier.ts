// Resolves an API key to its project, with a small in-process cache so that hot paths (the cached
// endpoints above all) do not read the database on every request.
//
// Staleness: a key revoked in this process stops working at once (revoke() evicts it). In another
// process it keeps working for at most `ttlMs` (API_KEY_CACHE_SECONDS). When the database cannot
// be reached, an entry verified within `staleIfErrorMs` is still honoured, so apps keep reading
// cached translations through a database outage.
//
// Unknown keys: a well-formed key that matches nothing is remembered as unknown for
// `negativeTtlMs`, so repeating it costs no database read; a key revoked here is dropped from the
// positive cache and so fails at once. Failed authentications are also counted per client address
// (failed-auth-limiter.ts): past the limit the address gets 429 before any lookup.
import { AppError, type AuthChallenge } from '../errors.ts';
import type { Sql } from '../db/client.ts';
import { isConnectionError, toDomainError } from '../db/errors.ts';
import type { Logger } from '../log.ts';
import type { Plan } from '../accounts/plans.ts';
import { apiKeyKindOf, hashApiKey, type ApiKeyKind } from './api-key-format.ts';
import { createFailedAuthLimiter } from './failed-auth-limiter.ts';
import { createLastUsedRecorder, type LastUsedRecorder } from './last-used.ts';

export type Principal = {
  apiKeyId: string;
  projectId: string;
  accountId: string;
  plan: Plan;
  /** Admin override of the plan's daily call limit, or null. */
  dailyCallLimit: number | null;
  /** 'delivery': read-only on the cached endpoints (functions/http/api-key-auth.ts enforces it). */
  kind: ApiKeyKind;
  /** A delivery key's browser origins (exact, normalized), or null for any. */
  allowedOrigins: readonly string[] | null;
  /** A delivery key's languages (normalized codes), or null for all. */
  allowedLanguages: readonly string[] | null;
};

type Entry = { principal: Principal; verifiedAt: number };

export type ApiKeyVerifier = {
  /** `address`: the caller's network address, for throttling failed attempts (unknown: none). */
  verify(key: string | undefined, context?: { address?: string | undefined }): Promise<Principal>;
  /** Forget a revoked key in this process at once. */
  evictKey(apiKeyId: string): void;
  /** Forget every key of an account (its plan or limits changed). */
  evictAccount(accountId: string): void;
  /** Forget every key of a project (its settings changed). */
  evictProject(projectId: string): void;
  /** Resolves once the last-use writes fired so far are done (tests). */
  lastUseSettled(): Promise<void>;
};

/** `ApiKey` is not a registered scheme; its parameter names the header the key goes in. */
const API_KEY_CHALLENGE: AuthChallenge = { challenge: 'ApiKey realm="tms", header="X-API-Key"' };

export const invalidApiKey = () => new AppError('unauthorized', 'Invalid API key', { data: API_KEY_CHALLENGE });

export function createApiKeyVerifier(options: {
  sql: Sql;
  log: Logger;
  ttlMs: number;
  /** How long a key that matched nothing is refused without a lookup. */
  negativeTtlMs?: number;
  /** Failed authentications per client address per minute before 429; 0: no limit. */
  failuresPerMinute?: number;
  staleIfErrorMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Where uses are recorded (at most about once a minute per key); one over `sql` unless given. */
  lastUsed?: LastUsedRecorder;
}): ApiKeyVerifier {
  const { sql, log, ttlMs } = options;
  const staleIfErrorMs = options.staleIfErrorMs ?? 24 * 60 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  // Map keeps insertion order: re-inserting on refresh makes the first entry the least recent.
  const byHash = new Map<string, Entry>();
  const negativeTtlMs = options.negativeTtlMs ?? 10_000;
  const unknown = new Map<string, number>();
  const failures = createFailedAuthLimiter({ perMinute: options.failuresPerMinute ?? 0, now });
  const lastUsed = options.lastUsed ?? createLastUsedRecorder({ sql, log });
  const rememberUnknown = (hash: string) => {
    if (negativeTtlMs <= 0) return;
    unknown.delete(hash);
    unknown.set(hash, now() + negativeTtlMs);
    if (unknown.size > maxEntries) unknown.delete(unknown.keys().next().value as string);
  };
  const inFlight = new Map<string, Promise<Principal | null>>();
  const startLookup = (hash: string, kind: ApiKeyKind) => {
    const running = lookup(hash, kind).finally(() => inFlight.delete(hash));
    inFlight.set(hash, running);
    return running;
  };
  const refuse = (address: string | undefined) => {
    failures.fail(address);
    return invalidApiKey();
  };

  // The kind is the prefix's: a row of another kind with the same hash (impossible for keys this
  // service mints) would not authenticate.
  const lookup = async (hash: string, kind: ApiKeyKind): Promise<Principal | null> => {
    const rows = await sql<
      {
        api_key_id: string;
        project_id: string;
        account_id: string;
        plan: Plan;
        daily_call_limit: number | null;
        allowed_origins: string[] | null;
        allowed_languages: string[] | null;
      }[]
    >`
      select k.id as api_key_id, k.project_id, p.account_id, a.plan, a.daily_call_limit, k.allowed_origins, k.allowed_languages
      from api_keys k
      join projects p on p.id = k.project_id
      join accounts a on a.id = p.account_id
      where k.key_hash = ${hash} and k.kind = ${kind} and k.revoked_at is null`;
    const row = rows[0];
    if (!row) return null;
    return {
      apiKeyId: row.api_key_id,
      projectId: row.project_id,
      accountId: row.account_id,
      plan: row.plan,
      dailyCallLimit: row.daily_call_limit,
      kind,
      allowedOrigins: row.allowed_origins,
      allowedLanguages: row.allowed_languages,
    };
  };

  const remember = (hash: string, principal: Principal) => {
    byHash.delete(hash);
    byHash.set(hash, { principal, verifiedAt: now() });
    if (byHash.size > maxEntries) byHash.delete(byHash.keys().next().value as string);
  };

  // Counted, so that a lookup that read the row before a revoke (or a plan change) committed, and
  // answers after the eviction, does not put the old answer back for the whole TTL: it is served to
  // its own request (it was concurrent with the revoke) and not remembered.
  let evictions = 0;
  const evictWhere = (test: (p: Principal) => boolean) => {
    evictions++;
    for (const [hash, entry] of byHash) if (test(entry.principal)) byHash.delete(hash);
  };

  return {
    async verify(key, context = {}) {
      const { address } = context;
      // What needs no database read is answered as the spec says whatever the address did: a
      // missing, malformed or recently refused key is a 401, a key verified recently passes (a
      // valid key shared with a flood's address, behind one NAT, keeps working). Only a lookup is
      // refused to an address past its failures (429), so a flood of made-up keys reads nothing.
      const kind = key === undefined ? undefined : apiKeyKindOf(key);
      if (key === undefined || kind === undefined) throw refuse(address);
      const hash = hashApiKey(key);
      const unknownUntil = unknown.get(hash);
      if (unknownUntil !== undefined) {
        if (unknownUntil > now()) throw refuse(address);
        unknown.delete(hash);
      }
      const cached = byHash.get(hash);
      const age = cached ? now() - cached.verifiedAt : Infinity;
      if (cached && age < ttlMs) {
        lastUsed.touch(cached.principal.apiKeyId);
        return cached.principal;
      }
      // A key this process verified before (its entry outlived the TTL) is looked up whatever the
      // address did: only holders of a valid key have one, and a team behind a flooded NAT keeps
      // working past API_KEY_CACHE_SECONDS. Any other lookup counts as a failure from its start,
      // taken back if the key proves valid: counted only at its end, concurrent made-up keys all
      // passed the check and were all looked up.
      // Requests with the same key while its lookup runs share that lookup (a client's parallel
      // first requests are one lookup, counted once).
      const joined = inFlight.get(hash);
      const counted = !cached && !joined;
      if (counted) failures.attempt(address);
      const generation = evictions;
      let principal: Principal | null;
      try {
        principal = await (joined ?? startLookup(hash, kind));
      } catch (error) {
        if (counted) failures.forgive(address);
        if (cached && age < staleIfErrorMs && isConnectionError(error)) {
          log.warn('api key verified from cache: database unreachable', { project_id: cached.principal.projectId });
          lastUsed.touch(cached.principal.apiKeyId);
          return cached.principal;
        }
        throw toDomainError(error);
      }
      if (!principal) {
        byHash.delete(hash);
        rememberUnknown(hash);
        if (counted) throw invalidApiKey();
        throw refuse(address);
      }
      if (counted) failures.forgive(address);
      // A shared lookup is remembered by the request that started it (it knows whether an eviction
      // came after its read began).
      if (!joined && generation === evictions) remember(hash, principal);
      lastUsed.touch(principal.apiKeyId);
      return principal;
    },
    evictKey: (apiKeyId) => evictWhere((p) => p.apiKeyId === apiKeyId),
    evictAccount: (accountId) => evictWhere((p) => p.accountId === accountId),
    evictProject: (projectId) => evictWhere((p) => p.projectId === projectId),
    lastUseSettled: () => lastUsed.settled(),
  };
}
