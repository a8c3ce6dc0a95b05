// HTTP caching for the cached endpoints: content-coding negotiation over the stored variants, and
// If-None-Match evaluation against the build's strong etags (RFC 9110 13.1.2, 12.5.3).
import type { Encoding } from '../../core/cache/layout.ts';

// Accept-Encoding values repeat: each browser, CDN and HTTP library sends its own fixed string. The
// choice is parsed once per distinct value and kept in a small table (bounded: the header is the
// client's to choose, so past the bound the table starts over, and long values are not kept).
const chosenEncodings = new Map<string, Encoding>();
const MAX_CHOICES = 256;
const MAX_KEPT_LENGTH = 256;

/** The best stored variant the client accepts: br, then gzip, then identity. */
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

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.toLowerCase().split(';');
    // Whitespace may surround the coding on both sides of ';' ("br ;q=0", RFC 9110 5.6.6).
    const name = coding!.trim();
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || (q.get('x-gzip') ?? 0) > 0) return 'gzip';
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
