// Accessibility (WCAG 2.1 AA): contrast in the portal's CSS as Chromium renders it. The keyboard focus
// ring must stand out from the background next to it (WCAG 1.4.11 Non-text Contrast, 3:1), and the
// "No value yet" placeholder of a missing value, which is the only text saying the value is missing
// (the yellow background is colour alone), must meet 1.4.3 Contrast (Minimum), 4.5:1. Skipped, with
// one line, without Chromium.
import { describe, expect, it } from 'vitest';
import { CHROMIUM, HAVE_BROWSER, contrast, json, usePortal } from './support.ts';

if (!HAVE_BROWSER) console.log(`accessibility contrast tests skipped: no Chromium at ${CHROMIUM}`);
const portal = usePortal(['en', 'de']);

type Style = { outlineColor: string; outlineStyle: string; backgroundColor: string; color: string };
type Win = { getComputedStyle(e: unknown, pseudo?: string): Style; document: { activeElement: El } };
type El = { tagName: string; textContent: string | null; parentElement: El | null; closest(s: string): El | null };

/** The focused element's outline colour and the first opaque background behind it (its parent's and up). */
const focusRing = () => {
  const w = globalThis as unknown as Win;
  const el = w.document.activeElement;
  let bg = 'rgba(0, 0, 0, 0)';
  for (let a = el.parentElement; a && /rgba\(0, 0, 0, 0\)|transparent/.test(bg); a = a.parentElement) bg = w.getComputedStyle(a).backgroundColor;
  const s = w.getComputedStyle(el);
  return { tag: el.tagName, text: (el.textContent ?? '').trim().slice(0, 40), inMain: el.closest('main') !== null, outline: s.outlineColor, style: s.outlineStyle, background: bg };
};

describe.skipIf(!HAVE_BROWSER)('accessibility: contrast', () => {
  it('the keyboard focus ring has 3:1 contrast against the page background it sits on', async () => {
    const { t, p, base } = portal;
    await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'focus.ring' }));
    const page = await (await portal.signedIn()).newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de`);
    // Tab from the top of the page to the first control in main (the "Projects" crumb link).
    let ring = await page.evaluate(focusRing).catch(() => null);
    for (let i = 0; i < 10 && !ring?.inMain; i++) {
      await page.keyboard.press('Tab');
      ring = await page.evaluate(focusRing);
    }
    expect(ring!.inMain).toBe(true);
    expect(ring!.style).toBe('solid'); // the portal's own ring is drawn (precondition)
    const ratio = contrast(ring!.outline, ring!.background);
    expect(ratio, `${ring!.tag} "${ring!.text}": outline ${ring!.outline} on ${ring!.background}`).toBeGreaterThanOrEqual(3);
  });

  it('the "No value yet" placeholder of a missing value has 4.5:1 contrast', async () => {
    const { t, p, base } = portal;
    await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'missing.value' }));
    const page = await (await portal.signedIn()).newPage();
    await page.goto(`${base}/portal/projects/${p.projectId}?lang=de&q=missing.value`);
    const field = page.getByLabel('missing.value in de', { exact: true });
    expect(await field.getAttribute('placeholder')).toBe('No value yet');
    const colours = await field.evaluate((el) => {
      const w = globalThis as unknown as Win;
      return { placeholder: w.getComputedStyle(el, '::placeholder').color, background: w.getComputedStyle(el).backgroundColor };
    });
    expect(contrast(colours.placeholder, colours.background), `${colours.placeholder} on ${colours.background}`).toBeGreaterThanOrEqual(4.5);
  });
});
