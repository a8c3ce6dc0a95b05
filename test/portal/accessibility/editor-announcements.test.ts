// Accessibility (WCAG 2.1 AA): what the editor's script shows after an action must reach a screen reader
// too (WCAG 4.1.3 Status Messages): a status message is inside a live region (aria-live, role
// status/alert/log, or <output>), or focus moves to it. Skipped, with one line, without Chromium.
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, CHROMIUM, json, usePortal } from './support.ts';

if (!HAVE_BROWSER) console.log(`accessibility editor tests skipped: no Chromium at ${CHROMIUM}`);
const portal = usePortal(['en', 'de']);

type El = { closest(selector: string): El | null; contains(other: El): boolean };

/** Whether an element is inside a live region or holds focus (evaluated in the page). */
const announced = (el: El) => {
  const live = el.closest('[aria-live]:not([aria-live="off"]),[role="status"],[role="alert"],[role="log"],output');
  const active = (globalThis as unknown as { document: { activeElement: El | null } }).document.activeElement;
  return { inLiveRegion: live !== null, focusInside: active !== null && el.contains(active) };
};

describe.skipIf(!HAVE_BROWSER)('accessibility: editor status messages', () => {
  it('quality warnings returned by an in-place save are announced, not only shown', async () => {
    const { t, p, base } = portal;
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'greet.name' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: 'Hello {name}' }));
    const page = await (await portal.signedIn()).newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=greet.name`);
    const field = page.getByLabel('greet.name in de', { exact: true });
    await field.fill('Hallo'); // the {name} placeholder is lost: a quality warning
    await field.press('Control+Enter');
    const form = page.locator('form', { has: field });
    await form.locator('output').getByText(/^Saved/).waitFor();
    const title = form.locator('.warn-title');
    await title.waitFor();
    // Precondition: the warning is shown visually.
    expect(await title.innerText()).toMatch(/1 quality warning/);
    // A screen reader user who pressed Ctrl+Enter hears about the warning, not only "Saved".
    const output = await form.locator('output').innerText();
    const state = await title.evaluate(announced as never) as { inLiveRegion: boolean; focusInside: boolean };
    expect(state.inLiveRegion || state.focusInside || /quality warning/i.test(output), `output says "${output}"`).toBe(true);
  });

  it('"No suggestions" after activating Suggestions by keyboard is announced or focused', async () => {
    const { t, p, base } = portal;
    await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'nosource.key' })); // no source (en) value: no suggestions
    const page = await (await portal.signedIn()).newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=nosource.key`);
    const link = page.getByRole('link', { name: 'Suggestions for nosource.key in de' });
    await link.focus();
    await page.keyboard.press('Enter');
    const box = page.locator('#' + (await link.getAttribute('aria-controls'))!);
    const message = box.getByText(/^No suggestions/);
    await message.waitFor();
    // Focus stayed on the link, and the box is no live region: the message takes focus to be said.
    const state = await message.evaluate(announced as never) as { inLiveRegion: boolean; focusInside: boolean };
    expect(state.inLiveRegion || state.focusInside).toBe(true);
  });
});
