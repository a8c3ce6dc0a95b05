// Files that may be UTF-16 (Apple's .strings, which Xcode long wrote as UTF-16): the byte order
// mark decides; without one, a file whose every other byte is zero in its first bytes is read as
// UTF-16 of that byte order, and anything else must be UTF-8.
import { FormatError } from '../format-error.ts';
import { assertNoNul, decodeUtf8 } from './decode.ts';

function utf16(body: Uint8Array, endian: 'le' | 'be', skip: number): string {
  if ((body.length - skip) % 2 !== 0) throw new FormatError(['body'], 'file is not valid UTF-16: its length is odd');
  let text: string;
  try {
    text = new TextDecoder(`utf-16${endian}`, { fatal: true, ignoreBOM: true }).decode(body.subarray(skip));
  } catch (error) {
    throw new FormatError(['body'], `file is not valid UTF-16${endian.toUpperCase()}`, { cause: error });
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
