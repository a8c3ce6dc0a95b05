// The shortcuts the name checks take on every request (core/validation.ts) must answer exactly what
// the long way answers: a count of characters settled by the length, NFC skipped for ASCII.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { countChars, GroupName, hasAtLeastChars, hasAtMostChars, KeyName, nfc } from '../../core/validation.ts';

// Strings mixing ASCII, accented and combining characters, astral characters (two UTF-16 units)
// and lone surrogates: every case where length and characters part ways.
const pieces = fc.constantFrom('a', 'Z', '.', ' ', 'é', 'e\u0301', '\u0301', 'ß', 'ﬁ', 'Å', 'A\u030a', '👋', '𝔸', '\ud83d', '\udc4b', '한', '\u1100\u1161', 'ö');
const text = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));

describe('character counts settled by the length', () => {
  it('hasAtLeastChars and hasAtMostChars answer what counting answers', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 14 }), (s, n) => {
        expect(hasAtLeastChars(s, n)).toBe(countChars(s) >= n);
        expect(hasAtMostChars(s, n)).toBe(countChars(s) <= n);
      }),
      { numRuns: 2_000 },
    );
  });

  it('counts characters, not UTF-16 units, at the edges of the key limit', () => {
    // 500 astral characters are 1,000 units: within the limit; 501 are not.
    expect(v.is(KeyName, '👋'.repeat(500))).toBe(true);
    expect(v.is(KeyName, '👋'.repeat(501))).toBe(false);
    expect(v.is(GroupName, 'é'.repeat(200))).toBe(true);
    expect(v.is(GroupName, 'é'.repeat(201))).toBe(false);
  });
});

describe('nfc', () => {
  it('is String.prototype.normalize("NFC") for any text', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ maxLength: 20 })), (s) => {
        expect(nfc(s)).toBe(s.normalize('NFC'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('still composes a name typed in NFD', () => {
    expect(nfc('cafe\u0301')).toBe('café');
    expect(v.parse(KeyName, 'home.cafe\u0301')).toBe('home.café');
  });
});
