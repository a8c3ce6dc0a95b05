// A fresh migrated database for one test file, reached through a TcpProxy so the test can cut the
// service off from it and restore it. Real Postgres when DATABASE_URL is set (a clone of the run's
// template), else an embedded PGlite served on its own socket. Pass `env` to startTestApp.
import { startEmbeddedPostgres } from '../../core/db/embedded.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { createTestDatabase } from './test-database.ts';

export type ProxiedDatabase = {
  proxy: TcpProxy;
  /** DATABASE_URL through the proxy, with a short connect timeout so an outage answers quickly. */
  env: Record<string, string>;
  close(): Promise<void>;
};

function throughProxy(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}

export async function startProxiedDatabase(): Promise<ProxiedDatabase> {
  const db = await createTestDatabase();
  if (db.kind === 'postgres') {
    const direct = new URL(db.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    return {
      proxy,
      env: { DATABASE_URL: throughProxy(db.url, proxy), DATABASE_POOL_MAX: '4', DATABASE_CONNECT_TIMEOUT_SECONDS: '1' },
      async close() {
        await proxy.close();
        await db.drop();
      },
    };
  }
  const embedded = await startEmbeddedPostgres({ loadDataDir: db.tarball, tcp: true });
  const direct = new URL(embedded.url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
  return {
    proxy,
    // The embedded socket serves one pool connection (core/db/embedded.ts).
    env: { DATABASE_URL: throughProxy(embedded.url, proxy), DATABASE_POOL_MAX: '1', DATABASE_CONNECT_TIMEOUT_SECONDS: '1' },
    async close() {
      await proxy.close();
      await embedded.close();
    },
  };
}
