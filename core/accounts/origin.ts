// Browser origins, as delivery keys' allowed_origins and the CORS_ORIGINS setting take them: one
// spelling, the one a browser sends, so that comparing them is comparing strings.

/** `https://app.example.com` as a browser sends it in Origin: scheme, host, port; nothing else. */
export function canonicalOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  // `https://a.example/path` parses with pathname '/path'; a bare origin with or without one '/'.
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(input)) return null;
  return url.origin;
}
