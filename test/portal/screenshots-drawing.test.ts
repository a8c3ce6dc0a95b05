// Drawing a key's region on a screenshot's page (PORTAL_JS), in Chromium, where it meets the page:
// touch scrolling, a resize mid-drag, a plain click, a key far down the page, an image that arrives
// late. From the review of the drawing (2026-12-01) and a CI run (2026-12-05); the three last tests
// failed before their fixes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, json, usePortal, type Page } from '../portal/accessibility/support.ts';

const PNG = readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)); // 390 x 260
const portal = usePortal(['en']);

async function screenshotWith(n: number) {
  const { t, p } = portal;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${Date.now()}_${i}`, group_name: 'g' }))) as { id: string }).id);
  const { uploadScreenshot } = await import('../../core/screenshots/upload-screenshot.ts');
  const shot = await uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, body: new Uint8Array(PNG), name: 'Home', keyIds: ids });
  return `${portal.base}/portal/projects/${p.projectId}/screenshots/${shot.id}`;
}
const fields = (page: Page, form: number) =>
  page.locator('form.region-form').nth(form).locator('input[type=number]').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
const imageRect = async (page: Page) => {
  const r = (await page.locator('main > .shot img').boundingBox())!;
  return { top: r.y, bottom: r.y + r.height, height: Number(await page.evaluate('innerHeight')) };
};
const touchAction = (page: Page) => page.evaluate("getComputedStyle(document.querySelector('main > .shot')).touchAction");
// Waits until `expression` is true in the page, asking every 50 ms for at most 5 s. Not Playwright's
// waitForFunction: it evaluates the expression with eval in the page, which the portal's CSP
// (script-src 'self') refuses on every poll after the first (CDP lets the first one through). The
// test then passed when the first check was already true, and failed on a loaded CI machine when it
// was not (2026-12-06). page.evaluate goes through CDP each time.
async function until(page: Page, expression: string, timeout = 5_000) {
  const end = Date.now() + timeout;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`not true within ${timeout} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
// Waits until the page has stopped scrolling: scrollY the same at three looks 100 ms apart (at
// most 5 s). A tap while a swipe's fling still scrolls only stops the fling, as on a phone: no
// click (CI, 2026-12-07: the Draw button's tap after the first swipe never started drawing).
async function scrollSettled(page: Page) {
  const end = Date.now() + 5_000;
  let last = Number(await page.evaluate('scrollY'));
  for (let same = 0; same < 2 && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = Number(await page.evaluate('scrollY'));
    same = now === last ? same + 1 : 0;
    last = now;
  }
}
async function drag(page: Page, from: [number, number], to: [number, number]) {
  const box = (await page.locator('main > .shot img').boundingBox())!;
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 5 });
  await page.mouse.up();
}

