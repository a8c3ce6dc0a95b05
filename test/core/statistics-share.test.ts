// The statistics refresher (core/db/refresh-statistics.ts) may take at most a twentieth of the
// database's time: after an ANALYZE of d ms, the next waits d / 0.05 however many writes arrive.
// On PGlite's single backend an ANALYZE stops every other statement while it runs.
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStatisticsRefresher, type StatisticsRefresher } from '../../core/db/refresh-statistics.ts';
import type { Sql } from '../../core/db/client.ts';
import { silentLogger } from '../../core/log.ts';
import type { RecordedEvent } from '../../core/events/domain-event.ts';

/**
 * A database where every content table is past the threshold and each ANALYZE takes about
 * `analyzeMs`. `took` holds what each one really took: a timer may fire a fraction of a millisecond
 * early (Node keeps the loop's time in whole milliseconds), and the refresher's wait follows the
 * time it measured, not the nominal one.
 */
function fakeDatabase(analyzeMs: number) {
  const analyzed: number[] = [];
  const took: number[] = [];
  const sql = Object.assign(
    async () => [{ relname: 'translations', changed: 1_000_000, tuples: 10 }],
    {
      unsafe: async (statement: string) => {
        expect(statement).toMatch(/^analyze /);
        const started = performance.now();
        analyzed.push(started);
        await sleep(analyzeMs);
        took.push(performance.now() - started);
        return [];
      },
    },
  ) as unknown as Sql;
  return { sql, analyzed, took };
}

/** Content writes arriving every `everyMs` for `forMs`, as a steady stream of single calls would. */
async function writesFor(refresher: StatisticsRefresher, forMs: number, everyMs: number): Promise<void> {
  const until = performance.now() + forMs;
  while (performance.now() < until) {
    refresher.subscriber([written]);
    await sleep(everyMs);
  }
}

const written = { id: 1, type: 'translation.written', projectId: 'p', actor: { type: 'system', id: 't' }, entity: { type: 'translation', id: 'x' } } as RecordedEvent;

describe('statistics refresh share', () => {
  it('waits twenty times as long as the last ANALYZE took before the next', async () => {
    const db = fakeDatabase(40);
    const refresher = createStatisticsRefresher({ sql: db.sql, log: silentLogger, minIntervalMs: 10 });
    try {
      // Writes keep coming for 600 ms: with only the 10 ms interval that would be about a dozen runs.
      await writesFor(refresher, 600, 15);
      expect(db.analyzed).toHaveLength(1);
      // The next comes once the first's time / 0.05 (about 40 ms / 0.05 = 800 ms) has passed since it
      // began; a timer firing up to a millisecond early is the only slack.
      const deadline = performance.now() + 5_000;
      while (db.analyzed.length < 2 && performance.now() < deadline) await sleep(20);
      expect(db.analyzed).toHaveLength(2);
      expect(db.took[0]!).toBeGreaterThan(30);
      expect(db.analyzed[1]! - db.analyzed[0]!).toBeGreaterThanOrEqual(db.took[0]! / 0.05 - 2);
    } finally {
      refresher.close();
    }
  });

  it('keeps the configured interval when the ANALYZE is quick', async () => {
    const db = fakeDatabase(0);
    const refresher = createStatisticsRefresher({ sql: db.sql, log: silentLogger, minIntervalMs: 50 });
    try {
      await writesFor(refresher, 600, 10);
      // Every 50 ms (13 at most in 600 ms); a share-bound wait would allow 1. Late timers on a busy
      // machine only make fewer.
      expect(db.analyzed.length).toBeGreaterThanOrEqual(4);
      expect(db.analyzed.length).toBeLessThanOrEqual(13);
      for (let i = 1; i < db.analyzed.length; i++) expect(db.analyzed[i]! - db.analyzed[i - 1]!).toBeGreaterThanOrEqual(50 - 5);
    } finally {
      refresher.close();
    }
  });
});
