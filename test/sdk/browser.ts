// Chromium for the SDK's browser tests: the SDK bundled from its sources for a browser, served at
// /sdk.js by a page server of its own origin (not the API's: every SDK request is cross-origin,
// with a preflight), `html` at any other path. Tests using it sit in describe.skipIf(!HAVE_BROWSER).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_BROWSER = existsSync(CHROMIUM);
if (!HAVE_BROWSER) console.log(`SDK browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

export type BrowserPage = {
  readonly pageUrl: string;
  readonly browser: import('playwright-core').Browser;
  /** What the page server answers at any path but /sdk.js and `scripts`' paths. */
  html: string;
  /** More scripts by path (a Worker's): served as JavaScript. */
  readonly scripts: Map<string, string>;
};

export function useBrowserPage(): BrowserPage {
  let page: Server | undefined;
  let pageUrl = '';
  let browser: import('playwright-core').Browser | undefined;
  const state = { html: '', scripts: new Map<string, string>() };

  beforeAll(async () => {
    const bundle = await build({ entryPoints: [join(ROOT, 'sdk', 'src', 'index.ts')], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    state.scripts.set('/sdk.js', bundle.outputFiles[0]!.text);
    page = createServer((req, res) => {
      const script = state.scripts.get(req.url ?? '');
      if (script !== undefined) res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(state.html);
    });
    await new Promise<void>((r) => page!.listen(0, '127.0.0.1', r));
    pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    page?.closeAllConnections();
    await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
  });

  return {
    get pageUrl() {
      return pageUrl;
    },
    get browser() {
      if (!browser) throw new Error('browser not started (use inside tests)');
      return browser;
    },
    get html() {
      return state.html;
    },
    set html(html: string) {
      state.html = html;
    },
    scripts: state.scripts,
  };
}
