// Editor value forms without script: a save refused because of what someone else did meanwhile
// keeps the text the translator typed (docs/decisions.md: "A refused value save without script
// renders the editor again with the typed text kept"). A value changed meanwhile (412) and an
// invalid one (422) are in editor-actions.test.ts; here, a value a reviewer approved meanwhile,
// which a translator may no longer change (403).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let translator: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  translator = await signedInMember(t, p.accountId, 'translator');
});

describe("a translator's save of a value approved meanwhile, without script", () => {
  it('is refused, and the page that says so still holds the typed text', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'onboarding.intro' });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Willkommen' })).status).toBe(200);

    const editor = `/portal/projects/${p.projectId}?q=onboarding.intro&lang=de`;
    const page = await translator.get(editor);
    const form = new RegExp(`<form method="post" action="/portal/projects/${p.projectId}/keys/${keyId}/values/de"[^]*?</form>`).exec(page.text)![0];
    const version = /name="version" value="(\d+)"/.exec(form)![1]!;
    expect(form).not.toContain('readonly');

    // A reviewer approves the value while the translator writes a long text.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Willkommen', status: 'approved' })).status).toBe(200);
    const typed = 'Willkommen bei der App: hier richten Sie in drei Schritten Ihr Konto ein';
    const res = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: typed, status: 'review', version, return_to: editor });

    // Refused (the approved value stays), and the translator's text is still on the page.
    expect(res.status).toBeGreaterThanOrEqual(400);
    const [row] = await t.runtime.deps.sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`;
    expect(row).toEqual({ value: 'Willkommen', status: 'approved' });
    expect(res.status).toBe(403);
    expect(res.text).toContain(typed);
    // The editor, not an error page: the refusal at the value, and the approved text beside it.
    expect(res.text).toContain('this value was approved since the page was loaded');
    expect(res.text).toMatch(/Stored now: <q[^>]*>Willkommen<\/q> \(approved\)/);
    // Focus on the refused field (its label and the refusal are read out), not the top of the page.
    expect(res.text).toMatch(new RegExp(`<textarea id="v-${keyId}-de"[^>]*aria-invalid="true"[^>]*autofocus`));
  });

  it('a save that passes goes back to the value saved (its field), not the top of the page', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'onboarding.next' });
    const keyId = ((await created.json()) as { id: string }).id;
    const editor = `/portal/projects/${p.projectId}?q=onboarding&lang=de`;
    // A value not there yet says so in words, not only by a colour.
    expect((await translator.get(editor)).text).toMatch(new RegExp(`<textarea id="v-${keyId}-de"[^>]*placeholder="No value yet"`));
    const res = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: 'Weiter', status: 'draft', version: 'none', return_to: editor });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${editor}#v-${keyId}-de`);
    const after = (await translator.get(res.location!)).text;
    expect(after).toContain(`id="v-${keyId}-de"`);
    expect(after).not.toMatch(new RegExp(`<textarea id="v-${keyId}-de"[^>]*placeholder`));
  });
});

describe("a translator's save of a value approved meanwhile, with script (the editor's fetch)", () => {
  it('is a 403 whose answer carries the approved value, for the script to show beside the typed text', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'onboarding.outro' });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Tschüss', status: 'approved' })).status).toBe(200);
    const res = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: 'Auf Wiedersehen', status: 'review', version: '1' }, { Accept: 'application/json' });
    expect(res.status).toBe(403);
    const body = JSON.parse(res.text) as { detail: string; current: { value: string; status: string; version: number } | null };
    expect(body.detail).toContain('this value was approved since the page was loaded');
    expect(body.current).toMatchObject({ value: 'Tschüss', status: 'approved' });
  });
});
