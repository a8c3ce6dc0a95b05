// Files that may be UTF-16 (Apple's .strings, which Xcode long wrote as UTF-16): the byte order
// mark decides; without one, a file whose every other byte is zero in its first bytes is read as
// UTF-16 of that byte order, and anything else must be UTF-8.
import { FormatError } from '../format-error.ts';
import { assertNoNul, decodeUtf8 } from './decode.ts';

/** The 1-based line of the first unpaired surrogate (the only thing that makes UTF-16 invalid). */
function badUtf16Line(body: Uint8Array, endian: 'le' | 'be', skip: number): number {
  const unit = (i: number) => (endian === 'le' ? (body[i] ?? 0) | ((body[i + 1] ?? 0) << 8) : ((body[i] ?? 0) << 8) | (body[i + 1] ?? 0));
  let line = 1;
  for (let i = skip; i + 1 < body.length; i += 2) {
    const u = unit(i);
    if (u === 0x0a) line++;
    else if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 3 < body.length ? unit(i + 2) : -1;
      if (next < 0xdc00 || next > 0xdfff) return line;
      i += 2;
    } else if (u >= 0xdc00 && u <= 0xdfff) return line;
  }
  return line;
}

function utf16(body: Uint8Array, endian: 'le' | 'be', skip: number): string {
  if ((body.length - skip) % 2 !== 0) throw new FormatError(['body'], 'file is not valid UTF-16: its length is odd');
  let text: string;
  try {
    text = new TextDecoder(`utf-16${endian}`, { fatal: true, ignoreBOM: true }).decode(body.subarray(skip));
  } catch (error) {
    throw new FormatError(['body', 'line', badUtf16Line(body, endian, skip)], `file is not valid UTF-16${endian.toUpperCase()} (an unpaired surrogate)`, { cause: error });
  }
  assertNoNul(text);
  return text;
}

function looksLikeUtf16(body: Uint8Array, zeroAt: 0 | 1): boolean {
  const n = Math.min(body.length, 200) & ~1;
  if (n < 4) return false;
  let zeros = 0;
  for (let i = zeroAt; i < n; i += 2) if (body[i] === 0) zeros++;
  return zeros >= (n / 2) * 0.9;
}

export function decodeUnicode(body: Uint8Array): string {
  if (body[0] === 0xff && body[1] === 0xfe) return utf16(body, 'le', 2);
  if (body[0] === 0xfe && body[1] === 0xff) return utf16(body, 'be', 2);
  if (looksLikeUtf16(body, 1)) return utf16(body, 'le', 0);
  if (looksLikeUtf16(body, 0)) return utf16(body, 'be', 0);
  return decodeUtf8(body);
}
