// Accessibility (WCAG 2.1 AA): the "Copy" button beside a secret shown once (a new API key, an invitation
// link) said "Copied" by changing its own text, which a screen reader does not announce: the result
// is a status message in a live region beside it (WCAG 4.1.3 Status Messages). Skipped, with one
// line, without Chromium.
import { describe, expect, it } from 'vitest';
import { CHROMIUM, HAVE_BROWSER, usePortal } from './support.ts';

if (!HAVE_BROWSER) console.log(`accessibility copy tests skipped: no Chromium at ${CHROMIUM}`);
const portal = usePortal(['en']);

describe.skipIf(!HAVE_BROWSER)('accessibility: copying a secret', () => {
  it('"Copied" after Copy of a new API key is announced in a live region', async () => {
    const { p, base } = portal;
    const context = await portal.signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}/api-keys`);
    await page.getByLabel(/^Name/).fill('CI');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const copy = page.getByRole('button', { name: 'Copy' });
    await copy.focus();
    await page.keyboard.press('Enter');
    const copied = page.getByText('Copied', { exact: true });
    await copied.waitFor();
    const live = await copied.evaluate((el) => el.closest('[aria-live]:not([aria-live="off"]),[role="status"],[role="alert"],output') !== null);
    expect(live).toBe(true);
  });
});
