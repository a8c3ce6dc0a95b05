// The bench measures the service and its ceiling in turns (bench/measure.ts): the order is ABBA, and
// a party's turns add up to one result whose rates and per-response CPU are over all its turns.
import { describe, expect, it } from 'vitest';
import { emptyTally, resultOf, turnOrder } from '../../bench/measure.ts';

describe('bench turns', () => {
  it('alternates the two parties in ABBA blocks, each as many turns', () => {
    expect(turnOrder(1)).toEqual([0, 1]);
    expect(turnOrder(2)).toEqual([0, 1, 1, 0]);
    expect(turnOrder(4)).toEqual([0, 1, 1, 0, 0, 1, 1, 0]);
    const order = turnOrder(5);
    expect(order.filter((p) => p === 0)).toHaveLength(5);
    expect(order.filter((p) => p === 1)).toHaveLength(5);
  });

  it('adds up turns: rates over the summed seconds, percentiles over every response, CPU per response', () => {
    const tally = emptyTally(true);
    // Two turns, as measureTurn leaves them: 3 responses in 1.5 s, then 1 in 0.5 s.
    tally.latencies.set([1, 2, 3, 10]);
    tally.count = 4;
    tally.seconds = 2;
    tally.wireBytes = 400;
    tally.bodyBytes = 1_000;
    tally.statusCodes = { '200': 3, '500': 1 };
    tally.unexpectedStatus = 1;
    tally.cpu = { server: 800, database: null, client: 120 };
    const result = resultOf(tally);
    expect(result.requestsPerSecond).toBe(2);
    expect(result.bytesPerSecond).toBe(500);
    expect(result.wireBytesPerResponse).toBe(100);
    expect(result.latencyMs).toMatchObject({ p50: 2, p99: 10, max: 10, mean: 4 });
    expect(result.cpu).toEqual({ server: 200, database: null, client: 30 });
    expect(result).toMatchObject({ responses: 4, seconds: 2, unexpectedStatus: 1, statusCodes: { '200': 3, '500': 1 } });
  });

  it('has no CPU figures without a meter, and no rate without time', () => {
    const result = resultOf(emptyTally(false));
    expect(result.cpu).toBeNull();
    expect(result.requestsPerSecond).toBe(0);
    expect(result.responses).toBe(0);
  });
});
