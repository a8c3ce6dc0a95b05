// The coalescing of live reads (core/translations/live-flights.ts): a request never gets the answer
// of a statement sent before it arrived; requests that queue behind one statement share the next.
import { describe, expect, it } from 'vitest';
import { createLiveFlights } from '../../core/translations/live-flights.ts';

/** A task whose runs are numbered and finish when the test says so. */
function controlled() {
  const runs: { n: number; finish: (error?: Error) => void }[] = [];
  const task = () =>
    new Promise<number>((resolve, reject) => {
      const n = runs.length + 1;
      runs.push({ n, finish: (error) => (error ? reject(error) : resolve(n)) });
    });
  return { runs, task };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('live flights', () => {
  it('a request that finds nothing in flight starts a run at once', async () => {
    const flights = createLiveFlights();
    const { runs, task } = controlled();
    const first = flights.run('k', task);
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    expect(await first).toBe(1);
    await tick();
    expect(flights.inFlight()).toBe(0);
  });

  it('requests arriving during a run share the next run, never the one in flight', async () => {
    const flights = createLiveFlights();
    const { runs, task } = controlled();
    const first = flights.run('k', task);
    const later = Array.from({ length: 10 }, () => flights.run('k', task));
    expect(runs, 'the batch waits for the run in flight').toHaveLength(1);
    runs[0]!.finish();
    expect(await first).toBe(1);
    await tick();
    expect(runs, 'one run for the whole batch').toHaveLength(2);
    // One more request while the batch's run is in flight: it belongs to a third run.
    const third = flights.run('k', task);
    runs[1]!.finish();
    expect(await Promise.all(later)).toEqual(Array(10).fill(2));
    await tick();
    expect(runs).toHaveLength(3);
    runs[2]!.finish();
    expect(await third).toBe(3);
    await tick();
    expect(flights.inFlight()).toBe(0);
  });

  it('keys are independent', async () => {
    const flights = createLiveFlights();
    const a = controlled();
    const b = controlled();
    const ra = flights.run('a', a.task);
    const rb = flights.run('b', b.task);
    expect(a.runs).toHaveLength(1);
    expect(b.runs).toHaveLength(1);
    expect(flights.inFlight()).toBe(2);
    b.runs[0]!.finish();
    a.runs[0]!.finish();
    expect([await ra, await rb]).toEqual([1, 1]);
  });

  it('a failed run fails its own requests only; the batch behind it runs, and the key is freed', async () => {
    const flights = createLiveFlights();
    const { runs, task } = controlled();
    const first = flights.run('k', task);
    const second = flights.run('k', task);
    runs[0]!.finish(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await tick();
    expect(runs).toHaveLength(2);
    runs[1]!.finish(new Error('again'));
    await expect(second).rejects.toThrow('again');
    await tick();
    expect(flights.inFlight()).toBe(0);
    const third = flights.run('k', task);
    runs[2]!.finish();
    expect(await third).toBe(3);
  });
});
