// API keys: `key_live_` + 40 base62 characters (about 238 bits). Only a SHA-256 of the key is
// stored; a fast hash is right here because the key is long and random, not a password.
import * as crypto from 'node:crypto';
import { createHash, randomInt } from 'node:crypto';

const PREFIX = 'key_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
// Accept 32..128 so that keys minted with other lengths stay valid, while absurd inputs are
// refused without touching the database. Whitespace anywhere fails the pattern.
const KEY_PATTERN = /^key_live_[0-9A-Za-z]{32,128}$/;

export function generateApiKey(): string {
  let out = PREFIX;
  for (let i = 0; i < RANDOM_LENGTH; i++) out += BASE62[randomInt(62)];
  return out;
}

export const isWellFormedApiKey = (key: string) => KEY_PATTERN.test(key);

// Every authenticated request hashes its key: Node's one-shot hash (20.12+) skips the Hash object
// that createHash allocates; older Node 20 releases fall back to it.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export const hashApiKey = oneShot
  ? (key: string) => oneShot('sha256', key, 'hex')
  : (key: string) => createHash('sha256').update(key).digest('hex');
