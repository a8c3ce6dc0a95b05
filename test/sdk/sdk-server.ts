// The SDK's tests talk to a real tms over HTTP: the test's app (its own database) served by
// @hono/node-server on a free port, written to through the real API and published with
// POST /v1/cache/rebuild. Servers can be stopped to take the SDK offline.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

export type HttpServer = { url: string; stop(): Promise<void> };

export type SdkServer = TestApp & {
  /** The app over HTTP for the whole file. */
  readonly url: string;
  /** Another HTTP server over the same app, to stop without disturbing the others. */
  listen(): Promise<HttpServer>;
  /** A project with approved values ({ 'home.title': { de: 'Willkommen' } }), published once. */
  publishedProject(values: Record<string, Record<string, string>>): Promise<TestProject>;
  /** Sets approved values of existing or new keys and publishes (POST /v1/cache/rebuild, waits for the build). */
  publish(p: TestProject, values: Record<string, Record<string, string>>): Promise<void>;
};

export function useSdkServer(): SdkServer {
  let t: (TestApp & { close(): Promise<void> }) | undefined;
  let main: HttpServer | undefined;
  const servers = new Set<Server>();
  const ready = () => {
    if (!t) throw new Error('sdk server not started (use inside tests)');
    return t;
  };

  const listen = async (): Promise<HttpServer> => {
    const server = serve({ fetch: ready().app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    servers.add(server);
    await new Promise<void>((r) => server.once('listening', () => r()));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: async () => {
        if (!servers.delete(server)) return;
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  };

  const publish = async (p: TestProject, values: Record<string, Record<string, string>>) => {
    const app = ready();
    const existing = (await (await app.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { id: string; key: string }[];
    const fresh: Record<string, Record<string, [string, 'approved']>> = {};
    for (const [key, byLanguage] of Object.entries(values)) {
      const found = existing.find((k) => k.key === key);
      if (!found) {
        fresh[key] = Object.fromEntries(Object.entries(byLanguage).map(([language, value]) => [language, [value, 'approved']]));
        continue;
      }
      for (const [language, value] of Object.entries(byLanguage)) {
        const res = await app.call(p.apiKey, 'PUT', `/v1/keys/${found.id}/translations/${language}`, { value, status: 'approved' });
        if (res.status !== 200) throw new Error(`PUT ${key}/${language}: ${res.status} ${await res.text()}`);
      }
    }
    await seed(app, p, fresh);
    // Servers without build ids tell builds apart by Last-Modified, which counts whole seconds: a
    // publish is a new build to a client only from the next second on (docs/decisions.md, the SDK).
    const status = (await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()) as { last_rebuilt_at: string | null };
    if (status.last_rebuilt_at) {
      const nextSecond = Math.floor(Date.parse(status.last_rebuilt_at) / 1000) * 1000 + 1000;
      await new Promise((r) => setTimeout(r, Math.max(0, nextSecond - Date.now())));
    }
    await rebuild(app, p);
  };

  beforeAll(async () => {
    t = await startTestApp();
    main = await listen();
  });
  afterAll(async () => {
    for (const server of [...servers]) {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    await t?.close();
  });

  return {
    get url() {
      if (!main) throw new Error('sdk server not started (use inside tests)');
      return main.url;
    },
    get app() {
      return ready().app;
    },
    get runtime() {
      return ready().runtime;
    },
    admin: (...args) => ready().admin(...args),
    call: (...args) => ready().call(...args),
    newProject: (...args) => ready().newProject(...args),
    listen,
    publish,
    async publishedProject(values) {
      const p = await ready().newProject('team');
      await publish(p, values);
      return p;
    },
  };
}

/** A fetch that records every request (method-less: the SDK only GETs) and the status it got. */
export function countingFetch(inner: typeof fetch = fetch) {
  const calls: { path: string; status: number; ifNoneMatch: string | null }[] = [];
  const counted: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
    try {
      const res = await inner(input, init);
      calls.push({ path: url.pathname, status: res.status, ifNoneMatch });
      return res;
    } catch (error) {
      calls.push({ path: url.pathname, status: 0, ifNoneMatch });
      throw error;
    }
  };
  return { fetch: counted, calls };
}

/** A localStorage stand-in: synchronous, strings only, like the browser's. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
  };
}

/**
 * A fetch that shows the SDK a server without versioned build URLs (as before issue 16): the
 * manifest loses build_id, built_at and each language's url and etag; the rest is the real answer.
 */
export function withoutBuildUrls(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (new URL(String(input)).pathname !== '/v1/cached/manifest' || res.status !== 200) return res;
    const { build_id: _id, built_at: _at, languages, ...rest } = (await res.json()) as { build_id: string; built_at: string; languages: Record<string, unknown>[] };
    const stripped = { ...rest, languages: languages.map(({ url: _url, etag: _etag, ...language }) => language) };
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(stripped), { status: 200, headers });
  };
}
