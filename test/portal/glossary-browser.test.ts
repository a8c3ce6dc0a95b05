// The Glossary tab in a real browser (Chromium, the portal's script): a term added through the Add
// form (its labels, the notice after the redirect), the refusal of a spelling the glossary has at
// the term field (aria-invalid, described by the message, the typed text kept), a Delete that asks
// first, and axe-core on the tab (the forms open) and on the editor with its glossary hints: no
// serious or critical violation; at a phone's width the tab is no wider than the screen. A CSV
// file imported: refused at the file field (focused there), then previewed and applied; axe-core on
// the refusal and the preview; at a phone's width neither is wider than the screen. A term added
// with Forbidden ticked shows its "Forbidden: do not use" badge. Skipped, with one line, without
// Chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, CHROMIUM, json, usePortal, type Page } from './accessibility/support.ts';

if (!HAVE_BROWSER) console.log(`glossary browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const portal = usePortal(['en', 'de', 'fr']);

async function seriousViolations(page: Page) {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  })) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.skipIf(!HAVE_BROWSER)('the Glossary tab in Chromium', () => {
  it('adds a term through the form, refuses a spelling it has at the field, deletes after asking; no serious axe violation', async () => {
    const { p, base } = portal;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}`);
      await page.getByRole('link', { name: 'Glossary' }).click();
      await page.waitForURL(/\/glossary$/);
      expect(await page.getByRole('heading', { name: 'Glossary' }).count()).toBe(1);
      expect(await page.getByText('No terms yet: add the first one above.').count()).toBe(1);

      await page.getByText('Add a term', { exact: true }).click();
      const add = page.getByRole('form', { name: 'Add a term' });
      await add.getByLabel('Term').fill('Dashboard');
      await add.getByLabel('Description').fill('The start page after sign-in');
      await add.getByLabel('Case-sensitive').check();
      await add.getByLabel('de (German)').fill('Übersicht');
      expect(await seriousViolations(page)).toEqual([]);
      await add.getByRole('button', { name: 'Add term' }).click();
      await page.waitForURL(/outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Added the term Dashboard.' }).count()).toBe(1);
      const row = page.locator('tbody tr').filter({ hasText: 'Dashboard' });
      expect(await row.locator('th').innerText()).toContain('case-sensitive');
      expect(await row.locator('td').nth(1).innerText()).toBe('Übersicht');
      expect(await row.locator('td > span[lang="de"]').innerText()).toBe('Übersicht');

      // The same spelling again, in another case: at the term field, the typed text kept.
      await page.getByText('Add a term', { exact: true }).click();
      await add.getByLabel('Term').fill('dashboard');
      await add.getByLabel('fr (French)').fill('Tableau de bord');
      await add.getByRole('button', { name: 'Add term' }).click();
      await page.waitForLoadState();
      const term = page.getByRole('form', { name: 'Add a term' }).getByLabel('Term');
      expect(await term.inputValue()).toBe('dashboard');
      expect(await term.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await term.getAttribute('aria-describedby'))!;
      expect(await page.locator(`#${describedBy}`).innerText()).toContain('The glossary already has the term');
      expect(await page.getByRole('form', { name: 'Add a term' }).getByLabel('fr (French)').inputValue()).toBe('Tableau de bord');
      // The page with the refused form and an Edit form open.
      await page.locator('tbody tr').filter({ hasText: 'Dashboard' }).getByText('Edit').click();
      expect(await seriousViolations(page)).toEqual([]);

      // Delete asks first: dismissed, nothing happens; accepted, the term goes.
      await page.goto(`${base}/portal/projects/${p.projectId}/glossary`);
      page.once('dialog', (d) => void d.dismiss());
      await page.getByRole('button', { name: 'Delete the term Dashboard' }).click();
      expect(await page.locator('tbody tr').count()).toBe(1);
      page.once('dialog', (d) => {
        expect(d.message()).toContain('Delete the glossary term Dashboard');
        void d.accept();
      });
      await page.getByRole('button', { name: 'Delete the term Dashboard' }).click();
      await page.waitForURL(/outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Deleted the term Dashboard.' }).count()).toBe(1);
      expect(await page.locator('tbody tr').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('at 375 px (a phone) the tab is no wider than the screen: the table scrolls in its own box', async () => {
    const { t, p, base } = portal;
    const { createTerm } = await import('../../core/glossary/create-term.ts');
    const term = await createTerm(t.runtime.deps, {
      projectId: p.projectId,
      actor: { type: 'api_key', id: p.apiKeyId },
      term: 'Synchronisation',
      description: `A long description ${'without-any-break-'.repeat(8)}`,
      translations: { de: 'Synchronisierung', fr: 'Synchronisation des données' },
    });
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${base}/portal/projects/${p.projectId}/glossary`);
      await page.getByText('Add a term', { exact: true }).click();
      const by = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(by, `the Glossary tab is ${by} px wider than the phone`).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
      const { deleteTerm } = await import('../../core/glossary/delete-term.ts');
      await deleteTerm(t.runtime.deps, { projectId: p.projectId, termId: term.id, actor: { type: 'api_key', id: p.apiKeyId } });
    }
  });

  it('the editor shows the glossary hints under the source text; no serious axe violation there', async () => {
    const { t, p, base } = portal;
    const { id } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' }))) as { id: string };
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Open your Wi-Fi settings from Acme' }));
    const { createTerm } = await import('../../core/glossary/create-term.ts');
    const actor = { type: 'api_key' as const, id: p.apiKeyId };
    await createTerm(t.runtime.deps, { projectId: p.projectId, actor, term: 'Wi-Fi', translations: { de: 'WLAN' }, description: 'The wireless network' });
    await createTerm(t.runtime.deps, { projectId: p.projectId, actor, term: 'Acme', translatable: false });
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}?lang=en&lang=de`);
      const hints = page.locator(`#gl-${id}`);
      expect(await hints.locator('li').allInnerTexts()).toEqual(['Acme: do not translate', 'Wi-Fi → WLAN (de) — The wireless network']);
      expect(await page.getByRole('list', { name: 'Glossary' }).count()).toBe(1);
      expect((await page.locator(`#v-${id}-de`).getAttribute('aria-describedby'))!.split(' ')).toContain(`gl-${id}`);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('imports a CSV file: a bad one refused at the file field, then a preview, Apply, and the terms in the table; no serious axe violation', async () => {
    const { p, base } = portal;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}/glossary`);
      const open = async () => {
        await page.getByText('Import a glossary file', { exact: true }).click();
        return page.getByRole('form', { name: 'Import a glossary file' });
      };

      // A bad file: the form comes back open, the problem by its line at the file field, focused there.
      let form = await open();
      await form.getByLabel('File (up to 10 MiB)', { exact: true }).setInputFiles({ name: 'terms.csv', mimeType: 'text/csv', buffer: Buffer.from(`term,de\nCheckout,Kasse\n${'x'.repeat(201)},Zu lang\n`) });
      await form.getByRole('button', { name: 'Preview import' }).click();
      await page.waitForLoadState();
      form = page.getByRole('form', { name: 'Import a glossary file' });
      const file = form.getByLabel('File (up to 10 MiB)', { exact: true });
      expect(await file.getAttribute('aria-invalid')).toBe('true');
      expect(await file.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
      const problem = (await file.getAttribute('aria-describedby'))!.split(' ')[0]!;
      expect(await page.locator(`#${problem}`).innerText()).toMatch(/^line 3: /);
      expect(await seriousViolations(page)).toEqual([]);

      // The right file: the preview says what it would do, and writes nothing until Apply.
      await file.setInputFiles({
        name: 'terms.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('term,description,de,fr,es\nCheckout,The payment page,Kasse,Paiement,Pago\nInvoice,,Rechnung,Facture,\n'),
      });
      await form.getByRole('button', { name: 'Preview import' }).click();
      const preview = page.getByRole('region', { name: 'Preview: what importing terms.csv would do' });
      await preview.waitFor();
      expect(await preview.innerText()).toContain('Would add 2 terms, change 0, 0 unchanged; 4 translations in de, fr.');
      expect(await preview.innerText()).toContain('column es: not a language of the project');
      expect(await page.locator('tbody tr').filter({ hasText: 'Invoice' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      await preview.getByRole('button', { name: 'Apply this import' }).click();
      await page.waitForURL(/outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Imported the glossary file (csv): 2 terms added' }).count()).toBe(1);
      const row = page.locator('tbody tr').filter({ hasText: 'Invoice' });
      expect(await row.locator('td').nth(1).innerText()).toBe('Rechnung');
      expect(await row.locator('td').nth(2).innerText()).toBe('Facture');
    } finally {
      await context.close();
    }
  });

  it('at 375 px the import form and its preview are no wider than the screen', async () => {
    const { p, base } = portal;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${base}/portal/projects/${p.projectId}/glossary`);
      await page.getByText('Import a glossary file', { exact: true }).click();
      const form = page.getByRole('form', { name: 'Import a glossary file' });
      const wider = async () => Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(await wider(), 'the import form overflows').toBeLessThanOrEqual(0);
      await form.getByLabel('File (up to 10 MiB)', { exact: true }).setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from('term,de\nSubscription,Abonnement\n') });
      await form.getByRole('button', { name: 'Preview import' }).click();
      await page.getByRole('region', { name: 'Preview: what importing more.csv would do' }).waitFor();
      expect(await wider(), 'the preview overflows').toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });

  it('adds a forbidden term (Forbidden ticked in the Add form): its row says "Forbidden: do not use", its translation "(do not use)"', async () => {
    const { p, base } = portal;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}/glossary`);
      await page.getByText('Add a term', { exact: true }).click();
      const add = page.getByRole('form', { name: 'Add a term' });
      await add.getByLabel('Term').fill('Login');
      await add.getByLabel('de (German)').fill('Einloggen');
      await add.getByLabel('Forbidden (a word not to use)').check();
      await add.getByRole('button', { name: 'Add term' }).click();
      await page.waitForURL(/outcome=/);
      const row = page.locator('tbody tr').filter({ hasText: 'Login' });
      expect(await row.locator('th').innerText()).toContain('Forbidden: do not use');
      expect(await row.locator('td').nth(1).innerText()).toBe('Einloggen (do not use)');
    } finally {
      await context.close();
    }
  });
});
