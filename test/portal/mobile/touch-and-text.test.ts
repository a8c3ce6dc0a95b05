// Touch targets (WCAG 2.2 2.5.8 Target Size (Minimum): 24x24 CSS px, or a 24 px circle centred on an
// undersized target that meets no other target) and text sizes, on a phone (360x740, isMobile, touch)
// and a tablet (768x1024). Fields under 16 px make iOS Safari zoom the page in on focus (and leave it
// zoomed). Skipped, with one line, without Chromium.
import { beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER, PHONE, TABLET, seed, useSeededPortal, type Page } from './support.ts';

if (!HAVE_BROWSER) console.log('portal on a phone: touch and text tests skipped: no Chromium');
const portal = useSeededPortal();

type Rect = { left: number; top: number; right: number; bottom: number; width: number; height: number };

/** 2.5.8 for two neighbouring targets: the failures (an undersized one whose 24 px circle meets the other or its circle). */
function spacingFailures(named: Record<string, Rect>): string[] {
  const [[an, a], [bn, b]] = Object.entries(named) as [[string, Rect], [string, Rect]];
  const small = (r: Rect) => r.width < 24 || r.height < 24;
  const centre = (r: Rect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
  const toRect = (p: { x: number; y: number }, r: Rect) => Math.hypot(Math.max(r.left - p.x, 0, p.x - r.right), Math.max(r.top - p.y, 0, p.y - r.bottom));
  const out: string[] = [];
  for (const [n, r, other] of [[an, a, b], [bn, b, a]] as [string, Rect, Rect][]) {
    if (!small(r)) continue;
    const c = centre(r);
    const meets = toRect(c, other) < 12 || (small(other) && Math.hypot(c.x - centre(other).x, c.y - centre(other).y) < 24);
    if (meets) out.push(`${n} ${r.width.toFixed(1)}x${r.height.toFixed(1)} px, ${Math.max(0, other.top - r.bottom, r.top - other.bottom).toFixed(1)} px from the other`);
  }
  return out;
}

async function keyCellTargets(page: Page) {
  const cell = page.locator('table.editor tbody th.keycell').first();
  const rect = async (selector: string) => (await cell.locator(selector).first().evaluate((e) => JSON.parse(JSON.stringify(e.getBoundingClientRect())))) as Rect;
  return { 'Edit (summary)': await rect('summary'), 'Delete (button)': await rect('button.link.danger') };
}

/** The computed font size of the fields a selector finds. */
async function fontSizes(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((list) =>
    list.map((e) => `${(e as any).name || e.tagName}: ${(globalThis as any).getComputedStyle(e).fontSize}`),
  );
}

describe.skipIf(!HAVE_BROWSER)('touch targets and text on a phone and a tablet', () => {
  beforeAll(async () => {
    await seed(portal);
  }, 60_000);

  for (const [name, size] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    it(`a key's Edit and Delete, stacked in its cell, are each large enough or far enough apart to tap (${name} ${size.width}x${size.height})`, async () => {
      const context = await portal.mobile(size);
      const page = await context.newPage();
      await page.goto(`${portal.base}/portal/projects/${portal.p.projectId}?lang=en&lang=de`);
      // Seen: Delete 52.6x19 px directly below Edit (16 px tall), 0 px between them: Delete's 24 px
      // circle covers Edit, so a finger aimed at either may hit the other (Delete asks first).
      expect(spacingFailures(await keyCellTargets(page))).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('the sign-in fields are at least 16 px, so iOS does not zoom in when they are tapped (phone)', async () => {
    const context = await portal.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${portal.base}/portal/sign-in`);
    // Seen: 15.2px: the label is .95rem and the field inherits it (font:inherit).
    expect(await fontSizes(page, 'main input:not([type=hidden])')).toEqual(['email: 16px', 'password: 16px']);
    await context.close();
  }, 60_000);

  it("the editor's search field and filter menus are at least 16 px (phone)", async () => {
    const context = await portal.mobile(PHONE);
    const page = await context.newPage();
    await page.goto(`${portal.base}/portal/projects/${portal.p.projectId}?lang=en&lang=de`);
    const sizes = await fontSizes(page, 'form.filters input[type=search], form.filters select, #bulk select');
    expect(sizes.filter((s) => parseFloat(s.split(': ')[1]!) < 16)).toEqual([]);
    await context.close();
  }, 60_000);
});
