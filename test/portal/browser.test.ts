// The portal in a real browser (Debian's Chromium through playwright-core), as its users meet it:
// setup of the first owner, a project, a language and a key; a translator and a reviewer invited
// and signed in; translating in the editor; the translator unable to approve; the reviewer
// approving; publishing and a cached read that shows the new value; an API key created and revoked.
// axe-core runs on every page: no serious or critical violation. Skipped, with one line, when no
// Chromium is installed. PORTAL_SCREENSHOTS=1 writes the main pages to docs/portal/.
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, ADMIN_TOKEN } from '../support/test-app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_BROWSER = existsSync(CHROMIUM);
if (!HAVE_BROWSER) console.log(`portal browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

type Browser = import('playwright-core').Browser;
type Page = import('playwright-core').Page;

const t = useTestApp();
let server: Server;
let base: string;
let browser: Browser;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.PORTAL_SCREENSHOTS === '1';
const PASSWORD = 'correct horse battery';

async function checkA11y(page: Page, name: string) {
  // evaluate() runs outside the page's CSP, so the policy stays strict for the page's own code.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  })) as { id: string; impact: string }[];
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `docs/portal/${name}.png`, fullPage: true });
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}

describe.skipIf(!HAVE_BROWSER)('the portal in Chromium', () => {
  beforeAll(async () => {
    if (SHOTS) mkdirSync('docs/portal', { recursive: true });
    // As behind CloudFront, which does not forward Host: the function sees API Gateway's host, and
    // only the browser's Origin header tells it the address users reach (invitation links).
    const behindCdn = (request: Request) => {
      const url = new URL(request.url);
      url.host = 'origin-api.internal';
      return t.app.fetch(new Request(url, request));
    };
    server = serve({ fetch: behindCdn, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => server.once('listening', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it('from setup to a translated, approved, published value', async () => {
    const owner = await newPage();
    await owner.goto(`${base}/portal/`);
    expect(owner.url()).toBe(`${base}/portal/setup`);
    await checkA11y(owner, 'setup');
    await owner.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await owner.getByLabel('Your email').fill('owner@example.com');
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByLabel('Account name').fill('Acme');
    await owner.getByRole('button', { name: 'Create owner and account' }).click();
    await owner.getByRole('heading', { name: 'Projects' }).waitFor();
    // Setup puts the operator's own account on the unlimited plan unless told otherwise.
    expect(((await (await t.admin('GET', '/accounts')).json()) as { accounts: { plan: string }[] }).accounts.map((a) => a.plan)).toEqual(['unlimited']);

    await owner.getByLabel('New project name').fill('Mobile app');
    await owner.getByRole('button', { name: 'Create project' }).click();
    const apiKey = await owner.getByLabel('API key').inputValue();
    expect(apiKey).toMatch(/^key_live_/);
    await checkA11y(owner, 'project-created');

    await owner.getByRole('link', { name: 'Add languages' }).click();
    await owner.getByLabel(/Language code/).fill('de');
    await owner.getByRole('button', { name: 'Add language' }).click();
    await owner.getByText('0 values').waitFor();
    await checkA11y(owner, 'languages');

    await owner.getByRole('link', { name: 'Editor' }).click();
    await owner.getByText('New key').click();
    await owner.getByLabel('Key name').fill('home.title');
    await owner.getByLabel('Group', { exact: true }).last().fill('home');
    await owner.getByLabel(/Description/).fill('Title of the home screen');
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.locator('.keycell p.hint', { hasText: 'Title of the home screen' }).waitFor();

    // Invitations for a translator and a reviewer.
    const invite = async (role: string) => {
      await owner.goto(`${base}/portal`);
      await owner.getByRole('link', { name: 'Members' }).click();
      await owner.locator('form[action$="/invites"]').getByLabel('Role').selectOption(role);
      await owner.getByRole('button', { name: 'Create invitation link' }).click();
      return owner.getByLabel(/Invitation link/).inputValue();
    };
    const trLink = await invite('translator');
    // The address the owner is on, not the one the function was reached at.
    expect(trLink.startsWith(`${base}/portal/invite/`), trLink).toBe(true);
    await checkA11y(owner, 'members');
    const rvLink = await invite('reviewer');

    const join = async (link: string, email: string) => {
      const page = await newPage();
      await page.goto(link);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/Password/).fill(PASSWORD);
      await page.getByRole('button', { name: /Join/ }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      return page;
    };
    const translator = await join(trLink, 'tr@example.com');
    await translator.getByRole('link', { name: /Mobile app/ }).click();
    await checkA11y(translator, 'editor');
    const status = translator.getByLabel('Status of home.title in de');
    // allTextContents() does not wait: the editor's select must be there first.
    await status.waitFor();
    expect(await status.locator('option').allTextContents()).toEqual(['draft', 'review']);
    await translator.getByLabel('home.title in de', { exact: true }).fill('Willkommen');
    await status.selectOption('review');
    // Ctrl+Enter in the value saves it in place.
    await translator.getByLabel('home.title in de', { exact: true }).press('Control+Enter');
    await translator.getByText('Saved', { exact: true }).waitFor();

    const reviewer = await join(rvLink, 'rv@example.com');
    await reviewer.getByRole('link', { name: /Mobile app/ }).click();
    expect(await reviewer.getByLabel('home.title in de', { exact: true }).inputValue()).toBe('Willkommen');

    // A second editor: the translator changes the value while the reviewer has it open. The
    // reviewer's save is refused with the reason next to the value, never a silent overwrite.
    await translator.getByLabel('Status of home.title in de').selectOption('draft');
    await Promise.all([
      translator.waitForResponse((r) => r.url().endsWith('/values/de') && r.request().method() === 'POST' && r.status() === 200),
      translator.getByRole('button', { name: 'Save' }).click(),
    ]);
    await reviewer.getByLabel('Status of home.title in de').selectOption('approved');
    await reviewer.getByRole('button', { name: 'Save' }).click();
    await reviewer.getByText(/Someone else changed this value/).waitFor();
    const stale = reviewer.getByLabel('home.title in de', { exact: true });
    expect(await stale.getAttribute('aria-invalid')).toBe('true');
    // The value's message is the first of what describes it (its quality warnings follow).
    const messageId = (await stale.getAttribute('aria-describedby'))!.split(' ')[0];
    expect(await reviewer.locator(`[id="${messageId}"]`).textContent()).toMatch(/nothing was saved/);
    // Chromium logs the refused save (412) as a console error: that one is expected, nothing else.
    const logged = (reviewer as Page & { errors: string[] }).errors;
    expect(logged.splice(0)).toEqual([expect.stringContaining('412')]);
    await reviewer.reload();
    await reviewer.getByLabel('Status of home.title in de').selectOption('approved');
    await reviewer.getByRole('button', { name: 'Save' }).click();
    await reviewer.getByText('Saved', { exact: true }).waitFor();

    // The translator can no longer change it.
    await translator.reload();
    expect(await translator.getByLabel('home.title in de', { exact: true }).getAttribute('readonly')).not.toBeNull();

    // Publish, and read it from the cache as an app would.
    await owner.goto(`${base}/portal`);
    await owner.getByRole('link', { name: /Mobile app/ }).click();
    await owner.getByRole('button', { name: 'Publish', exact: true }).click();
    await owner.getByText(/^Published \d{4}-/).waitFor({ timeout: 20_000 });
    const cached = await t.call(apiKey, 'GET', '/v1/cached/translations/de');
    expect(cached.status).toBe(200);
    expect(((await cached.json()) as { translations: Record<string, string> }).translations).toEqual({ 'home.title': 'Willkommen' });

    // An API key created with a name (shown once, with a copy button), its last use shown, then revoked.
    await owner.getByRole('link', { name: 'API keys' }).click();
    await owner.getByLabel(/^Name/).fill('  Staging server  ');
    await owner.getByRole('button', { name: 'Create API key' }).click();
    const second = await owner.getByLabel('New API key').inputValue();
    expect(second).toMatch(/^key_live_/);
    await owner.locator('[data-copy="new-api-key"]').waitFor();
    const stagingRow = owner.locator('tr', { hasText: 'Staging server' });
    await expect(stagingRow.locator('[data-last-used]').textContent()).resolves.toBe('never');
    await expect(stagingRow.textContent()).resolves.toContain(`key_live_…${second.slice(-4)}`);
    expect((await t.call(second, 'GET', '/v1/languages')).status).toBe(200);
    await t.runtime.deps.apiKeys.lastUseSettled();
    // A fresh GET of the tab (a reload would send the creating POST again).
    await owner.goto(owner.url());
    await expect(owner.locator('tr', { hasText: 'Staging server' }).locator('[data-last-used]').textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    await checkA11y(owner, 'api-keys');

    // A delivery key for a web app: de only, from one origin; read-only on the cached endpoints.
    await owner.getByLabel(/^Name/).fill('Web app');
    await owner.getByRole('radio', { name: /Delivery key/ }).check();
    await owner.getByLabel(/^Allowed origins/).fill('https://app.example');
    await owner.getByLabel(/^Allowed languages/).fill('de');
    await owner.getByRole('button', { name: 'Create API key' }).click();
    const delivery = await owner.getByLabel('New delivery key').inputValue();
    expect(delivery).toMatch(/^delivery_/);
    const webRow = owner.locator('tr', { hasText: 'Web app' });
    await expect(webRow.textContent()).resolves.toContain('Delivery: cached reads only; languages de; from https://app.example');
    await expect(webRow.locator('[data-last-used]').textContent()).resolves.toBe('never');
    const fromApp = await t.call(delivery, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'https://app.example' });
    expect(fromApp.status).toBe(200);
    expect(((await fromApp.json()) as { translations: Record<string, string> }).translations).toEqual({ 'home.title': 'Willkommen' });
    expect((await t.call(delivery, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'https://elsewhere.example' })).status).toBe(403);
    expect((await t.call(delivery, 'GET', '/v1/languages')).status).toBe(403);
    // An origin with a path refused in the form, with the reason (the page answers 422, which the
    // browser logs: that one console error is expected).
    const consoleErrors = (owner as Page & { errors: string[] }).errors;
    const before = consoleErrors.length;
    await owner.getByLabel(/^Allowed origins/).fill('https://app.example/with/path');
    await owner.getByRole('radio', { name: /Delivery key/ }).check();
    await owner.getByRole('button', { name: 'Create API key' }).click();
    // Said at the top of the page and beside the field it is about.
    await owner.getByRole('alert').getByText(/no path/).waitFor();
    expect(await owner.getByLabel(/^Allowed origins/).getAttribute('aria-invalid')).toBe('true');
    expect(consoleErrors.splice(before)).toEqual([expect.stringContaining('422')]);

    await owner.getByRole('button', { name: 'Revoke Staging server' }).click();
    await owner.locator('tr', { hasText: 'Staging server' }).getByText(/revoked/).waitFor();
    expect((await t.call(second, 'GET', '/v1/languages')).status).toBe(401);
    // The unlimited plan's usage: counted, with no limit to measure it against.
    // The click starts a navigation; count only once the Usage page has come (count() does not wait).
    await owner.getByRole('link', { name: 'Usage' }).click();
    await owner.getByText('(no limit on this plan)').first().waitFor();
    await expect(owner.getByText('(no limit on this plan)').count()).resolves.toBe(2);

    // Import with a preview first.
    await owner.getByRole('link', { name: 'Import / export' }).click();
    await owner.getByLabel(/^File/).setInputFiles({ name: 'de.json', mimeType: 'application/json', buffer: Buffer.from('{"home": {"subtitle": "Schön, dass du da bist"}}') });
    await owner.getByRole('combobox', { name: 'Format' }).first().selectOption('i18next');
    // Every key of the file gets the tag (carried by the preview's Apply form).
    await owner.getByLabel(/^Tag every key of the file/).fill('mobile');
    await owner.getByRole('button', { name: 'Preview import' }).click();
    await owner.getByText('1 new key', { exact: true }).waitFor();
    await checkA11y(owner, 'import-preview');
    expect((await t.call(apiKey, 'GET', '/v1/translations/de?status=all')).status).toBe(200);
    expect(JSON.stringify(await (await t.call(apiKey, 'GET', '/v1/translations/de?status=all')).json())).not.toContain('subtitle');
    await owner.getByRole('button', { name: 'Apply this import' }).click();
    await owner.getByText(/Imported into de/).waitFor();
    expect(JSON.stringify(await (await t.call(apiKey, 'GET', '/v1/translations/de?status=all')).json())).toContain('Schön, dass du da bist');
    expect(((await (await t.call(apiKey, 'GET', '/v1/keys?tag=mobile')).json()) as { keys: { key: string }[] }).keys.map((k) => k.key)).toEqual(['home.subtitle']);

    // Delete the imported key in the editor, restore it from the trash.
    await owner.getByRole('link', { name: 'Editor' }).click();
    await owner.getByRole('button', { name: 'Delete key home.subtitle' }).click();
    await owner.getByText('home.subtitle').waitFor({ state: 'detached' });
    await owner.getByRole('link', { name: 'Trash' }).click();
    await checkA11y(owner, 'trash');
    await owner.getByRole('button', { name: 'Restore key home.subtitle' }).click();
    await owner.getByText('Restored home.subtitle.').waitFor();

    // Activity shows the reviewer's approval; the value's history reverts the translator's text.
    await owner.getByRole('link', { name: 'Activity' }).click();
    await owner.getByText('rv@example.com').first().waitFor();
    await checkA11y(owner, 'activity');
    await reviewer.getByLabel('home.title in de', { exact: true }).fill('Hallo');
    await reviewer.getByRole('button', { name: 'Save' }).first().click();
    await reviewer.getByText('Saved', { exact: true }).waitFor();
    await reviewer.getByRole('link', { name: 'History of home.title in de' }).click();
    // A comment on the value through the page's own form: the page it comes back to shows it.
    await reviewer.getByLabel('Add a comment').fill('Willkommen or Hallo? The app says du everywhere.');
    await reviewer.getByRole('button', { name: 'Add comment' }).click();
    await reviewer.getByText('Comment added.').waitFor();
    await reviewer.locator('#comments').getByText('The app says du everywhere.').waitFor();
    await checkA11y(reviewer, 'history');
    await reviewer.getByRole('button', { name: /Revert to this/ }).first().click();
    await reviewer.getByText(/Reverted to "Willkommen"/).waitFor();
    const live = (await (await t.call(apiKey, 'GET', '/v1/translations/de')).json()) as { translations: Record<string, string> };
    expect(live.translations['home.title']).toBe('Willkommen');

    await owner.goto(`${base}/portal`);
    await checkA11y(owner, 'projects');
    for (const page of [owner, translator, reviewer]) expect((page as Page & { errors: string[] }).errors).toEqual([]);
  }, 120_000);

  it('is usable at a phone\'s width', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${base}/portal/sign-in`);
    await checkA11y(page, 'sign-in');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    // Every page the first test filled, at 375 px: nothing wider than the phone (a table scrolls
    // in its own box at most), the activity's sentences and the import preview's lists included.
    const wider = async (what: string) => {
      const by = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(by, `${what} is ${by} px wider than the phone`).toBeLessThanOrEqual(0);
    };
    const sql = t.runtime.deps.sql;
    const [project] = await sql<{ id: string; account_id: string }[]>`select id, account_id from projects where name = 'Mobile app'`;
    const [key] = await sql<{ id: string }[]>`select id from translation_keys where key = 'home.title' and project_id = ${project!.id}`;
    const at = `${base}/portal/projects/${project!.id}`;
    await wider('projects');
    for (const path of ['', '?lang=de&lang=en', '/languages', '/api-keys', '/files', '/trash', '/activity', '/usage', `/keys/${key!.id}/values/de/history`]) {
      await page.goto(`${at}${path}`);
      await page.locator('#cache-status').waitFor();
      await wider(`the project page ${path || '(editor)'}`);
    }
    await page.goto(`${base}/portal/accounts/${project!.account_id}/members`);
    await wider('members');
    // An import preview with long lists and a long text.
    await page.goto(`${at}/files`);
    const file = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`phone.key${i}`, `Ein ziemlich langer Text ohne Umbruch ${'x'.repeat(60)} ${i}`]));
    await page.getByLabel(/^File/).setInputFiles({ name: 'de.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...file, 'home.title': 'Geändert' })) });
    await page.getByRole('button', { name: 'Preview import' }).click();
    await page.getByRole('heading', { name: 'Changed values' }).waitFor();
    await wider('the import preview');
    await context.close();
  }, 120_000);
});
