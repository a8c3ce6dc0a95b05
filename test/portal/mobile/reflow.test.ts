// WCAG 1.4.10 Reflow on a phone (360x740, isMobile, touch): the page itself must not be wider than
// the screen. On a mobile browser a page wider than the screen is first zoomed out to fit (all its text
// shrinks), then read by scrolling both ways. A table scrolling inside its own container is fine.
// Skipped, with one line, without Chromium.
import { beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER, LONG_URL, LONG_WORD, NARROW, PHONE, json, overflow, seed, useSeededPortal } from './support.ts';

if (!HAVE_BROWSER) console.log('portal on a phone: reflow tests skipped: no Chromium');
const portal = useSeededPortal();

/** The page's width in CSS px, the screen's, and the scale the browser zoomed out to. */
async function widths(url: string, size: { width: number; height: number }) {
  const context = await portal.mobile(size);
  const page = await context.newPage();
  await page.goto(url);
  const o = await overflow(page, size.width);
  const scale = await page.evaluate(() => (globalThis as any).visualViewport.scale as number);
  await context.close();
  return { ...o, scale };
}

describe.skipIf(!HAVE_BROWSER)('reflow on a phone', () => {
  beforeAll(async () => {
    await seed(portal);
  }, 60_000);

  it("a value's History with a URL or a long word in it is no wider than a 360 px phone", async () => {
    // Its comments above the history, with the same unbroken text.
    await json(await portal.t.call(portal.p.apiKey, 'POST', `/v1/keys/${portal.keyId}/translations/de/comments`, { text: `${LONG_WORD}? See ${LONG_URL}` }));
    const w = await widths(`${portal.base}/portal/projects/${portal.p.projectId}/keys/${portal.keyId}/values/de/history`, PHONE);
    // Seen: 593 px wide (the page zoomed out to about 0.6), the list's value text sticking out.
    expect(w.out, 'elements past the right edge of the screen').toEqual([]);
    expect(w.scrollWidth).toBeLessThanOrEqual(PHONE.width);
  }, 60_000);

  it('the editor with four languages shown is no wider than a 360 px phone (the bulk action menu)', async () => {
    const w = await widths(`${portal.base}/portal/projects/${portal.p.projectId}?lang=en&lang=de&lang=fr&lang=ar`, PHONE);
    // Seen: 382 px wide: the select "Approve values (en, de, fr, ar)" and its label stick out.
    expect(w.out, 'elements past the right edge of the screen').toEqual([]);
    expect(w.scrollWidth).toBeLessThanOrEqual(PHONE.width);
  }, 60_000);

  it('the editor with two languages reflows at 320 CSS px (WCAG 1.4.10)', async () => {
    const w = await widths(`${portal.base}/portal/projects/${portal.p.projectId}?lang=en&lang=de`, NARROW);
    // Seen: 331 px wide, from the same select.
    expect(w.out, 'elements past the right edge of the screen').toEqual([]);
    expect(w.scrollWidth).toBeLessThanOrEqual(NARROW.width);
  }, 60_000);
});
