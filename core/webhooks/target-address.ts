// Where a webhook may go. An endpoint is a URL a project's owner chose, fetched by our servers: left
// unchecked it would let anyone probe or hit what only the server can reach (a cloud metadata
// service, a database's HTTP port, the admin API on localhost). So private, loopback, link-local,
// unique-local and other non-public addresses are refused, for literal addresses and for host names
// resolving to them, when the endpoint is saved and again at every attempt, where the connection is
// pinned to the address just checked (send-webhook.ts), so a DNS answer that changes between the
// check and the connection (rebinding) cannot slip through. WEBHOOKS_ALLOW_PRIVATE_TARGETS=true lifts
// this for tests and closed networks.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ipv4Bytes as v4Bytes, ipv6Bytes as v6Bytes } from '../net/ip-bytes.ts';

/** [first address, prefix length] of every IPv4 range that is not the public internet. */
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
];

/** [first address, prefix length] of the IPv6 ranges refused (IPv4-mapped ones are checked as IPv4). */
const V6_BLOCKED: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: embeds an IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function inRange(bytes: number[], base: number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((bytes[bit >> 3]! & mask) !== (base[bit >> 3]! & mask)) return false;
  }
  return true;
}

/** True for an address that is not on the public internet (see the ranges above). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return V4_BLOCKED.some(([base, prefix]) => inRange(v4Bytes(address), v4Bytes(base), prefix));
  if (family !== 6) return true;
  const bytes = v6Bytes(address);
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the IPv4 address.
  const zeros = bytes.slice(0, 10).every((b) => b === 0);
  if (zeros && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0 && bytes.slice(12).some((b) => b !== 0)))) {
    return isNonPublicAddress(bytes.slice(12).join('.'));
  }
  return V6_BLOCKED.some(([base, prefix]) => inRange(bytes, v6Bytes(base), prefix));
}

export type ResolvedAddress = { address: string; family: 4 | 6 };

export class TargetRefused extends Error {}

/** The host of a URL as node:dns and node:net take it ([::1] -> ::1). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The addresses a host stands for, refused (TargetRefused) when any is not public and private
 * targets are not allowed: one private answer among public ones is enough to refuse, since the
 * connection could be made to any of them. With `deadlineMs`, a name not resolved by then is refused.
 */
export async function resolveTarget(host: string, allowPrivate: boolean, deadlineMs?: number): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family === 4 || family === 6) {
    addresses = [{ address: host, family }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      const looked = lookup(host, { all: true, verbatim: true });
      // The lookup runs on libuv's pool and cannot be cancelled: past the deadline it is no longer waited for.
      const late = new Promise<never>((_, reject) => {
        if (deadlineMs !== undefined) timer = setTimeout(() => reject(new TargetRefused(`the host ${host} was not resolved within ${deadlineMs} ms`)), deadlineMs);
      });
      addresses = (await Promise.race([looked, late])).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch (error) {
      if (error instanceof TargetRefused) throw error;
      throw new TargetRefused(`the host ${host} could not be resolved`);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new TargetRefused(`the host ${host} could not be resolved`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => isNonPublicAddress(a.address));
    if (refused) {
      throw new TargetRefused(
        `the host ${host} is a private, loopback or link-local address (${refused.address}); set WEBHOOKS_ALLOW_PRIVATE_TARGETS=true to allow it`,
      );
    }
  }
  return addresses;
}

/** Checks an endpoint URL's form: http(s), no credentials, a host. Returns a message, or undefined when fine. */
export function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials (use the signing secret to authenticate tms)';
  if (!url.hostname) return 'must name a host';
  return undefined;
}