describe.skipIf(!HAVE_BROWSER)('drawing a region where it meets the page', () => {
  it('touch-action only while drawing; a drag from outside the image fills nothing; a resize between press and release still gives image pixels; no CSP report or page error', async () => {
    const url = await screenshotWith(2);
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => { if (/Content Security Policy|Refused/i.test(m.text())) problems.push(m.text()); });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      expect(await touchAction(page)).toBe('auto');
      await page.locator('button.draw').nth(1).click();
      expect(await touchAction(page)).toBe('none');
      const box = (await page.locator('main > .shot img').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y - 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, box.y + 60, { steps: 4 });
      await page.mouse.up();
      expect(await fields(page, 1)).toEqual(['', '', '', '']);
      // Pressed at a tenth of the image at 1280 px, released at half of it at 300 px.
      await page.mouse.move(box.x + 0.1 * box.width, box.y + 0.1 * box.height);
      await page.mouse.down();
      await page.setViewportSize({ width: 300, height: 900 });
      const small = (await page.locator('main > .shot img').boundingBox())!;
      await page.mouse.move(small.x + 0.5 * small.width, small.y + 0.5 * small.height, { steps: 3 });
      await page.mouse.up();
      expect(await fields(page, 1)).toEqual(['39', '26', '156', '104']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a finger drag draws while drawing, and scrolls the page otherwise', async () => {
    const url = await screenshotWith(6);
    const context = await portal.browser.newContext({ viewport: { width: 375, height: 500 }, hasTouch: true, isMobile: true });
    try {
      const { createSession } = await import('../../core/users/sessions.ts');
      const session = await createSession(portal.t.runtime.deps, portal.userId);
      await context.addCookies([{ name: 'tms_session', value: session.token, url: portal.base }]);
      const page = await context.newPage();
      await page.goto(url);
      const cdp = await context.newCDPSession(page);
      // The page's scroll before the finger is lifted (after it, focus moves to Save region).
      let beforeLift = 0;
      // The compositor scrolls after the touch events, later on a loaded machine (CI once saw no
      // scroll 300 ms after the last move): a swipe that should scroll waits up to 5 s for it.
      const swipe = async (x: number, y0: number, y1: number, scrollsFrom?: number) => {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
        for (let i = 1; i <= 6; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y0 + ((y1 - y0) * i) / 6 }] });
        if (scrollsFrom === undefined) await page.waitForTimeout(300);
        else await until(page, `scrollY > ${scrollsFrom}`).catch(() => undefined);
        beforeLift = Number(await page.evaluate('scrollY'));
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await page.waitForTimeout(300);
      };
      const box = (await page.locator('main > .shot img').boundingBox())!;
      const before = Number(await page.evaluate('scrollY'));
      await swipe(box.x + box.width / 2, box.y + box.height - 5, box.y + 5, before);
      expect(beforeLift, 'not drawing: the page scrolls').toBeGreaterThan(before);
      await scrollSettled(page);
      await page.locator('button.draw').first().tap();
      // The tap's click, and the touch-action it sets, reach the compositor later on a loaded
      // machine: CI (2026-12-06) once saw the drawing swipe scroll the page by its own length. The
      // swipe starts once the image says none and two frames have been drawn since.
      await until(page, "getComputedStyle(document.querySelector('main > .shot')).touchAction === 'none'");
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const b = (await page.locator('main > .shot img').boundingBox())!;
      const y = Number(await page.evaluate('scrollY'));
      await swipe(b.x + b.width / 2, b.y + 10, b.y + b.height - 10);
      expect(beforeLift, 'drawing: the page stays under the finger').toBe(y);
      const [, , w, h] = await fields(page, 0);
      expect(Number(w)).toBeGreaterThanOrEqual(1);
      expect(Number(h)).toBeGreaterThan(100);
    } finally {
      await context.close();
    }
  });

  it('after a drag, focus goes to Save region without scrolling: the image and the box just drawn stay in sight for a key far down the page', async () => {
    const url = await screenshotWith(8);
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('button.draw').nth(7).click();
      const drawing = await imageRect(page);
      expect(drawing.top, 'the Draw button scrolled the image into view').toBeGreaterThanOrEqual(-1);
      await drag(page, [0.1, 0.1], [0.4, 0.3]);
      expect(await fields(page, 7)).not.toEqual(['', '', '', '']);
      const after = await imageRect(page);
      // The box just drawn (and the image to draw again on) should still be on the screen.
      expect(after.bottom, `image at ${Math.round(after.top)}..${Math.round(after.bottom)} of a ${after.height} px window`).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('the image comes with the page, not lazily: one that arrives late is there when the page has loaded, and a Draw then keeps it in sight', async () => {
    // Found by CI: loaded lazily, the image came after the page's load on a busy machine. A finger
    // swipe measured on the image without its size did not scroll, and a Draw pressed before it came
    // left the image 28 px off the top once it pushed the keys down. Both reproduced with this delay.
    const url = await screenshotWith(8);
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.route('**/image', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await route.continue();
      });
      await page.goto(url);
      const img = page.locator('main > .shot img');
      expect(await img.evaluate((e) => (e as unknown as { complete: boolean; naturalWidth: number }).complete && (e as unknown as { naturalWidth: number }).naturalWidth)).toBe(390);
      await page.locator('button.draw').nth(7).click();
      expect((await imageRect(page)).top, 'the Draw button scrolled the image into view').toBeGreaterThanOrEqual(-1);
    } finally {
      await context.close();
    }
  });

  it('a plain click (or tap) on the image while drawing leaves the key\'s numbers as they were', async () => {
    const url = await screenshotWith(1);
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(url);
      const form = page.locator('form.region-form').first();
      for (const [label, value] of [['x', '24'], ['y', '80'], ['width', '200'], ['height', '40']] as const) await form.locator(`input[name=${label}]`).fill(value);
      await form.getByRole('button', { name: /^Save region/ }).click();
      await page.waitForURL(/outcome=/);
      await page.locator('button.draw').first().click();
      const box = (await page.locator('main > .shot img').boundingBox())!;
      await page.mouse.click(box.x + 10, box.y + 10);
      expect(await fields(page, 0), 'a click is not a drag').toEqual(['24', '80', '200', '40']);
    } finally {
      await context.close();
    }
  });
});
