// Screenshots in a real browser (Chromium, the portal's CSP and script): a PNG uploaded through the
// file input of the Screenshots tab, its keys named; the image loaded from the portal's image route;
// a key's region marked through its four fields and outlined over the image where those pixels are
// (at the desktop's width and at a phone's); a region outside the image refused at its field; the
// key's value page with the image and the outline; a double-clicked Upload uploading once; Delete
// asking first; axe-core on the tab, the screenshot's page and the value page: no serious or critical
// violation; at 375 px no page wider than the screen; a key's region drawn with the mouse on the
// image (PORTAL_JS), filling the four numbers that Save region sends. Skipped, with one line,
// without Chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, CHROMIUM, json, usePortal, type Page } from './accessibility/support.ts';

if (!HAVE_BROWSER) console.log(`screenshots browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PNG = readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url));
const portal = usePortal(['en', 'de']);

async function seriousViolations(page: Page) {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  })) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Whether the image is loaded (the portal's route answered it, the CSP let it in), at its natural size. */
// The image's own width once it has loaded: the page's load event may come before a slow machine
// has decoded it (a `loading="lazy"` image is not part of the load event).
type Img = { complete: boolean; naturalWidth: number; addEventListener(type: string, f: () => void, o: { once: boolean }): void };
const naturalWidth = (page: Page, alt: string) =>
  page
    .locator(`img[alt="${alt}"]`)
    .first()
    .evaluate((element) => {
      const img = element as unknown as Img;
      if (img.complete) return img.naturalWidth;
      return new Promise<number>((resolve) => {
        img.addEventListener('load', () => resolve(img.naturalWidth), { once: true });
        img.addEventListener('error', () => resolve(0), { once: true });
      });
    });

/**
 * Where the outline is drawn over the image, in the image's own pixels (from the boxes on the
 * screen): it must be where the region's numbers say, whatever the image's shown size.
 */
async function outlineInImagePixels(page: Page, scope: string, naturalW: number) {
  const img = (await page.locator(`${scope} img`).first().boundingBox())!;
  const box = (await page.locator(`${scope} svg.regions rect.box`).first().boundingBox())!;
  const scale = naturalW / img.width;
  // The stroke is drawn on the rectangle's edge (half outside it): its box is 3 px larger on the screen.
  const stroke = 1.5;
  return {
    shownWidth: img.width,
    x: Math.round((box.x + stroke - img.x) * scale),
    y: Math.round((box.y + stroke - img.y) * scale),
    width: Math.round((box.width - 2 * stroke) * scale),
    height: Math.round((box.height - 2 * stroke) * scale),
  };
}

const near = (actual: number, expected: number, by = 3) => expect(Math.abs(actual - expected), `${actual} is not about ${expected}`).toBeLessThanOrEqual(by);

describe.skipIf(!HAVE_BROWSER)('screenshots in Chromium', () => {
  it('uploads through the file input, marks a region shown over the image, refuses one outside it, shows it on the key page, deletes after asking; no serious axe violation', async () => {
    const { t, p, base } = portal;
    const { id: keyId } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'auth.sign_in', group_name: 'auth' }))) as { id: string };
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/en`, { value: 'Sign in' }));
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}`);
      await page.getByRole('link', { name: 'Screenshots' }).click();
      await page.waitForURL(/\/screenshots$/);
      expect(await page.getByRole('heading', { name: 'Screenshots' }).count()).toBe(1);
      expect(await page.getByText('No screenshots yet: upload the first one above.').count()).toBe(1);

      await page.getByText('Upload a screenshot', { exact: true }).click();
      const form = page.getByRole('form', { name: 'Upload a screenshot' });
      await form.getByLabel(/^Image/).setInputFiles({ name: 'sign-in.png', mimeType: 'image/png', buffer: PNG });
      await form.getByRole('textbox', { name: /^Name/ }).fill('Sign-in page');
      await form.getByRole('textbox', { name: /^Keys it shows/ }).fill('auth.sign_in');
      expect(await seriousViolations(page)).toEqual([]);
      await form.getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL(/\/screenshots\/[0-9a-f-]{36}\?outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Uploaded the screenshot Sign-in page (390 × 260 px), linked to 1 key.' }).count()).toBe(1);
      expect(await naturalWidth(page, 'Screenshot: Sign-in page')).toBe(390);
      const shotUrl = page.url().replace(/\?.*$/, '');

      // Where the key is: the four numbers of its form, then the outline over those pixels.
      const where = page.getByRole('form', { name: 'Where auth.sign_in is' });
      await where.getByLabel(/^x/).fill('24');
      await where.getByLabel(/^y/).fill('80');
      await where.getByLabel(/^Width/).fill('200');
      await where.getByLabel(/^Height/).fill('40');
      await where.getByRole('button', { name: 'Save region of auth.sign_in' }).click();
      await page.waitForURL(/outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Saved where auth.sign_in is: at 24, 80, 200 × 40 px.' }).count()).toBe(1);
      const drawn = await outlineInImagePixels(page, 'main > .shot', 390);
      near(drawn.x, 24);
      near(drawn.y, 80);
      near(drawn.width, 200);
      near(drawn.height, 40);
      expect(await seriousViolations(page)).toEqual([]);

      // Outside the image (each number allowed alone, not together): refused at its field, kept.
      await where.getByLabel(/^x/).fill('300');
      await where.getByRole('button', { name: 'Save region of auth.sign_in' }).click();
      await page.waitForLoadState();
      const width = page.getByRole('form', { name: 'Where auth.sign_in is' }).getByLabel(/^Width/);
      expect(await width.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await width.getAttribute('aria-describedby')}`).innerText()).toContain("runs past the image's right edge");
      expect(await page.getByRole('form', { name: 'Where auth.sign_in is' }).getByLabel(/^x/).inputValue()).toBe('300');
      expect(await seriousViolations(page)).toEqual([]);

      // The key's value page, as the translator opens it from the editor's count.
      await page.goto(`${base}/portal/projects/${p.projectId}?lang=en&lang=de`);
      await page.getByRole('link', { name: '1 screenshot of auth.sign_in' }).click();
      await page.waitForURL(/\/history#screenshots$/);
      const section = page.getByRole('region', { name: 'Screenshots' });
      expect(await section.innerText()).toContain('auth.sign_in is outlined, at 24, 80, 200 × 40 px of 390 × 260.');
      expect(await naturalWidth(page, 'Screenshot: Sign-in page')).toBe(390);
      const onKeyPage = await outlineInImagePixels(page, '#screenshots .shot', 390);
      near(onKeyPage.x, 24);
      near(onKeyPage.width, 200);
      expect(await seriousViolations(page)).toEqual([]);

      // Delete asks first: dismissed, nothing happens; accepted, it goes.
      await page.goto(shotUrl);
      page.once('dialog', (d) => void d.dismiss());
      await page.getByRole('button', { name: 'Delete screenshot Sign-in page' }).click();
      expect(await page.getByRole('heading', { name: 'Sign-in page' }).count()).toBe(1);
      page.once('dialog', (d) => {
        expect(d.message()).toContain('Delete the screenshot Sign-in page?');
        void d.accept();
      });
      await page.getByRole('button', { name: 'Delete screenshot Sign-in page' }).click();
      await page.waitForURL(/\/screenshots\?outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Deleted the screenshot Sign-in page.' }).count()).toBe(1);
      expect(await page.locator('.shot-card').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('draws a key region on the image with the mouse (at the desktop width and at 375 px): the four numbers filled, saved by Save region only, outlined where dragged; Escape stops drawing; no serious axe violation', async () => {
    const { t, p, base } = portal;
    const { id: keyId } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' }))) as { id: string };
    const { uploadScreenshot } = await import('../../core/screenshots/upload-screenshot.ts');
    const shot = await uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, body: new Uint8Array(PNG), name: 'Home', keyIds: [keyId] });
    const stored = async () => (await t.runtime.deps.sql<{ x: number | null; y: number | null; w: number | null; h: number | null }[]>`
      select region_x as x, region_y as y, region_width as w, region_height as h from screenshot_keys where screenshot_id = ${shot.id} and key_id = ${keyId}`)[0]!;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      const shotUrl = `${base}/portal/projects/${p.projectId}/screenshots/${shot.id}`;
      await page.goto(shotUrl);
      const where = () => page.getByRole('form', { name: 'Where home.title is' });
      const draw = () => where().getByRole('button', { name: 'Draw on the image where home.title is' });
      const said = () => page.locator('#draw-status').innerText();
      const fields = async () => Promise.all([/^x/, /^y/, /^Width/, /^Height/].map(async (label) => Number(await where().getByLabel(label).inputValue())));

      /** A drag over the shown image, from and to fractions of its size; the region it should make, in the image's pixels (390 × 260). */
      async function dragOver(from: [number, number], to: [number, number]) {
        const box = (await page.locator('main > .shot img').boundingBox())!;
        const a = { x: box.x + from[0] * box.width, y: box.y + from[1] * box.height };
        const b = { x: box.x + to[0] * box.width, y: box.y + to[1] * box.height };
        await page.mouse.move(a.x, a.y);
        await page.mouse.down();
        await page.mouse.move(b.x, b.y, { steps: 6 });
        await page.mouse.up();
        const sx = 390 / box.width;
        const sy = 260 / box.height;
        const x = Math.round((Math.min(a.x, b.x) - box.x) * sx);
        const y = Math.round((Math.min(a.y, b.y) - box.y) * sy);
        return { shownWidth: box.width, x, y, width: Math.round((Math.max(a.x, b.x) - box.x) * sx) - x, height: Math.round((Math.max(a.y, b.y) - box.y) * sy) - y };
      }

      // Drawing mode: the button pressed, the form marked, the words said; axe finds nothing new.
      expect(await draw().getAttribute('aria-pressed')).toBe('false');
      await draw().click();
      expect(await draw().getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('main > .shot.drawing').count()).toBe(1);
      expect(await said()).toContain('Drag on the image to mark where home.title is');
      expect(await seriousViolations(page)).toEqual([]);

      // Escape stops it: a drag then fills nothing.
      await page.keyboard.press('Escape');
      expect(await draw().getAttribute('aria-pressed')).toBe('false');
      expect(await page.locator('main > .shot.drawing').count()).toBe(0);
      expect(await said()).toBe('Stopped drawing');
      await dragOver([0.2, 0.2], [0.6, 0.6]);
      expect(await where().getByLabel(/^x/).inputValue()).toBe('');

      // At the desktop's width: the drag fills the four numbers, in the image's pixels; focus on Save region.
      await draw().click();
      const wide = await dragOver([0.1, 0.3], [0.55, 0.45]);
      expect(wide.shownWidth).toBe(390);
      const [x, y, w, h] = await fields();
      near(x!, wide.x, 1);
      near(y!, wide.y, 1);
      near(w!, wide.width, 1);
      near(h!, wide.height, 1);
      expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Save region of home.title');
      expect(await said()).toBe(`Marked at ${x}, ${y}, ${w} × ${h} px — Save region to keep it`);
      expect(await page.locator('main > .shot svg.regions rect.box.drawing').count()).toBe(1);
      expect(await stored(), 'saved before Save region').toEqual({ x: null, y: null, w: null, h: null });
      await page.keyboard.press('Enter');
      await page.waitForURL(/outcome=/);
      expect(await page.getByRole('status').filter({ hasText: `Saved where home.title is: at ${x}, ${y}, ${w} × ${h} px.` }).count()).toBe(1);
      expect(await page.getByRole('row', { name: /home\.title/ }).innerText()).toContain(`Outlined at ${x}, ${y}, ${w} × ${h} px`);
      expect(await stored()).toEqual({ x, y, w, h });
      const saved = await outlineInImagePixels(page, 'main > .shot', 390);
      near(saved.x, wide.x);
      near(saved.y, wide.y);
      near(saved.width, wide.width);
      near(saved.height, wide.height);

      // At a phone's width, the image shown smaller, dragged from bottom right to top left.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(shotUrl);
      await draw().click();
      const narrow = await dragOver([0.9, 0.8], [0.4, 0.5]);
      expect(narrow.shownWidth).toBeLessThan(390);
      const [nx, ny, nw, nh] = await fields();
      near(nx!, narrow.x, 1);
      near(ny!, narrow.y, 1);
      near(nw!, narrow.width, 1);
      near(nh!, narrow.height, 1);
      await where().getByRole('button', { name: 'Save region of home.title' }).click();
      await page.waitForURL(/outcome=/);
      expect(await stored()).toEqual({ x: nx, y: ny, w: nw, h: nh });
      const onPhone = await outlineInImagePixels(page, 'main > .shot', 390);
      near(onPhone.x, narrow.x, 4);
      near(onPhone.y, narrow.y, 4);
      near(onPhone.width, narrow.width, 4);
      near(onPhone.height, narrow.height, 4);
      // Typed numbers move the same preview box.
      await where().getByLabel(/^Width/).fill('10');
      expect(await page.locator('main > .shot rect.box.drawing').getAttribute('width')).toBe('10');
    } finally {
      await context.close();
    }
  });

  it('a double-clicked Upload uploads one screenshot', async () => {
    const { t, p, base } = portal;
    const count = async () => (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from screenshots where project_id = ${p.projectId}`)[0]!.n;
    const before = await count();
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}/screenshots`);
      await page.getByText('Upload a screenshot', { exact: true }).click();
      const form = page.getByRole('form', { name: 'Upload a screenshot' });
      await form.getByLabel(/^Image/).setInputFiles({ name: 'twice.png', mimeType: 'image/png', buffer: PNG });
      await form.getByRole('button', { name: 'Upload' }).dblclick();
      // Polled, not waitForURL: the second click's submission may abort the first's navigation, and
      // waitForURL then throws on the aborted one (net::ERR_ABORTED, seen once in CI) although the
      // page lands where it should.
      await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/\/screenshots\/[0-9a-f-]{36}\?outcome=/);
      await page.waitForLoadState();
      expect(await count()).toBe(before + 1);
    } finally {
      await context.close();
    }
  });

  it('at 375 px (a phone) the tab, a screenshot and the key page are no wider than the screen, the outline still on its pixels', async () => {
    const { t, p, base } = portal;
    const { id: keyId } = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `settings.${'very_long_key_name_'.repeat(4)}`, group_name: 'settings' }))) as { id: string };
    const { uploadScreenshot } = await import('../../core/screenshots/upload-screenshot.ts');
    const { updateScreenshot } = await import('../../core/screenshots/update-screenshot.ts');
    const actor = { type: 'api_key' as const, id: p.apiKeyId };
    const shot = await uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor, body: new Uint8Array(PNG), name: `A long screenshot name ${'without-any-break-'.repeat(5)}`, keyIds: [keyId] });
    await updateScreenshot(t.runtime.deps, { projectId: p.projectId, actor, screenshotId: shot.id, keys: { [keyId]: { region: { x: 195, y: 130, width: 150, height: 100 } } } });
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      const wider = async () => Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      await page.goto(`${base}/portal/projects/${p.projectId}/screenshots`);
      await page.getByText('Upload a screenshot', { exact: true }).click();
      expect(await wider(), 'the tab overflows').toBeLessThanOrEqual(0);
      await page.goto(`${base}/portal/projects/${p.projectId}/screenshots/${shot.id}`);
      expect(await wider(), "the screenshot's page overflows").toBeLessThanOrEqual(0);
      const drawn = await outlineInImagePixels(page, 'main > .shot', 390);
      expect(drawn.shownWidth).toBeLessThan(390);
      near(drawn.x, 195, 4);
      near(drawn.y, 130, 4);
      near(drawn.width, 150, 4);
      await page.goto(`${base}/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
      expect(await wider(), 'the key page overflows').toBeLessThanOrEqual(0);
      expect(await naturalWidth(page, `Screenshot: ${shot.name}`)).toBe(390);
    } finally {
      await context.close();
    }
  });
});
