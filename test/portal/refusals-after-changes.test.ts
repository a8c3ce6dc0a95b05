// A form refused because of what others did since its page was loaded keeps what was typed: a value
// save after the key was deleted or the member's languages changed (the text at the top of the
// editor, to copy), a 412 on a key the page's filters no longer list (the stored text and a link to
// the key beside the typed one), a bulk action over a key deleted meanwhile (the editor, the
// selection kept, the key named). Never a bare error page that loses the work.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

async function newKey(key: string, values: Record<string, { value: string; status?: string }> = {}): Promise<string> {
  const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key });
  const keyId = ((await created.json()) as { id: string }).id;
  for (const [lang, body] of Object.entries(values)) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${lang}`, body)).status).toBe(200);
  return keyId;
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
});

describe('refusals keep the typed text', () => {
  it('412 on a page filtered by status, the key no longer matching the filter', async () => {
    const dev = await signedInMember(t, p.accountId, 'developer');
    const keyId = await newKey(unique('flt'), { de: { value: 'Entwurf' } });
    const editor = `/portal/projects/${p.projectId}?lang=de&status=draft`;
    const page = await dev.get(editor);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fields = formFields(page.text, action);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Freigegeben', status: 'approved' })).status).toBe(200);
    const res = await dev.post(action, { ...fields, value: 'Mein Text', status: 'draft' });
    expect(res.status).toBe(412);
    const html = decode(res.text);
    expect(html).toContain('Mein Text');
    // The stored text (which the message says is shown), and the key on a page of its own to save again.
    expect(html).toMatch(/Stored now:\s*<q[^>]*>Freigegeben<\/q> \(approved\)/);
    const name = /Open (\S+) to save again/.exec(html)![1]!;
    const link = new RegExp(`href="([^"]*)">Open ${name.replace(/\./g, '\\.')} to save again`).exec(html)![1]!;
    const keyPage = await dev.get(link);
    expect(keyPage.status).toBe(200);
    expect(keyPage.text).toContain(`action="${action}"`);
  });

  it("403 for a translator whose languages were changed while the page was open", async () => {
    const tr = await signedInMember(t, p.accountId, 'translator', { languages: ['de', 'fr'] });
    const keyId = await newKey(unique('lim'), { fr: { value: 'Vieux' } });
    const page = await tr.get(`/portal/projects/${p.projectId}?lang=fr`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/fr`;
    const fields = formFields(page.text, action);
    await t.runtime.deps.sql`update memberships set languages = ${['de']} where account_id = ${p.accountId} and role = 'translator'`;
    const res = await tr.post(action, { ...fields, value: 'Vingt minutes de travail' });
    expect(res.status).toBe(403);
    expect(decode(res.text)).toContain('Vingt minutes de travail');
    expect(decode(res.text)).toContain('Your membership does not include fr');
  });

  it('404 for a save after the key was deleted: the typed text kept to copy, and where the key went', async () => {
    const dev = await signedInMember(t, p.accountId, 'developer');
    const keyId = await newKey(unique('gone'), { de: { value: 'Alt' } });
    const page = await dev.get(`/portal/projects/${p.projectId}?lang=de`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fields = formFields(page.text, action);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const res = await dev.post(action, { ...fields, value: 'Zwanzig Minuten Arbeit' });
    expect(res.status).toBe(404);
    const html = decode(res.text);
    expect(html).toContain('Zwanzig Minuten Arbeit');
    expect(html).toContain('this key was deleted since the page was loaded (the Trash can restore it)');
    const [row] = await t.runtime.deps.sql<{ value: string }[]>`select value from translations where key_id = ${keyId} and language = 'de'`;
    expect(row!.value).toBe('Alt');
  });

  it('a bulk action over a key deleted meanwhile: the editor again, the key named, the others still selected, nothing changed', async () => {
    const reviewer = await signedInMember(t, p.accountId, 'reviewer');
    const stay = await newKey(unique('sel.stay'), { de: { value: 'Bleibt' } });
    const goneName = unique('sel.gone');
    const gone = await newKey(goneName, { de: { value: 'Weg' } });
    const page = await reviewer.get(`/portal/projects/${p.projectId}?lang=de&q=sel.`);
    // The bulk form: its own inputs, the shown-value inputs tied to it, and the two keys' boxes.
    const inner = /<form[^>]*id="bulk"[^>]*>([^]*?)<\/form>/.exec(page.text)![1]!;
    const fields: Record<string, string[]> = {};
    for (const tag of [...inner.matchAll(/<input[^>]*>/g), ...page.text.matchAll(/<input[^>]*form="bulk"[^>]*>/g)].map((m) => m[0])) {
      const name = /name="([^"]+)"/.exec(tag)?.[1];
      const value = decode(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
      if (!name || (/type="checkbox"/.test(tag) && ![stay, gone].includes(value))) continue;
      (fields[name] ??= []).push(value);
    }
    fields.action = ['approved'];
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${gone}`)).status).toBe(204);
    const res = await reviewer.post(`/portal/projects/${p.projectId}/bulk`, fields);
    expect(res.status).toBe(412);
    const html = decode(res.text);
    expect(html).toContain(`the selected key ${goneName} was deleted since this page was loaded`);
    expect(html).toMatch(new RegExp(`value="${stay}"[^>]*checked`));
    expect((await (await t.call(p.apiKey, 'GET', `/v1/keys/${stay}/translations/de`)).json()).status).toBe('draft');
  });
});
