// The editor as a reviewer meets it on a phone (360x740, isMobile, touch): what stands between the
// top of the page and the first value. Skipped, with one line, without Chromium.
import { beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER, PHONE, seed, useSeededPortal } from './support.ts';

if (!HAVE_BROWSER) console.log('portal on a phone: editor tests skipped: no Chromium');
const portal = useSeededPortal();

describe.skipIf(!HAVE_BROWSER)('the editor on a phone', () => {
  beforeAll(async () => {
    await seed(portal);
  }, 60_000);

  it("the editor's own forms (filters, Translate missing, New key, bulk) take less than a screen before the first value", async () => {
    const context = await portal.mobile(PHONE);
    const page = await context.newPage();
    await page.goto(`${portal.base}/portal/projects/${portal.p.projectId}?lang=en&lang=de`);
    const at = await page.evaluate(() => {
      const d = (globalThis as any).document;
      const y = (s: string, edge: 'top' | 'bottom') => Math.round(d.querySelector(s).getBoundingClientRect()[edge] + (globalThis as any).scrollY);
      return { tabsEnd: y('nav.tabs', 'bottom'), firstValue: y('form.value textarea', 'top'), filters: y('form.filters', 'bottom') - y('form.filters', 'top'), translate: y('#translate-missing', 'bottom') - y('#translate-missing', 'top') };
    });
    // Seen: the first value at y=1465 on a 740 px screen, 971 px below the tabs, when Translate missing
    // (293 px, with its paragraph) was open above it; closed now, and the cards tighter on a phone.
    expect(at.firstValue - at.tabsEnd, JSON.stringify(at)).toBeLessThan(PHONE.height);
    await context.close();
  }, 60_000);
});
