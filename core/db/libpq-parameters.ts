// DATABASE_URL parameters that libpq (psql, most drivers) reads itself but postgres.js does not:
// postgres.js sends every query parameter it does not know to the server as a setting, and Postgres
// refuses the connection with `unrecognized configuration parameter "channel_binding"`, far from the
// URL that caused it. Dropping them instead would silently weaken what they ask for
// (`channel_binding=require`, a client certificate, a CA to verify against). So tms refuses them at
// start, by name, with what to do. `host`, `port` and `sslrootcert=system` are translated below;
// `sslmode`, `connect_timeout` and `target_session_attrs` postgres.js reads.

/** libpq connection parameters, client-side only, that neither postgres.js nor client.ts takes. */
const CLIENT_ONLY = [
  'channel_binding', 'require_auth', 'passfile', 'hostaddr', 'service', 'load_balance_hosts',
  'keepalives', 'keepalives_idle', 'keepalives_interval', 'keepalives_count', 'tcp_user_timeout',
  'gssencmode', 'gsslib', 'gssdelegation', 'krbsrvname', 'requirepeer', 'requiressl', 'sslcompression',
  'sslcert', 'sslkey', 'sslpassword', 'sslcertmode', 'sslcrl', 'sslcrldir', 'sslsni',
  'ssl_min_protocol_version', 'ssl_max_protocol_version', 'fallback_application_name',
] as const;

/** Why this URL cannot be used as it is, or undefined when nothing in it is libpq's alone. */
export function unusableLibpqParameter(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parameters = new URL(url).searchParams;
  const rootCert = parameters.get('sslrootcert');
  if (rootCert !== null && rootCert !== 'system') {
    return `sslrootcert=${rootCert}: tms's Postgres client reads no certificate file; remove it and start tms with NODE_EXTRA_CA_CERTS=${rootCert} (Node then trusts that CA; keep sslmode=verify-full), or use sslrootcert=system`;
  }
  const found = CLIENT_ONLY.find((name) => parameters.has(name));
  if (found === undefined) return undefined;
  const hint = found === 'channel_binding' ? ' (TLS with sslmode=verify-full still authenticates the server)' : '';
  return `${found} is a libpq setting that tms's Postgres client (postgres.js) does not support, and Postgres would refuse it as a server setting: remove it${hint}`;
}

/**
 * libpq's `host` and `port` URL parameters, which postgres.js does not read (it sends them to the
 * server as settings, which refuses the connection: `unrecognized configuration parameter "host"`).
 * `?host=/var/run/postgresql` names a Unix socket directory, as with psql: the socket file is
 * `<dir>/.s.PGSQL.<port>` (peer authentication works through it). Any other `host` (and `port`)
 * replaces the URL's own. And `sslrootcert=system`, which postgres.js turns into verify-full but
 * also sends to the server, where it is refused the same way: it becomes `sslmode=verify-full`, as
 * libpq makes it. All three are taken out of the URL. And `sslmode=allow` becomes `prefer` (below).
 */
export function fromLibpqParameters(url: string): { url: string; path: string | undefined } {
  if (!URL.canParse(url)) return { url, path: undefined };
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host');
  const port = parsed.searchParams.get('port');
  const systemRoots = parsed.searchParams.get('sslrootcert') === 'system';
  // libpq's `allow` tries without TLS first, then with it; postgres.js reads it as `require`, so a
  // URL psql takes failed against a server without TLS. `prefer` (TLS first, then without) reaches
  // every server `allow` does.
  const allow = parsed.searchParams.get('sslmode') === 'allow';
  if (host === null && port === null && !systemRoots && !allow) return { url, path: undefined };
  if (allow) parsed.searchParams.set('sslmode', 'prefer');
  parsed.searchParams.delete('host');
  parsed.searchParams.delete('port');
  if (systemRoots) {
    parsed.searchParams.delete('sslrootcert');
    parsed.searchParams.set('sslmode', 'verify-full');
  }
  if (host?.startsWith('/')) {
    if (parsed.hostname === '') parsed.hostname = 'localhost';
    return { url: parsed.toString(), path: `${host.replace(/\/+$/, '')}/.s.PGSQL.${port ?? (parsed.port || '5432')}` };
  }
  if (host) parsed.hostname = host;
  if (port) parsed.port = port;
  return { url: parsed.toString(), path: undefined };
}
