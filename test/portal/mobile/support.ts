// Shared setup of the phone and tablet tests: the portal served and signed in (test/portal/accessibility/
// support.ts), a project seeded with long key names, long values and an unbroken URL, and browser
// contexts at phone and tablet sizes. Measurements run inside the page.
import { HAVE_BROWSER, json, usePortal, type BrowserContext, type Page, type Portal } from '../accessibility/support.ts';
import { createSession } from '../../../core/users/sessions.ts';

export { HAVE_BROWSER, json };
export type { Page, Portal };

export const PHONE = { width: 360, height: 740 };
export const TABLET = { width: 768, height: 1024 };
export const NARROW = { width: 320, height: 640 };

export const LONG_KEY = 'checkout.payment.confirmation_dialog.terms_and_conditions_acceptance_label';
export const LONG_URL = 'https://help.example.com/support/articles/360000123456-how-to-change-your-payment-method-and-billing-address?utm_source=app';
export const LONG_WORD = 'Rechtsschutzversicherungsgesellschaftenvertragsbedingungen';

export type Seeded = Portal & { keyId: string; mobile(size: { width: number; height: number }, touch?: boolean): Promise<BrowserContext> };

/** The project (languages en, de, fr, ar), an owner signed in, 60 keys (so a pager), one long key. */
export function useSeededPortal(): Seeded {
  const portal = usePortal(['en', 'de', 'fr', 'ar'], 'owner') as Seeded;
  return portal;
}

export async function seed(portal: Seeded) {
  const { t, p } = portal;
  const en: Record<string, string> = {};
  for (let i = 0; i < 60; i++) en[`screen.item_${String(i).padStart(2, '0')}`] = `Item ${i}`;
  en[LONG_KEY] = `I accept the terms, see ${LONG_URL}`;
  await json(await t.call(p.apiKey, 'POST', '/v1/import/en?status=approved', en));
  await json(await t.call(p.apiKey, 'POST', '/v1/import/de?status=draft', { [LONG_KEY]: `Ich akzeptiere die ${LONG_WORD}, siehe ${LONG_URL}`, 'screen.item_00': 'Eintrag 0' }));
  const found = (await json(await t.call(p.apiKey, 'GET', `/v1/keys?search=${encodeURIComponent(LONG_KEY)}`))) as { keys: { id: string; key: string }[] };
  portal.keyId = found.keys.find((k) => k.key === LONG_KEY)!.id;
  for (const v of ['Zweite Fassung', `Dritte ${LONG_WORD} ${LONG_URL}`]) await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${portal.keyId}/translations/de`, { value: v, status: 'draft' }));
  portal.mobile = async (size, touch = true) => {
    const context = await portal.browser.newContext({ viewport: size, ...(touch ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
    context.setDefaultTimeout(15_000);
    const session = await createSession(t.runtime.deps, portal.userId);
    await context.addCookies([{ name: 'tms_session', value: session.token, url: portal.base }]);
    return context;
  };
}

/** Runs in the page: the page's own sideways scroll, and the elements sticking out past the right edge. */
export async function overflow(page: Page, width?: number) {
  return page.evaluate((width) => {
    const d = (globalThis as any).document;
    const w = (globalThis as any).window;
    const out: string[] = [];
    for (const e of d.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.right <= (width ?? w.innerWidth) + 0.5) continue;
      // Inside a deliberately scrollable container: fine.
      let inScroll = false;
      for (let a = e.parentElement; a && a !== d.body; a = a.parentElement) if (['auto', 'scroll'].includes(w.getComputedStyle(a).overflowX)) inScroll = true;
      if (inScroll) continue;
      out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().replace(/\s+/g, '.') : ''} right=${Math.round(r.right)}`);
    }
    return { scrollWidth: d.documentElement.scrollWidth, innerWidth: w.innerWidth, out };
  }, width);
}

/**
 * Runs in the page: the visible buttons, links, selects, checkboxes and summaries under 24x24 CSS px
 * that also fail WCAG 2.5.8's spacing exception (a 24 px circle centred on each undersized target
 * meets another target or another undersized target's circle). Links inline in a sentence (inside a
 * p or li with other text) are exempt.
 */
export async function smallTargets(page: Page, within = 'body') {
  return page.evaluate((within) => {
    const d = (globalThis as any).document;
    const w = (globalThis as any).window;
    const all = [...d.querySelector(within).querySelectorAll('a[href],button,select,input:not([type=hidden]),summary,textarea')].filter((e: any) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) return false;
      if (e.closest('.skip') || e.closest('.sr-only')) return false;
      if (e.tagName === 'A') {
        const block = e.closest('p,li,td,span.hint');
        if (block && block.textContent.trim() !== e.textContent.trim() && e.parentElement.tagName === 'P') return false;
      }
      return true;
    });
    const boxes = all.map((e: any) => {
      const r = e.getBoundingClientRect();
      return { e, r, small: r.width < 24 || r.height < 24, cx: r.left + r.width / 2, cy: r.top + r.height / 2 };
    });
    const distToRect = (x: number, y: number, r: any) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
    const fail: string[] = [];
    for (const a of boxes) {
      if (!a.small) continue;
      const clash = boxes.some((b: any) => b !== a && (distToRect(a.cx, a.cy, b.r) < 12 || (b.small && Math.hypot(a.cx - b.cx, a.cy - b.cy) < 24)));
      if (clash) {
        const label = a.e.getAttribute('aria-label') || a.e.textContent.trim().slice(0, 30) || a.e.name || a.e.type;
        fail.push(`${a.e.tagName.toLowerCase()}${a.e.type ? '[' + a.e.type + ']' : ''} "${label}" ${Math.round(a.r.width * 10) / 10}x${Math.round(a.r.height * 10) / 10}`);
      }
    }
    return fail;
  }, within);
}

/** Runs in the page: fields whose font is under 16px (iOS zooms in on focus), and text under 12px. */
export async function smallText(page: Page) {
  return page.evaluate(() => {
    const d = (globalThis as any).document;
    const w = (globalThis as any).window;
    const inputs: string[] = [];
    for (const e of d.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]),select,textarea')) {
      const s = parseFloat(w.getComputedStyle(e).fontSize);
      if (s < 16 && e.checkVisibility()) inputs.push(`${e.tagName.toLowerCase()}[name=${e.name}] ${s}px`);
    }
    const text: string[] = [];
    const walker = d.createTreeWalker(d.body, 4);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const e = n.parentElement;
      if (e.closest('.sr-only') || e.getBoundingClientRect().width === 0) continue;
      const s = parseFloat(w.getComputedStyle(e).fontSize);
      if (s < 12) text.push(`${e.tagName.toLowerCase()}.${e.className} "${n.textContent.trim().slice(0, 20)}" ${s}px`);
    }
    return { inputs, text };
  });
}
