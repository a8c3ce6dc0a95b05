// Bytes to text the way the server's readers take them: UTF-8 with or without a byte order mark;
// UTF-16 too for Apple's .strings; a PO file's declared charset. Strict: a mis-encoded file is an
// error, not text with replacement characters.
const fatal = (label: string) => new TextDecoder(label, { fatal: true });

/** UTF-8 (a leading byte order mark dropped). */
export const utf8 = (body: Uint8Array) => fatal('utf-8').decode(body);

function looksLikeUtf16(body: Uint8Array, zeroAt: 0 | 1): boolean {
  const n = Math.min(body.length, 200) & ~1;
  if (n < 4) return false;
  let zeros = 0;
  for (let i = zeroAt; i < n; i += 2) if (body[i] === 0) zeros++;
  return zeros >= (n / 2) * 0.9;
}

/** UTF-16 by byte order mark or by its zero bytes, else UTF-8 (Apple's .strings). */
export function utf8or16(body: Uint8Array): string {
  if (body[0] === 0xff && body[1] === 0xfe) return fatal('utf-16le').decode(body);
  if (body[0] === 0xfe && body[1] === 0xff) return fatal('utf-16be').decode(body);
  if (looksLikeUtf16(body, 1)) return fatal('utf-16le').decode(body);
  if (looksLikeUtf16(body, 0)) return fatal('utf-16be').decode(body);
  return utf8(body);
}

/** A PO file: the charset its header declares (the header is ASCII), UTF-8 by default. */
export function declaredCharset(body: Uint8Array): string {
  const label = (/charset=([A-Za-z0-9_.:-]+)/.exec(new TextDecoder('latin1').decode(body.subarray(0, 4096)))?.[1] ?? 'utf-8').toLowerCase();
  return label === 'charset' || label === 'us-ascii' || label === 'ascii' ? 'utf-8' : label;
}
