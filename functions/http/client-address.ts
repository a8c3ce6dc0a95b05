// The caller's address for the local server: the socket's peer, or, behind TRUST_PROXY_HOPS
// reverse proxies (nginx, a load balancer), the X-Forwarded-For entry the nearest trusted proxy
// added. Entries further left are whatever the client wrote, so they are never believed.
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

export function forwardedAddress(peer: string | undefined, forwardedFor: string | undefined, trustedHops: number): string | undefined {
  if (trustedHops <= 0) return peer;
  const hops = (forwardedFor ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  // The last proxy appended the address it saw: with n trusted proxies, that is the n-th from the right.
  return hops[hops.length - trustedHops] ?? peer;
}

export function clientAddressFrom(peerOf: (c: Context<AppEnv>) => string | undefined, trustedHops: number) {
  return (c: Context<AppEnv>) => forwardedAddress(peerOf(c), c.req.header('x-forwarded-for'), trustedHops);
}
