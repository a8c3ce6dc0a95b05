// The count under a value whose key has a character limit, in a real browser (the portal's script):
// it follows the text as it is typed, in graphemes (an emoji with its skin tone once), says how far
// over the limit in words, says for a plural or select that the save checks its longest form, and
// follows a suggestion put in the field. It is no live region (read with the field through
// aria-describedby). axe-core on the page with a count over the limit and the key form open.
// Skipped, with one line, without Chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, CHROMIUM, json, usePortal } from './accessibility/support.ts';

if (!HAVE_BROWSER) console.log(`character limit browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const portal = usePortal(['en', 'de']);

describe.skipIf(!HAVE_BROWSER)('the character count in Chromium', () => {
  it('follows the typed text, in graphemes, over the limit in words, and a plural is left to the save', async () => {
    const { t, p, base } = portal;
    const key = `limit.browser.${Date.now().toString(36)}`;
    const { id } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, max_length: 10 }))) as { id: string };
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Hallo' }));
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}?q=${key}&lang=de`);
      const field = page.locator(`#v-${id}-de`);
      const counter = page.locator(`#v-${id}-de-len`);
      expect(await counter.textContent()).toBe('5 / 10 characters');
      expect(await counter.getAttribute('aria-live')).toBeNull();
      expect((await field.getAttribute('aria-describedby'))!.split(' ')).toContain(`v-${id}-de-len`);

      await field.fill('Hallo 👋🏽');
      expect(await counter.textContent()).toBe('7 / 10 characters');
      await field.pressSequentially(' Welt!');
      expect(await counter.textContent()).toBe('13 / 10 characters: 3 over');
      expect(await counter.getAttribute('class')).toBe('hint counter over');

      await field.fill('{n, plural, one {ein Apfel} other {# Äpfel}}');
      expect(await counter.textContent()).toBe('… / 10 characters: the longest form is checked on save');
      expect(await counter.getAttribute('class')).toBe('hint counter');

      await field.fill('Hallo');
      expect(await counter.textContent()).toBe('5 / 10 characters');

      // The state a translator sees when over: no serious or critical violation, the key form open.
      await field.fill('Guten Morgen, Welt');
      await page.locator('details summary', { hasText: 'Edit' }).first().click();
      await page.evaluate(AXE);
      const violations = (await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run({ resultTypes: ['violations'] });
        return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
      })) as { id: string; impact: string }[];
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows a suggestion put in the field', async () => {
    const { t, p, base } = portal;
    const key = `limit.suggest.${Date.now().toString(36)}`;
    // An approved translation of the same source elsewhere in the project: the memory's suggestion.
    const other = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `${key}.other` }))) as { id: string };
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${other.id}/translations/en`, { value: 'Good morning', status: 'approved' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${other.id}/translations/de`, { value: 'Guten Morgen zusammen', status: 'approved' }));
    const { id } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, max_length: 10 }))) as { id: string };
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Good morning', status: 'approved' }));
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}?q=${encodeURIComponent(key)}&lang=de`);
      const counter = page.locator(`#v-${id}-de-len`);
      expect(await counter.textContent()).toBe('0 / 10 characters');
      await page.locator(`[data-suggest="v-${id}-de"]`).click();
      await page.locator(`#v-${id}-de-sugg button.suggestion`).first().click();
      expect(await page.locator(`#v-${id}-de`).inputValue()).toBe('Guten Morgen zusammen');
      expect(await counter.textContent()).toBe('21 / 10 characters: 11 over');
    } finally {
      await context.close();
    }
  });
});
