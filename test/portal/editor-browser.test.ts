// The editor's value forms in a real browser (Debian's Chromium through playwright-core), as the QA
// pass met them: an Arabic value is edited right to left; two tabs on a value that was empty at
// page load never overwrite each other (the second is refused next to the value, with the stored
// text beside it and the typed text kept; Save again replaces it knowingly); without JavaScript a
// refused save comes back with the typed text kept and the message next to the value; after "Sign
// out everywhere", a save in another tab says the session ended, with a sign-in link (a new tab),
// after which Save sends the same typed text; a bulk approve after a save in place approves the
// saved text (the script moves the bulk form's record of the value to the new version); an outdated
// value's mark follows its saves and its Mark up to date button; the Tag filter, a bulk Add tag and a
// tag's label link (a tag such as <b>x</b> read as text). axe-core on the
// refused state (with script: axe runs as page script): no serious or critical violation. Skipped,
// with one line, without Chromium.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_BROWSER = existsSync(CHROMIUM);
if (!HAVE_BROWSER) console.log(`portal editor browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

type Browser = import('playwright-core').Browser;
type BrowserContext = import('playwright-core').BrowserContext;
type Page = import('playwright-core').Page;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const t = useTestApp();
let server: Server;
let base: string;
let browser: Browser;
let p: TestProject;
let userId: string;

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

/** A browser signed in as the test's developer (a session of its own), with or without JavaScript. */
async function signedIn(javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
  context.setDefaultTimeout(15_000);
  const session = await createSession(t.runtime.deps, userId);
  await context.addCookies([{ name: 'tms_session', value: session.token, url: base }]);
  return context;
}

/** The page's getComputedStyle (evaluate runs in the page; this project's types have no DOM lib). */
type InPage = { getComputedStyle(e: unknown): { direction: string } };

const stored = async (keyId: string, language: string) => json(await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/${language}`));

