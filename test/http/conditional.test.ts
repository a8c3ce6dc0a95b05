// Content-coding negotiation and If-None-Match, as functions: the same answer whether a value is
// parsed for the first time or found in the table of values seen before.
import { describe, expect, it } from 'vitest';
import { isNotModified, isNotModifiedSince, pickEncoding } from '../../functions/http/conditional.ts';

describe('pickEncoding', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['BR', 'br'],
    ['br; q=0.5, gzip; q=1', 'gzip'],
    ['br;q=abc', 'identity'],
  ];

  it('chooses br, then gzip, then identity by what the client accepts, the first time and every time after', () => {
    for (let round = 0; round < 3; round++) {
      for (const [header, expected] of cases) expect(pickEncoding(header), `${String(header)} (round ${round})`).toBe(expected);
    }
  });

  it('answers the same past the table bound, and for values too long to be kept', () => {
    for (let i = 0; i < 600; i++) expect(pickEncoding(`gzip;q=0.${(i % 9) + 1}, custom-${i}`)).toBe('gzip');
    const long = `${'x-unknown, '.repeat(40)}br`;
    expect(long.length).toBeGreaterThan(256);
    expect(pickEncoding(long)).toBe('br');
    expect(pickEncoding(long)).toBe('br');
    for (const [header, expected] of cases) expect(pickEncoding(header)).toBe(expected);
  });
});

describe('isNotModified', () => {
  const etags = ['"abc"', '"abc-gz"', '"abc-br"'];

  it('matches a tag sent back as it was given, any coding of the same content, weakly and in lists', () => {
    expect(isNotModified('"abc"', etags)).toBe(true);
    expect(isNotModified('"abc-br"', etags)).toBe(true);
    expect(isNotModified('W/"abc-gz"', etags)).toBe(true);
    expect(isNotModified(' "abc" ', etags)).toBe(true);
    expect(isNotModified('"old", "abc"', etags)).toBe(true);
    expect(isNotModified('*', etags)).toBe(true);
  });

  it('does not match another tag, a part of one, or nothing', () => {
    expect(isNotModified(undefined, etags)).toBe(false);
    expect(isNotModified('', etags)).toBe(false);
    expect(isNotModified('"ab"', etags)).toBe(false);
    expect(isNotModified('abc', etags)).toBe(false);
    expect(isNotModified('"old", "older"', etags)).toBe(false);
  });
});

describe('isNotModifiedSince', () => {
  const lastModified = 'Thu, 26 Nov 2026 10:00:00 GMT';
  const now = Date.parse('Thu, 26 Nov 2026 12:00:00 GMT');
  it('is true at or after Last-Modified, in the IMF and RFC 850 date forms', () => {
    for (const since of [lastModified, 'Thu, 26 Nov 2026 11:00:00 GMT', 'Thursday, 26-Nov-26 10:00:00 GMT']) {
      expect(isNotModifiedSince(since, lastModified, now), since).toBe(true);
    }
  });
  it('is false before it, for a date in the future, for no header and for one that does not parse', () => {
    for (const since of ['Thu, 26 Nov 2026 09:59:59 GMT', 'Thu, 26 Nov 2026 12:00:01 GMT', undefined, '', 'yesterday']) {
      expect(isNotModifiedSince(since, lastModified, now), String(since)).toBe(false);
    }
  });
});
