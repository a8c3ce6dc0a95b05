// The bench's verdict on a row: a latency target the bare ceiling missed too says so, with the
// ceiling's p99, so that a reader sees the machine's bound and not only the service's miss.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verdict, type Report, type ScenarioRow } from '../../bench/report.ts';

// A real run: PostgreSQL, 2026-12-06 01:17 (README's table).
const report = JSON.parse(readFileSync(new URL('../../bench/results/2026-12-06T01-17-36Z-postgres.json', import.meta.url), 'utf8')) as Report;
const row = (name: string) => structuredClone(report.scenarios.find((r) => r.name === name)!);

describe('bench verdict', () => {
  it("names the ceiling's p99 when the bare ceiling missed the latency target too", () => {
    // The service's p99 58.28 ms, the ceiling's 46.03 ms: both over 10 ms; the ratio (0.97) is met.
    expect(verdict(row('cached-language'))).toBe("MISSED p99<10ms (ceiling's 46.0ms too)");
  });

  it('leaves a miss the ceiling did not share, and every other kind of target, as it was', () => {
    const slowService: ScenarioRow = row('cached-key');
    slowService.service!.latencyMs.p99 = 12;
    slowService.targets = slowService.targets.map((t) => (t.target.kind === 'p99' ? { ...t, met: false } : t));
    expect(slowService.ceiling!.latencyMs.p99).toBeLessThan(10);
    expect(verdict(slowService)).toBe('MISSED ratio>=0.6, p99<10ms');
    expect(verdict(row('live-key'))).toBe('MISSED ratio>=0.45');
    expect(verdict(row('live-language'))).toBe('met');
  });

  it('says nothing of a ceiling that was not measured', () => {
    const alone = row('cached-language');
    alone.ceiling = null;
    expect(verdict(alone)).toBe('MISSED p99<10ms');
  });
});
