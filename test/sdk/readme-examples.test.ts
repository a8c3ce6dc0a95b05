// The README's three SDK examples run as written (only the address and key filled in, and the
// package name pointed at this checkout) against a real tms over HTTP: the plain page in Chromium
// from another origin (CORS, localStorage, and the page again with tms gone), the i18next lines
// and the Node one in child processes, the Node one again offline from its directory.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER, useBrowserPage } from './browser.ts';
import { useSdkServer } from './sdk-server.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.split(/^## /m).find((s) => s.startsWith('The JS SDK\n')) ?? '';
const examples = [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const [browserExample, i18nextExample, nodeExample] = examples as [string, string, string];

const s = useSdkServer();
const VALUES = { 'home.title': { de: 'Willkommen', en: 'Welcome' }, 'menu.open': { de: 'Öffnen', en: 'Open' } };
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tms-sdk-readme-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const fill = (code: string, url: string, key: string) => code.replaceAll('https://tms.example.com', url).replaceAll('<API_KEY>', key);

/** Runs an ES module with tsx (the SDK's sources are TypeScript), in `cwd`, with `env`. */
async function runModule(name: string, code: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(dir, name);
  await writeFile(file, code);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, file], { cwd: dir, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// By file URL: the example runs in a temporary directory, where `tsx` would not resolve.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const sdkPath = (entry: string) => pathToFileURL(join(ROOT, 'sdk', 'src', `${entry}.ts`)).href;

describe('README: The JS SDK', () => {
  it('has the three examples: a plain page, i18next in three lines, Node', () => {
    expect(examples).toHaveLength(3);
    expect(browserExample).toContain("from '@tms/sdk'");
    expect(i18nextExample.trim().split('\n')).toHaveLength(3);
    expect(i18nextExample).toContain("from '@tms/sdk/i18next'");
    expect(nodeExample).toContain("from '@tms/sdk/node'");
  });

  it('Node: reads a language and a group, then again from its directory with tms gone', async () => {
    const p = await s.publishedProject(VALUES);
    const server = await s.listen();
    const code = `${nodeExample.replace("'@tms/sdk/node'", `'${sdkPath('node')}'`)}\nconsole.log(JSON.stringify({ de, home }));\n`;
    const online = await runModule('node-example.mjs', code, { TMS_URL: server.url, TMS_KEY: p.apiKey });
    expect(online.stderr).toBe('');
    const expected = { de: { 'home.title': 'Willkommen', 'menu.open': 'Öffnen' }, home: { 'home.title': 'Willkommen' } };
    expect(JSON.parse(online.stdout)).toEqual(expected);
    expect((await readdir(join(dir, '.tms-cache'))).length).toBeGreaterThan(0);

    await server.stop();
    const offline = await runModule('node-example.mjs', code, { TMS_URL: server.url, TMS_KEY: p.apiKey });
    expect(JSON.parse(offline.stdout)).toEqual(expected);
  });

  it('i18next: the three lines load the language, and t() shows the published value', async () => {
    const p = await s.publishedProject(VALUES);
    const i18nextModule = pathToFileURL(join(ROOT, 'node_modules', 'i18next', 'dist', 'esm', 'i18next.js')).href;
    const code =
      fill(i18nextExample, s.url, p.apiKey).replace("from 'i18next'", `from '${i18nextModule}'`).replace("'@tms/sdk/i18next'", `'${sdkPath('i18next')}'`) +
      "\nawait new Promise((r) => (i18next.isInitialized ? r() : i18next.on('initialized', r)));\nconsole.log(i18next.t('home.title'), i18next.t('menu.open', { lng: 'en' }));\n";
    const run = await runModule('i18next-example.mjs', code);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('Willkommen Open');
  });

  describe.skipIf(!HAVE_BROWSER)('in Chromium', () => {
    const chromium = useBrowserPage();

    it('the plain page shows the value, keeps it in localStorage, and shows it again with tms gone', async () => {
      const p = await s.publishedProject(VALUES);
      const api = await s.listen();
      chromium.html = `<!doctype html><meta charset="utf-8"><title>app</title><h1></h1><script type="module">\n${fill(browserExample, api.url, p.apiKey).replace("'@tms/sdk'", "'/sdk.js'")}\n</script>`;
      const context = await chromium.browser.newContext();
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => void errors.push(String(e)));
      await tab.goto(chromium.pageUrl);
      await tab.waitForFunction("document.querySelector('h1').textContent !== ''");
      expect(await tab.textContent('h1')).toBe('Willkommen');
      expect(errors).toEqual([]);
      const stored = (await tab.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('tms:'))")) as string[];
      expect(stored.length).toBeGreaterThanOrEqual(2);

      await api.stop();
      await tab.reload();
      await tab.waitForFunction("document.querySelector('h1').textContent !== ''");
      expect(await tab.textContent('h1')).toBe('Willkommen');
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
