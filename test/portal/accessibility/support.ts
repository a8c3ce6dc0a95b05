// Shared setup of the accessibility browser tests: the service embedded and served on a
// local port, Debian's Chromium through playwright-core, a developer of a project signed in by a
// session cookie. Skipped, with one line, when no Chromium is found.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { useTestApp, type TestProject } from '../../support/test-app.ts';
import { hashPassword } from '../../../core/users/password.ts';
import { createSession } from '../../../core/users/sessions.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_BROWSER = existsSync(CHROMIUM);

export type Browser = import('playwright-core').Browser;
export type BrowserContext = import('playwright-core').BrowserContext;
export type Page = import('playwright-core').Page;

export async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

export type Portal = {
  t: ReturnType<typeof useTestApp>;
  base: string;
  browser: Browser;
  p: TestProject;
  userId: string;
  signedIn(javaScriptEnabled?: boolean): Promise<BrowserContext>;
};

/** One service, one browser, one project (languages `languages`) with a developer, for a test file. */
export function usePortal(languages: string[], role = 'developer'): Portal {
  const t = useTestApp();
  let server: Server;
  const portal = { t } as Portal;
  beforeAll(async () => {
    if (!HAVE_BROWSER) return;
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => server.once('listening', () => r()));
    portal.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    portal.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    portal.p = await t.newProject('team');
    for (const code of languages) await json(await t.call(portal.p.apiKey, 'POST', '/v1/languages', { code }));
    const [user] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into users (email, password_hash) values (${`a11y-${Date.now()}@example.com`}, ${await hashPassword('not used here')}) returning id`;
    portal.userId = user!.id;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${portal.userId}, ${portal.p.accountId}, ${role})`;
    portal.signedIn = async (javaScriptEnabled = true) => {
      const context = await portal.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
      context.setDefaultTimeout(15_000);
      const session = await createSession(t.runtime.deps, portal.userId);
      await context.addCookies([{ name: 'tms_session', value: session.token, url: portal.base }]);
      return context;
    };
  }, 60_000);
  afterAll(async () => {
    await portal.browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });
  return portal;
}

/** WCAG 2.x contrast ratio of two sRGB colours given as #rrggbb or rgb()/rgba() strings (alpha ignored). */
export function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    let rgb: number[];
    if (c.startsWith('#')) rgb = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    else rgb = c.match(/[\d.]+/g)!.slice(0, 3).map(Number);
    const [r, g, bl] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}
