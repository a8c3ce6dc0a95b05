// The Files page's export form downloads a pseudo-language's file (docs/portal.md, "Import and
// export"; core/files/pseudo-localize.ts): as a signed-in developer, through HTTP. A blank field is
// no pseudo-language; a code of the project or no code at all is a 4xx, never a 5xx.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';

const t = useTestApp();
const exportForm = (html: string) => /<form method="get" action="[^"]*\/export"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;

describe('the export form: a pseudo-language', () => {
  it('downloads the file of a pseudo-language made from the chosen language', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const key = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'save', group_name: 'home' });
    const id = ((await key.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Save {name}', status: 'approved' })).status).toBe(200);
    const dev = await signedInMember(t, p.accountId, 'developer');

    const page = await dev.get(`/portal/projects/${p.projectId}/files`);
    expect(exportForm(page.text)).toContain('<input name="pseudo" placeholder="en-XA"');
    const download = (pseudo: string) => t.app.request(`http://localhost/portal/projects/${p.projectId}/export?language=en&format=json&status=approved&source=&pseudo=${pseudo}`, { headers: { Cookie: [...dev.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });

    const res = await download('en-xa');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="en-XA.json"');
    expect(await res.json()).toEqual({ save: '[Šåṽé {name} one]' });
    // Blank (the form sent as it comes): the language's own values.
    const plain = await download('%20');
    expect(plain.headers.get('content-disposition')).toBe('attachment; filename="en.json"');
    expect(await plain.json()).toEqual({ save: 'Save {name}' });
    for (const bad of ['de', 'EN', 'not-a-code!', 'x'.repeat(300)]) {
      const refused = await download(encodeURIComponent(bad));
      expect(refused.status, bad).toBeGreaterThanOrEqual(400);
      expect(refused.status, bad).toBeLessThan(500);
    }
  });
});
