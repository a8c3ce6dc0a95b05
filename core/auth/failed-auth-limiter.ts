// Failed authentications per client address, counted in process in fixed one-minute windows. Past
// the limit, the address is refused (429 with Retry-After) before its key is looked up at all, so a
// flood of made-up keys cannot turn into a flood of database reads. Per process: on Lambda each
// instance counts its own, which still bounds what one instance sends to the database.
//
// A lookup counts as a failure from the moment it starts (`attempt`) and is taken back when the key
// proves valid (`forgive`): counted only when it ended, a hundred made-up keys sent at once all
// passed the check and were all looked up. IPv6 clients are counted by their /64, the block one
// host or network is given (each of its 2^64 addresses had a budget of its own), and an
// IPv4-mapped IPv6 address as its IPv4 address.
import { isIP } from 'node:net';
import { AppError } from '../errors.ts';
import { ipv6Bytes } from '../net/ip-bytes.ts';

export type AuthThrottleData = { retryAfterSeconds: number };

export type FailedAuthLimiter = {
  /** Throws rate_limited when the address has used up its failures for this window. */
  check(address: string | undefined): void;
  /** Counts a failure that needed no lookup (a missing, malformed or known-bad credential). */
  fail(address: string | undefined): void;
  /** `check`, then counts the lookup about to run as a failure until `forgive` takes it back. */
  attempt(address: string | undefined): void;
  /** Takes back an `attempt` whose credential proved valid (or whose lookup could not answer). */
  forgive(address: string | undefined): void;
};

const WINDOW_MS = 60_000;

/** What an address is counted by: an IPv6 address by its /64, an IPv4-mapped one as IPv4. */
export function countedAs(address: string): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address);
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join('.');
  const words = [];
  for (let i = 0; i < 8; i += 2) words.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${words.join(':')}::/64`;
}

export function createFailedAuthLimiter(options: { perMinute: number; maxAddresses?: number; now?: () => number }): FailedAuthLimiter {
  const { perMinute } = options;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; failures: number }>();
  // An unknown address (a test calling the app directly) is never throttled; 0 turns it off.
  const enabled = (address: string | undefined): address is string => perMinute > 0 && address !== undefined && address !== '';

  const check = (address: string | undefined) => {
    if (!enabled(address)) return;
    const w = windows.get(countedAs(address));
    if (!w || now() - w.start >= WINDOW_MS || w.failures < perMinute) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now()) / 1000));
    throw new AppError<AuthThrottleData>('rate_limited', `Too many failed authentications from this address; retry after ${retryAfterSeconds} s`, {
      data: { retryAfterSeconds },
    });
  };
  const fail = (address: string | undefined) => {
    if (!enabled(address)) return;
    const key = countedAs(address);
    const t = now();
    const w = windows.get(key);
    if (w && t - w.start < WINDOW_MS) {
      w.failures++;
      return;
    }
    windows.delete(key);
    windows.set(key, { start: t, failures: 1 });
    // Oldest windows first (insertion order): a flood from many addresses cannot grow it unbounded.
    if (windows.size > maxAddresses) windows.delete(windows.keys().next().value as string);
  };

  return {
    check,
    fail,
    attempt(address) {
      check(address);
      fail(address);
    },
    forgive(address) {
      if (!enabled(address)) return;
      // From the current window (a lookup that outlived its window gives back one of the next: rare,
      // and in the client's favour).
      const w = windows.get(countedAs(address));
      if (w && now() - w.start < WINDOW_MS && w.failures > 0) w.failures--;
    },
  };
}
