// The SDK in Chromium, from another origin, and the browser's HTTP cache. The manifest is
// `public, max-age=60, stale-while-revalidate=300`: a request for it without If-None-Match (storage:
// false, or a Web Worker, where the default storage is memory only) could be answered by that cache,
// and a page opened again after a publish (sdk/README.md's `onBuild(() => location.reload())`) would
// show the old build. The manifest and the mutable paths go with cache: 'no-cache' (the browser asks
// the server); the build URLs, which never change, keep the default.
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, useBrowserPage } from './browser.ts';
import { useSdkServer } from './sdk-server.ts';

const s = useSdkServer();

describe.skipIf(!HAVE_BROWSER)('the browser HTTP cache', () => {
  const chromium = useBrowserPage();
  const shown = async (tab: import('playwright-core').Page) => {
    await tab.waitForFunction("document.querySelector('h1').textContent !== ''", undefined, { timeout: 10_000 });
    return tab.textContent('h1');
  };

  it("storage: false: a page loaded again after a publish shows the new build, not the cached manifest's old one", async () => {
    const p = await s.publishedProject({ 'home.title': { de: 'Willkommen' } });
    chromium.html = `<!doctype html><meta charset="utf-8"><h1></h1><script type="module">
import { createClient } from '/sdk.js';
const tms = createClient({ url: ${JSON.stringify(s.url)}, key: ${JSON.stringify(p.apiKey)}, storage: false });
window.tms = tms;
document.querySelector('h1').textContent = (await tms.getTranslations('de'))['home.title'];
</script>`;
    const context = await chromium.browser.newContext();
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => void errors.push(String(e)));
    await tab.goto(chromium.pageUrl);
    expect(await shown(tab)).toBe('Willkommen');
    await s.publish(p, { 'home.title': { de: 'Hallo' } });
    await tab.reload();
    expect(await shown(tab)).toBe('Hallo');
    // A second read sends If-None-Match (the copy in memory) with no-cache: the server's 304 serves it.
    expect(await tab.evaluate("tms.getTranslations('de').then((t) => t['home.title'])")).toBe('Hallo');

    // Which requests go with which cache mode: with build URLs, and on a server without them (the
    // manifest stripped of build_id and urls in the page), where the file comes from its mutable path.
    const modes = await tab.evaluate(`(async () => {
      const { createClient } = await import('/sdk.js');
      const modes = [];
      const recording = (strip) => async (url, init) => {
        modes.push(new URL(url).pathname.replace(/builds\\/[^/]+/, 'builds/*') + ' ' + (init.cache ?? 'default'));
        const res = await fetch(url, init);
        if (!strip || !url.endsWith('/manifest') || res.status !== 200) return res;
        const { build_id, languages, ...rest } = await res.json();
        const manifest = { ...rest, languages: languages.map(({ url, ...language }) => language) };
        return new Response(JSON.stringify(manifest), { headers: { 'Content-Type': 'application/json' } });
      };
      for (const strip of [false, true]) {
        await createClient({ url: ${JSON.stringify(s.url)}, key: ${JSON.stringify(p.apiKey)}, storage: false, fetch: recording(strip) }).getTranslations('de', 'home');
      }
      return modes;
    })()`);
    expect(modes).toEqual([
      '/v1/cached/manifest no-cache',
      '/v1/cached/builds/*/translations/de/home default',
      '/v1/cached/manifest no-cache',
      '/v1/cached/translations/de/home no-cache',
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in a Web Worker (memory storage): a worker started again after a publish reads the new build', async () => {
    const p = await s.publishedProject({ 'home.title': { de: 'Willkommen' } });
    chromium.scripts.set(
      '/worker.js',
      `import { createClient } from '/sdk.js';
const tms = createClient({ url: ${JSON.stringify(s.url)}, key: ${JSON.stringify(p.apiKey)} });
postMessage((await tms.getTranslations('de'))['home.title']);`,
    );
    chromium.html = `<!doctype html><meta charset="utf-8"><h1></h1><script type="module">
new Worker('/worker.js', { type: 'module' }).onmessage = (e) => { document.querySelector('h1').textContent = e.data; };
</script>`;
    const context = await chromium.browser.newContext();
    const tab = await context.newPage();
    await tab.goto(chromium.pageUrl);
    expect(await shown(tab)).toBe('Willkommen');
    await s.publish(p, { 'home.title': { de: 'Hallo' } });
    await tab.reload();
    expect(await shown(tab)).toBe('Hallo');
    await context.close();
  });
});
