// Tasks in a real browser (Chromium, the portal's script): a task made from keys selected in the
// editor through the New task form, first refused at Assignees (a translator for a review task:
// described by the message, what was chosen kept), then created; its page with its progress bar
// named for it; Cancel asks first; axe-core on the form (refused), the task's page and the tab: no
// serious or critical violation; at a phone's width the tab and the task's page are no wider than
// the screen. Skipped, with one line, without Chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER, CHROMIUM, json, usePortal, type Page } from './accessibility/support.ts';

if (!HAVE_BROWSER) console.log(`tasks browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const portal = usePortal(['en', 'de']);

async function seriousViolations(page: Page) {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  })) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.skipIf(!HAVE_BROWSER)('tasks in Chromium', () => {
  it('makes a task of keys selected in the editor, refused at Assignees first; its page and the tab have no serious axe violation', async () => {
    const { t, p, base } = portal;
    for (const key of ['home.title', 'home.body', 'menu.open']) await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key }));
    const translatorEmail = `translator-${Date.now()}@example.com`;
    const [tr] = await t.runtime.deps.sql<{ id: string }[]>`insert into users (email, password_hash) values (${translatorEmail}, 'x') returning id`;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${tr!.id}, ${p.accountId}, 'translator')`;
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/portal/projects/${p.projectId}?lang=en&lang=de`);
      await page.getByLabel('Select home.title').check();
      await page.getByLabel('Select menu.open').check();
      await page.getByLabel('With the selected keys').selectOption('task');
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await page.waitForURL(/\/tasks\/new\?/);
      const form = page.getByRole('form', { name: 'New task' });
      expect(await form.getByText('The 2 keys selected in the editor').count()).toBe(1);
      await form.getByLabel('Name').fill('Review the home');
      await form.getByRole('radio', { name: /^Review/ }).check();
      await form.getByLabel(translatorEmail).check();
      await form.getByRole('button', { name: 'Create task' }).click();
      await page.waitForLoadState();
      // Refused at Assignees: the group described by the message, what was chosen kept.
      const group = page.getByRole('group', { name: /Assignees/ });
      const describedBy = (await group.getAttribute('aria-describedby'))!;
      expect(await page.locator(`#${describedBy}`).innerText()).toContain(`${translatorEmail} (translator) may not approve values in de`);
      expect(await page.getByRole('form', { name: 'New task' }).getByLabel('Name').inputValue()).toBe('Review the home');
      expect(await page.getByRole('form', { name: 'New task' }).getByLabel(translatorEmail).isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('form', { name: 'New task' }).getByLabel(translatorEmail).uncheck();
      await page.getByRole('form', { name: 'New task' }).getByLabel('Due day').fill('2001-01-01');
      await page.getByRole('button', { name: 'Create task' }).click();
      await page.waitForURL(/\/tasks\/1\?outcome=/);
      expect(await page.getByRole('status').filter({ hasText: 'Created the task #1 Review the home with 2 keys.' }).count()).toBe(1);
      const progress = page.getByRole('progressbar', { name: 'Progress of #1 Review the home' });
      expect(await progress.getAttribute('max')).toBe('2');
      expect(await page.getByText('overdue').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      // Cancel asks first: dismissed, nothing happens.
      page.once('dialog', (d) => void d.dismiss());
      await page.getByRole('button', { name: 'Cancel task' }).click();
      expect(page.url()).toMatch(/outcome=/);
      expect(((await json(await t.call(p.apiKey, 'GET', '/v1/tasks/1'))) as { state: string }).state).toBe('open');

      await page.getByRole('link', { name: 'Tasks', exact: true }).first().click();
      await page.waitForURL(/\/tasks$/);
      expect(await page.getByRole('link', { name: '#1 Review the home' }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('at 375 px (a phone) the tab, a task\'s page and the New task form are no wider than the screen', async () => {
    const { t, p, base } = portal;
    const key = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: `long.${'segment-'.repeat(12)}` }))) as { id: string };
    await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: `A long name ${'without-any-break-'.repeat(6)}`, kind: 'translate', language: 'de', key_ids: [key.id] }));
    const context = await portal.signedIn();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      for (const path of ['tasks', 'tasks/2', 'tasks/new']) {
        await page.goto(`${base}/portal/projects/${p.projectId}/${path}`);
        const by = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
        if (by > 0) console.log(path, await page.evaluate(`[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().width)).slice(0, 15).join('\\n')`));
        expect(by, `${path} is ${by} px wider than the phone`).toBeLessThanOrEqual(0);
      }
    } finally {
      await context.close();
    }
  });
});
