// The translator's assistants in a real browser (Debian's Chromium through playwright-core), under
// the portal's strict CSP: ask for a value's suggestions, choose one with the keyboard, save it;
// run "Translate missing" (DeepL's protocol emulated) and see the new values; see the warning of a
// value with a broken placeholder, and watch it go after fixing the value in place; turn on
// "has problems" and see only that key. axe-core on each state: no serious or critical violation.
// Skipped, with one line, when no Chromium is installed.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_BROWSER = existsSync(CHROMIUM);
if (!HAVE_BROWSER) console.log(`portal assistants browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

type Browser = import('playwright-core').Browser;
type Page = import('playwright-core').Page;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let emulator: MtEmulator;
let t: TestApp & { close(): Promise<void> };
let server: Server;
let base: string;
let browser: Browser;

async function checkA11y(page: Page, name: string) {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  })) as { id: string; impact: string }[];
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([]);
}

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function key(p: TestProject, name: string, values: Record<string, [string, string]>): Promise<string> {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  for (const [language, [value, status]] of Object.entries(values)) await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/${language}`, { value, status }));
  return k.id;
}

describe.skipIf(!HAVE_BROWSER)("the translator's assistants in Chromium", () => {
  beforeAll(async () => {
    emulator = await startMtEmulator();
    t = await startTestApp({ env: { DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url } });
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
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
    await t?.close();
    await emulator?.close();
  });

  it('suggestions, Translate missing, warnings and the problems filter', async () => {
    // Memory from another project of the account; the project worked on has one value to suggest,
    // one to machine-translate and one with a lost placeholder.
    const memory = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(memory.apiKey, 'POST', '/v1/languages', { code }));
    await key(memory, 'old.save', { en: ['Save changes', 'approved'], de: ['Änderungen sichern', 'approved'] });
    const created = await json(await t.admin('POST', `/accounts/${memory.accountId}/projects`, { name: 'Web app' }));
    const p: TestProject = { accountId: memory.accountId, projectId: created.id, apiKey: created.api_key.key, apiKeyId: created.api_key.id };
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    await key(p, 'a.greeting', { en: ['Hello {name}!', 'approved'], de: ['Hallo!', 'draft'] });
    await key(p, 'b.intro', { en: ['Hello world', 'approved'] });
    await key(p, 'c.save', { en: ['Save changes', 'approved'] });

    const [user] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into users (email, password_hash) values ('translator@example.com', ${await hashPassword('not used here')}) returning id`;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'translator')`;
    const session = await createSession(t.runtime.deps, user!.id);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'tms_session', value: session.token, url: base }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => void errors.push(e.message));
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de`);

    // The warning of the value whose placeholder was lost: in words, tied to the value.
    const greeting = page.getByLabel('a.greeting in de', { exact: true });
    const described = (await greeting.getAttribute('aria-describedby'))!.split(' ');
    await expect(page.locator(`[id="${described[1]}"]`).innerText()).resolves.toMatch(/1 quality warning\s+Placeholders: Missing placeholder \{name\}/);
    expect(await page.locator('.warn-title').count()).toBe(1);
    await checkA11y(page, 'editor with a warning');

    // Suggestions: from the keyboard, choose the memory's translation; it is in the value, not saved.
    const link = page.getByRole('link', { name: 'Suggestions for c.save in de' });
    await link.focus();
    await page.keyboard.press('Enter');
    const use = page.getByRole('button', { name: /^Änderungen sichern 100 % exact match/ });
    await use.waitFor();
    await expect(page.locator('.suggestions:not([hidden])').innerText()).resolves.toMatch(/100 % exact match, from project \/ old\.save, \d{4}-\d\d-\d\d/);
    expect(await use.evaluate((b) => b.matches(':focus'))).toBe(true);
    expect(await link.getAttribute('aria-expanded')).toBe('true');
    await checkA11y(page, 'editor with suggestions');
    await page.keyboard.press('Enter');
    const save = page.getByLabel('c.save in de', { exact: true });
    await expect(save.inputValue()).resolves.toBe('Änderungen sichern');
    expect(await save.evaluate((el) => el.matches(':focus'))).toBe(true);
    expect(await link.getAttribute('aria-expanded')).toBe('false');
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'))).translations['c.save']).toBeUndefined();
    await save.press('Control+Enter');
    await page.locator('form', { has: save }).getByText('Saved', { exact: true }).waitFor();
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all'))).translations['c.save']).toMatchObject({ value: 'Änderungen sichern', status: 'draft' });

    // Translate missing: the one value still missing comes from the (emulated) provider.
    await page.getByText('Translate missing values', { exact: true }).click(); // its disclosure
    await page.getByRole('button', { name: 'Translate missing' }).click();
    await page.getByText('1 value translated into de as drafts: 0 from translation memory (free), 1 from deepl, 1 translation unit charged.').waitFor();
    await expect(page.getByLabel('b.intro in de', { exact: true }).inputValue()).resolves.toBe('Hallo Welt');
    await checkA11y(page, 'editor after Translate missing');

    // Has problems in de: only the greeting.
    await page.getByLabel('Has problems in').selectOption('de');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Checked 3 keys for problems in de.').waitFor();
    await expect(page.locator('.keyname').allInnerTexts()).resolves.toEqual(['a.greeting']);
    await checkA11y(page, 'editor with the problems filter');

    // Fixed in place: the save's answer clears the warning.
    await page.getByLabel('a.greeting in de', { exact: true }).fill('Hallo {name}!');
    await page.getByLabel('a.greeting in de', { exact: true }).press('Control+Enter');
    await page.locator('form', { has: page.getByLabel('a.greeting in de', { exact: true }) }).getByText('Saved', { exact: true }).waitFor();
    expect(await page.locator('.warn-title').count()).toBe(0);
    // Broken again: the warning comes back without a reload.
    await page.getByLabel('a.greeting in de', { exact: true }).fill('Hallo <b>{name}!');
    await page.getByLabel('a.greeting in de', { exact: true }).press('Control+Enter');
    await page.locator(`[id="${described[1]}"]`).getByText('Tags: Unbalanced tags: <b> is never closed').waitFor();
    expect(await page.locator('.warn-title').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
