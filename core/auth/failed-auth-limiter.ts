// Failed authentications per client address, counted in process in fixed one-minute windows. Past
// the limit, the address is refused (429 with Retry-After) before its key is looked up at all, so a
// flood of made-up keys cannot turn into a flood of database reads. Per process: on Lambda each
// instance counts its own, which still bounds what one instance sends to the database.
import { AppError } from '../errors.ts';

export type AuthThrottleData = { retryAfterSeconds: number };

export type FailedAuthLimiter = {
  /** Throws rate_limited when the address has used up its failures for this window. */
  check(address: string | undefined): void;
  fail(address: string | undefined): void;
};

const WINDOW_MS = 60_000;

export function createFailedAuthLimiter(options: { perMinute: number; maxAddresses?: number; now?: () => number }): FailedAuthLimiter {
  const { perMinute } = options;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; failures: number }>();
  // An unknown address (a test calling the app directly) is never throttled; 0 turns it off.
  const enabled = (address: string | undefined): address is string => perMinute > 0 && address !== undefined && address !== '';

  return {
    check(address) {
      if (!enabled(address)) return;
      const w = windows.get(address);
      if (!w || now() - w.start >= WINDOW_MS || w.failures < perMinute) return;
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now()) / 1000));
      throw new AppError<AuthThrottleData>('rate_limited', `Too many failed authentications from this address; retry after ${retryAfterSeconds} s`, {
        data: { retryAfterSeconds },
      });
    },
    fail(address) {
      if (!enabled(address)) return;
      const t = now();
      const w = windows.get(address);
      if (w && t - w.start < WINDOW_MS) {
        w.failures++;
        return;
      }
      windows.delete(address);
      windows.set(address, { start: t, failures: 1 });
      // Oldest windows first (insertion order): a flood from many addresses cannot grow it unbounded.
      if (windows.size > maxAddresses) windows.delete(windows.keys().next().value as string);
    },
  };
}
