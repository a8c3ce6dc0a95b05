// HTTP caching for the cached endpoints: content-coding negotiation over the stored variants, and
// If-None-Match evaluation against the build's strong etags (RFC 9110 13.1.2, 12.5.3).
import type { Encoding } from '../../core/cache/layout.ts';

// Accept-Encoding values repeat: each browser, CDN and HTTP library sends its own fixed string. The
// choice is parsed once per distinct value and kept in a small table (bounded: the header is the
// client's to choose, so past the bound the table starts over, and long values are not kept).
const chosenEncodings = new Map<string, Encoding>();
const MAX_CHOICES = 256;
const MAX_KEPT_LENGTH = 256;

/**
 * The stored variant the client prefers (RFC 9110 12.5.3): the highest q-value among br, gzip and
 * identity, ties going to br, then gzip, then identity. `*` stands for any coding not listed
 * (identity included), `x-gzip` for gzip, q=0 refuses a coding. Identity not listed (nor covered by
 * `*`) ranks below any accepted compression; it is what is served when nothing else is accepted,
 * even when refused (`identity;q=0`): a body the client may not like beats a 406.
 */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const known = chosenEncodings.get(acceptEncoding);
  if (known !== undefined) return known;
  const encoding = parseAcceptEncoding(acceptEncoding);
  if (acceptEncoding.length <= MAX_KEPT_LENGTH) {
    if (chosenEncodings.size >= MAX_CHOICES) chosenEncodings.clear();
    chosenEncodings.set(acceptEncoding, encoding);
  }
  return encoding;
}

const isSpace = (code: number) => code === 32 || code === 9;

/** Whether s[start, end) is `word` (lower case), in any case: no substring, no lower-cased copy. */
function spells(s: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = s.charCodeAt(start + i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The q-value among the parameters s[start, end) (each after a ';'): the first `q=`, trimmed, as a
 * number; 1 when there is none; 0 for one that is not a finite number (a refusal, as a q of 0).
 */
function qValue(s: string, start: number, end: number): number {
  while (start < end) {
    let next = s.indexOf(';', start + 1);
    if (next < 0 || next > end) next = end;
    let a = start + 1;
    let b = next;
    while (a < b && isSpace(s.charCodeAt(a))) a++;
    while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
    if (b - a >= 2 && (s.charCodeAt(a) | 0x20) === 113 /* q */ && s.charCodeAt(a + 1) === 61 /* = */) {
      const value = Number(s.slice(a + 2, b));
      return Number.isFinite(value) && value > 0 ? value : 0;
    }
    start = next;
  }
  return 1;
}

// Parsed once per distinct header (then kept above): one pass with indexOf, the only allocation a
// q-value's text. -1 is "not listed"; a later listing of a coding replaces an earlier one.
function parseAcceptEncoding(s: string): Encoding {
  let br = -1;
  let gzip = -1;
  let xGzip = -1;
  let identity = -1;
  let any = -1;
  const length = s.length;
  for (let start = 0; start < length; ) {
    let end = s.indexOf(',', start);
    if (end < 0) end = length;
    let semi = s.indexOf(';', start);
    if (semi < 0 || semi > end) semi = end;
    // Whitespace may surround the coding on both sides of ';' ("br ;q=0", RFC 9110 5.6.6).
    let a = start;
    let b = semi;
    while (a < b && isSpace(s.charCodeAt(a))) a++;
    while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
    if (a < b) {
      if (spells(s, a, b, 'br')) br = qValue(s, semi, end);
      else if (spells(s, a, b, 'gzip')) gzip = qValue(s, semi, end);
      else if (spells(s, a, b, 'x-gzip')) xGzip = qValue(s, semi, end);
      else if (spells(s, a, b, 'identity')) identity = qValue(s, semi, end);
      else if (b - a === 1 && s.charCodeAt(a) === 42 /* * */) any = qValue(s, semi, end);
    }
    start = end + 1;
  }
  const others = any < 0 ? 0 : any;
  const brQ = br < 0 ? others : br;
  const gzipQ = Math.max(gzip < 0 ? others : gzip, xGzip < 0 ? 0 : xGzip);
  const identityQ = identity < 0 ? others : identity;
  if (brQ > 0 && brQ >= gzipQ && brQ >= identityQ) return 'br';
  if (gzipQ > 0 && gzipQ >= identityQ) return 'gzip';
  return 'identity';
}

/**
 * True when the client's cached copy is current. If-None-Match uses weak comparison, so W/"x"
 * (which CloudFront produces when it compresses) matches "x". Any coding's etag of the same content
 * counts: the content is the same, whichever variant the client stored.
 */
export function isNotModified(ifNoneMatch: string | undefined, etags: readonly string[]): boolean {
  if (!ifNoneMatch) return false;
  // The common case, a revalidation sending back one tag exactly as we sent it: no parsing.
  for (const etag of etags) if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = new Set(etags.map(opaque));
  return ifNoneMatch.split(',').some((tag) => current.has(opaque(tag)));
}

/**
 * If-Modified-Since against a Last-Modified we sent (RFC 9110 13.1.3): true when the resource has not
 * changed since that date. Only for a request without If-None-Match (which takes precedence, 13.2.2);
 * a date that does not parse, or lies in the future, is ignored.
 */
export function isNotModifiedSince(ifModifiedSince: string | undefined, lastModified: string, now = Date.now()): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since) || since > now) return false;
  return Date.parse(lastModified) <= since;
}
