// API keys: a kind prefix + 40 base62 characters (about 238 bits). Only a SHA-256 of the key is
// stored; a fast hash is right here because the key is long and random, not a password.
//
// Two kinds, told apart by their prefix before anything is hashed or looked up:
// - `key_live_…`: a project's full key (writes, live reads, files, usage): a secret for servers.
// - `delivery_…`: a delivery key, read-only on the cached endpoints, safe in a public app bundle.
// Neither prefix is a prefix of the other and each pattern is anchored, so a string is at most one
// kind; the verifier also requires the stored kind to match (docs/decisions.md, "Delivery keys").
import * as crypto from 'node:crypto';
import { createHash, randomInt } from 'node:crypto';

export const API_KEY_KINDS = ['live', 'delivery'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const API_KEY_PREFIXES: Record<ApiKeyKind, string> = { live: 'key_live_', delivery: 'delivery_' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
// Accept 32..128 so that keys minted with other lengths stay valid, while absurd inputs are
// refused without touching the database. Whitespace anywhere fails the pattern.
const LIVE_PATTERN = /^key_live_[0-9A-Za-z]{32,128}$/;
const DELIVERY_PATTERN = /^delivery_[0-9A-Za-z]{32,128}$/;

export function generateApiKey(kind: ApiKeyKind = 'live'): string {
  let out = API_KEY_PREFIXES[kind];
  for (let i = 0; i < RANDOM_LENGTH; i++) out += BASE62[randomInt(62)];
  return out;
}

/** The kind a well-formed key claims by its prefix, or undefined for anything malformed. */
export function apiKeyKindOf(key: string): ApiKeyKind | undefined {
  if (LIVE_PATTERN.test(key)) return 'live';
  if (DELIVERY_PATTERN.test(key)) return 'delivery';
  return undefined;
}

export const isWellFormedApiKey = (key: string) => apiKeyKindOf(key) !== undefined;

// Every authenticated request hashes its key: Node's one-shot hash (20.12+) skips the Hash object
// that createHash allocates; older Node 20 releases fall back to it.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export const hashApiKey = oneShot
  ? (key: string) => oneShot('sha256', key, 'hex')
  : (key: string) => createHash('sha256').update(key).digest('hex');
