// Answers of the live reads (translations, manifest, the tag list): always current, and revalidated cheaply.
// `private`: the answer depends on the X-API-Key header, which shared caches do not key on.
// `no-cache`: a client may keep it but must ask again before each use, so "live" stays live; its
// If-None-Match is then a 304 while the project's content is unchanged. The ETag is strong: it
// names the exact bytes (live answers are not compressed here).
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import type { HeaderName } from './describe.ts';
import { isNotModified } from './conditional.ts';
import { respond } from './response-headers.ts';
import type { LiveBody } from '../../core/translations/live-memo.ts';

export const LIVE_CACHE_CONTROL = 'private, no-cache';

/** What a live route's description says of its 200 and 304 (functions/http/describe.ts). */
export const LIVE_RESPONSES = { headers: ['ETag', 'Cache-Control'] as HeaderName[] };

export function liveResponse(c: Context<AppEnv>, live: LiveBody): Response {
  const headers: Record<string, string> = { ETag: live.etag, 'Cache-Control': LIVE_CACHE_CONTROL };
  if (isNotModified(c.req.header('if-none-match'), [live.etag])) return respond(c, null, 304, headers);
  headers['Content-Type'] = 'application/json';
  return respond(c, live.body, 200, headers);
}
