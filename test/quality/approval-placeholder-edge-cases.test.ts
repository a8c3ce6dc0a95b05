// The approval gate with quality_blocking: ["placeholders"] on a plain percent sign (approved) and
// a placeholder dropped from a plural branch other than `other` (refused).
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  await json(await t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: ['placeholders'] }));
  return p;
}

async function key(p: TestProject, name: string, source: string): Promise<string> {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: source, status: 'approved' }));
  return k.id;
}

describe('approval with quality_blocking: ["placeholders"]', () => {
  it('a correct "50 % Rabatt" for "50% off" is approved', async () => {
    const p = await project();
    const k = await key(p, 'promo', '50% off');
    const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: '50 % Rabatt', status: 'approved' });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a plural whose `one` branch lost {who} is refused (422)', async () => {
    const p = await project();
    const k = await key(p, 'invites', '{n, plural, one {{who} has # file} other {{who} has # files}}');
    const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: '{n, plural, one {hat # Datei} other {{who} hat # Dateien}}', status: 'approved' });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].msg).toContain('Missing placeholder {who} in the one branch of {n}');
  });
});