describe.skipIf(!HAVE_BROWSER)('the editor in Chromium', () => {
  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => server.once('listening', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    p = await t.newProject('team');
    for (const code of ['de', 'ar']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    const [user] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into users (email, password_hash) values ('dev@example.com', ${await hashPassword('not used here')}) returning id`;
    userId = user!.id;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${userId}, ${p.accountId}, 'developer')`;
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it('edits Arabic right to left, and of two tabs on an empty value the second is refused next to it', async () => {
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.welcome' }));
    const context = await signedIn();
    const [tabA, tabB] = [await context.newPage(), await context.newPage()];
    const url = `${base}/portal/projects/${p.projectId}?lang=ar&lang=de`;
    await tabA.goto(url);
    await tabB.goto(url);

    const arabic = tabA.getByLabel('home.welcome in ar', { exact: true });
    expect(await arabic.evaluate((el) => [(globalThis as unknown as InPage).getComputedStyle(el).direction, el.lang])).toEqual(['rtl', 'ar']);
    expect(await tabA.getByLabel('home.welcome in de', { exact: true }).evaluate((el) => (globalThis as unknown as InPage).getComputedStyle(el).direction)).toBe('ltr');

    // Both tabs saw no value; A saves first, B's save must not overwrite it.
    await arabic.fill('أهلا وسهلا');
    await arabic.press('Control+Enter');
    await tabA.locator('form', { has: arabic }).getByText('Saved', { exact: true }).waitFor();
    const inB = tabB.getByLabel('home.welcome in ar', { exact: true });
    await inB.fill('مرحبا');
    await inB.press('Control+Enter');
    const refusal = tabB.locator('form', { has: inB }).locator('output');
    await refusal.getByText(/^Someone else changed this value since the page was loaded; nothing was saved/).waitFor();
    expect(await inB.getAttribute('aria-invalid')).toBe('true');
    expect(await inB.inputValue()).toBe('مرحبا');
    // Their version beside the typed text, right to left too; no advice to reload (it would lose the text).
    const storedLine = tabB.locator('form', { has: inB }).locator('.stored');
    expect(await storedLine.innerText()).toBe('Stored now: أهلا وسهلا (draft)');
    expect(await storedLine.locator('q').evaluate((el) => [el.lang, el.dir])).toEqual(['ar', 'rtl']);
    expect(await refusal.innerText()).not.toMatch(/reload/i);
    expect(await stored(k.id, 'ar')).toMatchObject({ value: 'أهلا وسهلا' });
    await checkA11y(tabB, 'editor with a refused save');
    // A, whose page carries the version its save answered, saves again without a refusal.
    await arabic.fill('أهلا');
    await arabic.press('Control+Enter');
    await tabA.locator('form', { has: arabic }).getByText('Saved', { exact: true }).waitFor();
    expect(await stored(k.id, 'ar')).toMatchObject({ value: 'أهلا' });
    // B saves again: its form names the version it was shown, which A has changed once more, so it
    // is refused again, now showing A's newest text; the next Save replaces that, knowingly.
    await inB.press('Control+Enter');
    await storedLine.getByText('أهلا', { exact: true }).waitFor();
    expect(await storedLine.innerText()).toBe('Stored now: أهلا (draft)');
    expect(await stored(k.id, 'ar')).toMatchObject({ value: 'أهلا' });
    await inB.press('Control+Enter');
    await tabB.locator('form', { has: inB }).getByText('Saved', { exact: true }).waitFor();
    expect(await stored(k.id, 'ar')).toMatchObject({ value: 'مرحبا' });
    expect(await storedLine.count()).toBe(0);
    expect(await inB.getAttribute('aria-invalid')).toBeNull();
    await context.close();
  }, 120_000);

  it('an outdated value: its mark stays through a save of the same text, goes with a new text, and Mark up to date clears another', async () => {
    // de is this project's source language (its first).
    const saved = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'outdated.saved' }));
    const marked = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'outdated.marked' }));
    for (const k of [saved, marked]) {
      await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Hallo' }));
      await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/ar`, { value: 'مرحبا' }));
      await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Hallo!' }));
    }
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&lang=ar&q=outdated.`);
    const value = page.getByLabel('outdated.saved in ar', { exact: true });
    const mark = page.locator(`#v-${saved.id}-ar-outdated`);
    expect(await mark.isVisible()).toBe(true);
    expect(await value.getAttribute('aria-describedby')).toContain(`v-${saved.id}-ar-outdated`);
    expect(await page.locator(`#v-${saved.id}-de-outdated`).count()).toBe(0);
    await checkA11y(page, 'editor with outdated values');
    // What a screen reader says for the field (Chromium's accessibility tree): the mark, while it shows.
    const cdp = await context.newCDPSession(page);
    const description = async () => {
      const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
      const { nodeId } = (await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#v-${saved.id}-ar` })) as { nodeId: number };
      const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })) as { nodes: { description?: { value: string } }[] };
      return nodes[0]?.description?.value ?? '';
    };
    expect(await description()).toContain('Outdated');

    // The same text again (a status change): still outdated, still marked.
    await page.getByLabel('Status of outdated.saved in ar').selectOption('review');
    await value.press('Control+Enter');
    // (With a punctuation warning: the source ends with "!".)
    await page.locator('form', { has: value }).getByText(/^Saved/).waitFor();
    expect(await mark.isVisible()).toBe(true);
    expect(await stored(saved.id, 'ar')).toMatchObject({ status: 'review', outdated: true });
    // A new text: up to date, and the mark goes without a reload.
    await value.fill('أهلا');
    await value.press('Control+Enter');
    await mark.waitFor({ state: 'hidden' });
    expect(await stored(saved.id, 'ar')).toMatchObject({ value: 'أهلا', outdated: false });
    // Gone for a screen reader too: a hidden element named by aria-describedby is still read out.
    expect(await description()).not.toContain('Outdated');

    // The other key's button: the page comes back at that value, its mark gone.
    await page.getByRole('button', { name: 'Mark up to date: outdated.marked in ar' }).click();
    await page.waitForURL(new RegExp(`#v-${marked.id}-ar$`));
    expect(await page.locator(`#v-${marked.id}-ar-outdated`).count()).toBe(0);
    expect(await stored(marked.id, 'ar')).toMatchObject({ value: 'مرحبا', outdated: false });
    await context.close();
  }, 120_000);

  it('after a save, the publish line follows the auto-publish it causes, or says the change is not published', async () => {
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'status.line' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Eins', status: 'approved' }));
    type Status = { last_rebuilt_at: string | null; pending: boolean; build_state: string };
    const built = async () => (await json(await t.call(p.apiKey, 'GET', '/v1/cache/status'))) as Status;
    // Settled: nothing requested or building, and the same build twice in a row (two workers may
    // build the same request, and the later one publishes too, a moment after the first).
    const settled = async () => {
      let last: Status | null = null;
      await expect
        .poll(async () => {
          const now = await built();
          const same = last !== null && now.last_rebuilt_at === last.last_rebuilt_at;
          last = now;
          return same && !now.pending && now.build_state === 'idle';
        }, { timeout: 20_000, interval: 500 })
        .toBe(true);
      return last!.last_rebuilt_at;
    };
    const shownAs = (iso: string | null) => `Published ${iso!.replace('T', ' ').slice(0, 19)} UTC`;
    expect((await t.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    const first = await settled();
    const context = await signedIn();
    const page = await context.newPage();
    const status = page.locator('#cache-status');
    const value = page.getByLabel('status.line in de', { exact: true });
    const form = page.locator('form', { has: value });

    const statusOf = form.locator('select[name=status]');
    const save = async (text: string, state: string) => {
      await value.fill(text);
      await statusOf.selectOption(state);
      await value.press('Control+Enter');
      await form.getByText('Saved', { exact: true }).waitFor();
    };
    const movesOn = async (from: string | null) => {
      await expect.poll(async () => (await status.textContent()) ?? '', { timeout: 25_000 }).toMatch(/^Published \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      await expect.poll(async () => (await status.textContent()) ?? '', { timeout: 25_000 }).not.toBe(shownAs(from));
      const now = await settled();
      expect(now).not.toBe(from);
      return now;
    };

    // Auto-publish off. A draft changes no published file: the line stays, nothing is requested.
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=status.line`);
    expect(await status.textContent()).toBe(shownAs(first));
    await save('Zwei', 'draft');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await status.textContent()).toBe(shownAs(first));
    expect((await built()).pending).toBe(false);
    // An approved value is published with its save: the line follows that build, with no reload.
    await save('Zwei', 'approved');
    await new Promise((r) => setTimeout(r, 2_500)); // past the draft's quiet-period check
    const second = await movesOn(first);
    // The line names a build the save caused: newer than the first, and not newer than the settled
    // one. Two workers may build that one request (see settled), and the page stops following at
    // the first of them to finish, so it may show that one, a moment before `second` (CI,
    // 2026-12-06 21:06: the line said 21:06:06, the settled build was 21:06:08).
    const shown = (await status.textContent()) ?? '';
    expect(shown > shownAs(first) && shown <= shownAs(second), `${shown} after ${shownAs(first)}, by ${shownAs(second)}`).toBe(true);

    // Auto-publish on: a draft too schedules a build once the edits pause, and the line follows it.
    await t.runtime.deps.sql`update projects set auto_rebuild = true where id = ${p.projectId}`;
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=status.line`);
    expect(await status.textContent()).toBe(shownAs(second));
    await save('Drei', 'draft');
    await movesOn(second);
    expect(await stored(k.id, 'de')).toMatchObject({ value: 'Drei', status: 'draft' });
    await t.runtime.deps.sql`update projects set auto_rebuild = false where id = ${p.projectId}`;
    await context.close();
  }, 120_000);

  it('without JavaScript, a refused save comes back with the typed text and the message next to the value', async () => {
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.plain' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Alt' }));
    const context = await signedIn(false);
    const page = await context.newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=home.plain`);
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Von jemand anderem' }));
    const value = page.getByLabel('home.plain in de', { exact: true });
    await value.fill('Mein langer, sorgfältig getippter Text');
    await page.locator('form', { has: value }).getByRole('button', { name: 'Save' }).click();
    await page.waitForLoadState();
    expect(page.url()).toContain(`/keys/${k.id}/values/de`);
    const again = page.getByLabel('home.plain in de', { exact: true });
    expect(await again.inputValue()).toBe('Mein langer, sorgfältig getippter Text');
    expect(await again.getAttribute('aria-invalid')).toBe('true');
    const described = (await again.getAttribute('aria-describedby'))!.split(' ')[0]!;
    await expect(page.locator(`[id="${described}"]`).innerText()).resolves.toMatch(/^Someone else changed this value since the page was loaded; nothing was saved/);
    await page.locator('form', { has: again }).getByText('Von jemand anderem').waitFor();
    expect(await stored(k.id, 'de')).toMatchObject({ value: 'Von jemand anderem' });
    await context.close();
  }, 120_000);

  it('after Sign out everywhere, a save in another tab says the session ended', async () => {
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.session' }));
    const context = await signedIn();
    const [editor, other] = [await context.newPage(), await context.newPage()];
    await editor.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=home.session`);
    await other.goto(`${base}/portal`);
    await other.getByRole('button', { name: 'Sign out everywhere' }).click();
    await other.waitForURL(`${base}/portal/sign-in`);
    const value = editor.getByLabel('home.session in de', { exact: true });
    await value.fill('Nach dem Abmelden');
    await value.press('Control+Enter');
    const output = editor.locator('form', { has: value }).locator('output');
    await output.getByText(/session has ended.*sign in again/).waitFor();
    expect(await output.innerText()).not.toContain('CSRF');
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${k.id}/translations/de`)).status).toBe(404);
    // The sign-in link docs/portal.md promises, in a new tab, back to this page; the text stays here.
    const link = output.getByRole('link', { name: 'Sign in (opens a new tab)' });
    expect(await link.getAttribute('href')).toBe(`/portal/sign-in?next=${encodeURIComponent(`/portal/projects/${p.projectId}?lang=de&q=home.session`)}`);
    const [signIn] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await signIn.getByLabel('Email').fill('dev@example.com');
    await signIn.getByLabel('Password').fill('not used here');
    await signIn.getByRole('button', { name: /Sign in/ }).click();
    await signIn.waitForURL(`${base}/portal/projects/${p.projectId}?lang=de&q=home.session`);
    // Signed in again: Save here sends the typed text with the new session's token.
    expect(await value.inputValue()).toBe('Nach dem Abmelden');
    await value.press('Control+Enter');
    await output.getByText('Saved', { exact: true }).waitFor();
    expect(await stored(k.id, 'de')).toMatchObject({ value: 'Nach dem Abmelden' });
    await context.close();
  }, 120_000);

  it('a bulk approve after a save in place approves the text saved (the bulk form follows the new version)', async () => {
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'bulk.after_save' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: 'Eins' }));
    const context = await signedIn();
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=bulk.after_save`);
    const value = page.getByLabel('bulk.after_save in de', { exact: true });
    await value.fill('Eins, korrigiert');
    await value.press('Control+Enter');
    await page.locator('form', { has: value }).getByText('Saved', { exact: true }).waitFor();

    await page.getByLabel('Select bulk.after_save', { exact: true }).check();
    await page.locator('#bulk select[name=action]').selectOption('approved');
    await Promise.all([page.waitForURL(/done=approved-1/), page.locator('#bulk button[type=submit]').click()]);
    expect(await stored(k.id, 'de')).toMatchObject({ value: 'Eins, korrigiert', status: 'approved' });
    await context.close();
  }, 120_000);

  it('filters by tag with the Tag select, tags the selected keys from the bulk bar, and a tag label opens its keys', async () => {
    for (const [key, tags] of [['tags.one', ['mobile']], ['tags.two', ['mobile', '<b>x</b>']], ['tags.three', []]] as const) {
      await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, tags }));
    }
    const context = await signedIn();
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=tags.`);
    const names = () => page.locator('.keyname').allInnerTexts();
    expect(await names()).toEqual(['tags.one', 'tags.three', 'tags.two']);
    // A tag is text: its label reads as typed.
    expect(await page.getByRole('link', { name: 'Keys tagged <b>x</b>' }).innerText()).toBe('<b>x</b>');

    await page.locator('form.filters select[name=tag]').selectOption({ label: 'mobile (2)' });
    await Promise.all([page.waitForURL(/tag=mobile/), page.getByRole('button', { name: 'Apply', exact: true }).click()]);
    expect(await names()).toEqual(['tags.one', 'tags.two']);

    await page.getByLabel('Select tags.one', { exact: true }).check();
    await page.getByLabel('Select tags.two', { exact: true }).check();
    await page.locator('#bulk select[name=action]').selectOption({ label: 'Add tag' });
    await page.locator('#bulk input[name=tag]').fill('release-2.3');
    await Promise.all([page.waitForURL(/done=tagged-2/), page.locator('#bulk button[type=submit]').click()]);
    await page.getByText('Tagged 2 keys.').waitFor();
    // Back on the same filtered page, the new label beside each key.
    expect(new URL(page.url()).searchParams.get('tag')).toBe('mobile');
    expect(await page.getByRole('link', { name: 'Keys tagged release-2.3' }).count()).toBe(2);
    await checkA11y(page, 'editor filtered by tag, after a bulk tagging');

    await Promise.all([page.waitForURL(/tag=%3Cb%3Ex%3C%2Fb%3E/), page.getByRole('link', { name: 'Keys tagged <b>x</b>' }).click()]);
    expect(await names()).toEqual(['tags.two']);
    await context.close();
  }, 120_000);
});
