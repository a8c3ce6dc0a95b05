// When a failed delivery is tried again: WEBHOOKS_RETRY_BASE_MS (5 s) after the first attempt, each
// wait four times the one before, never more than 8 hours; a delivery whose next attempt would fall
// after WEBHOOKS_RETRY_WINDOW_SECONDS (a day) from its event is marked failed instead. With the
// defaults: 5 s, 20 s, 80 s, 5 min, 21 min, 85 min, 5.7 h, 8 h, 8 h, then failed (10 attempts, 23.6 h).
export const MAX_RETRY_DELAY_MS = 8 * 3600 * 1000;

/** The wait after the attempt numbered `attempts` (1 for the first) failed. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 4 ** Math.min(Math.max(attempts - 1, 0), 20));
}
