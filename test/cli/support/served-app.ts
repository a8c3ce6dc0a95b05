// A test app served over HTTP on a free loopback port, for the CLI run as a child process.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startTestApp, type TestAppOptions } from '../../support/test-app.ts';

export type ServedApp = { t: Awaited<ReturnType<typeof startTestApp>>; base: string; close(): Promise<void> };

export async function serveTestApp(options: TestAppOptions = {}): Promise<ServedApp> {
  const t = await startTestApp(options);
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    t,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    },
  };
}
