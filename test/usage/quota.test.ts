import { describe, expect, it } from 'vitest';
import {
  decide,
  graceAllowance,
  nextUtcMidnightUnixSeconds,
  secondsUntilUtcMidnight,
  utcDayKey,
} from '../../core/usage/quota.ts';

const at = (iso: string) => Date.parse(iso);
const lastMsOfDay = at('2024-03-09T23:59:59.999Z');
const firstMsOfNextDay = at('2024-03-10T00:00:00.000Z');

describe('utcDayKey', () => {
  it('names the UTC day, up to its very last millisecond', () => {
    expect(utcDayKey(lastMsOfDay)).toBe('2024-03-09');
    expect(utcDayKey(firstMsOfNextDay)).toBe('2024-03-10');
  });

  it('ignores local time zones and handles leap days', () => {
    expect(utcDayKey(at('2024-02-29T23:30:00-05:00'))).toBe('2024-03-01');
    expect(utcDayKey(at('2024-02-29T12:00:00Z'))).toBe('2024-02-29');
  });
});

describe('nextUtcMidnightUnixSeconds', () => {
  it('is the start of the next day, including from the first millisecond of a day', () => {
    expect(nextUtcMidnightUnixSeconds(lastMsOfDay)).toBe(firstMsOfNextDay / 1000);
    expect(nextUtcMidnightUnixSeconds(firstMsOfNextDay)).toBe(at('2024-03-11T00:00:00Z') / 1000);
  });

  it('crosses month and year ends', () => {
    expect(nextUtcMidnightUnixSeconds(at('2023-12-31T08:00:00Z'))).toBe(at('2024-01-01T00:00:00Z') / 1000);
  });
});

describe('secondsUntilUtcMidnight', () => {
  it('is 1 in the last second of the day, never 0', () => {
    expect(secondsUntilUtcMidnight(lastMsOfDay)).toBe(1);
    expect(secondsUntilUtcMidnight(at('2024-03-09T23:59:59.000Z'))).toBe(1);
  });

  it('rounds partial seconds up', () => {
    expect(secondsUntilUtcMidnight(at('2024-03-09T23:59:58.500Z'))).toBe(2);
  });

  it('is a whole day at midnight', () => {
    expect(secondsUntilUtcMidnight(firstMsOfNextDay)).toBe(86_400);
  });
});

describe('graceAllowance', () => {
  it('is 10% of the limit, rounded down', () => {
    expect(graceAllowance(0)).toBe(0);
    expect(graceAllowance(9)).toBe(0);
    expect(graceAllowance(10)).toBe(1);
    expect(graceAllowance(1_005)).toBe(100);
    expect(graceAllowance(1_000_000)).toBe(100_000);
  });

  it('is exactly a tenth of every multiple of 10', () => {
    for (let limit = 0; limit <= 100_000; limit += 10) expect(graceAllowance(limit)).toBe(limit / 10);
  });
});

describe('decide', () => {
  it('allows calls within the limit and reports what is left', () => {
    expect(decide(1, 1_000)).toEqual({ allowed: true, remaining: 999 });
    expect(decide(1_000, 1_000)).toEqual({ allowed: true, remaining: 0 });
  });

  it('allows the grace calls past the limit, with nothing remaining', () => {
    expect(decide(1_001, 1_000)).toEqual({ allowed: true, remaining: 0 });
    expect(decide(1_100, 1_000)).toEqual({ allowed: true, remaining: 0 });
  });

  it('refuses the first call beyond limit plus grace', () => {
    expect(decide(1_101, 1_000)).toEqual({ allowed: false, remaining: 0 });
    expect(decide(5_000, 1_000)).toEqual({ allowed: false, remaining: 0 });
  });

  it('has no grace below a limit of 10', () => {
    expect(decide(5, 5)).toEqual({ allowed: true, remaining: 0 });
    expect(decide(6, 5)).toEqual({ allowed: false, remaining: 0 });
    expect(decide(1, 0)).toEqual({ allowed: false, remaining: 0 });
  });
});
