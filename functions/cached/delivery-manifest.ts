// The cached manifest as a delivery key bound to languages sees it: only those languages. A client
// (the SDK above all) discovers what to fetch from the manifest, so listing languages the key would
// get 403 for would only lead it into errors. Keys without a language list, and live keys, get the
// stored bytes untouched: this costs something only for language-bound keys (the manifest is small).
//
// It works on the answer the manifest route made, whatever that route adds to the body: entries of
// `languages` are kept by their `code`. Its ETag is the stored one tagged with the key's languages,
// so it is strong, changes with every build, and differs between keys bound to different lists;
// If-None-Match is compared against it here, and hidden from the route. If-Modified-Since is left to
// the route only when no If-None-Match came (RFC 9110 13.2.2: otherwise it is ignored); its 304
// then carries this key's tag too.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { isNotModified } from '../http/conditional.ts';

const tagOf = (etag: string, languages: readonly string[]) => {
  const list = createHash('sha256').update([...languages].sort().join(',')).digest('base64url').slice(0, 12);
  return `"${etag.replace(/^W\//, '').replace(/"/g, '')}-l${list}"`;
};

function decode(bytes: Buffer, encoding: string | null): Buffer {
  if (encoding === 'br') return brotliDecompressSync(bytes);
  if (encoding === 'gzip') return gunzipSync(bytes);
  return bytes;
}

/**
 * The route's 304 to an If-Modified-Since alone (a key's languages never change, so its view of a
 * build changes only with the build): the ETag it names must be this key's, as on the 200, or the
 * client would revalidate with a tag this middleware never matches.
 */
function withKeyTag(c: Context<AppEnv>, allowed: readonly string[]) {
  const etag = c.res.headers.get('etag');
  if (!etag) return;
  const headers = new Headers(c.res.headers);
  headers.set('ETag', tagOf(etag, allowed));
  c.res = undefined;
  c.res = new Response(null, { status: 304, headers });
}

export const deliveryManifest = (): MiddlewareHandler<AppEnv> =>
  async function deliveryManifest(c, next) {
    const allowed = c.get('principal')?.allowedLanguages;
    if (!allowed) return next();
    // The route compares If-None-Match with the stored manifest's ETag, which is not this key's
    // representation: it must answer in full, and the comparison happens here, with this key's tag.
    // If-Modified-Since goes with it: left alone, the route would let a date decide what a stale tag
    // did not (a browser sends both), and answer 304 to a client that holds another representation.
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined) {
      c.req.raw.headers.delete('if-none-match');
      c.req.raw.headers.delete('if-modified-since');
    }
    await next();
    if (c.res.status === 304) return withKeyTag(c, allowed);
    if (c.res.status !== 200) return;
    const etag = c.res.headers.get('etag');
    const body = JSON.parse(decode(Buffer.from(await c.res.arrayBuffer()), c.res.headers.get('content-encoding')).toString('utf8')) as {
      languages?: { code?: string }[];
    };
    if (Array.isArray(body.languages)) body.languages = body.languages.filter((l) => typeof l.code === 'string' && allowed.includes(l.code));
    const headers = new Headers(c.res.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    const tag = etag ? tagOf(etag, allowed) : undefined;
    if (tag) headers.set('ETag', tag);
    c.res = undefined;
    if (tag && isNotModified(ifNoneMatch, [tag])) {
      headers.delete('content-type');
      c.res = new Response(null, { status: 304, headers });
      return;
    }
    c.res = new Response(JSON.stringify(body), { status: 200, headers });
  };
