// The API counts limits in code points (core/validation.ts); HTML maxlength counts UTF-16 code units.
// A value the API accepted (6,000 emoji: 6,000 characters, 12,000 UTF-16 units) was rendered into a
// textarea with maxlength=10000: the browser then refused to submit any edit of it ("Please shorten
// this text to 10000 characters"). Fields allow twice their limit in units (views/max-units.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';

const t = useTestApp();
let p: TestProject;
let alice: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  alice = await signedInMember(t, p.accountId, 'developer');
});

describe('portal form limits agree with the API limits', () => {
  it('the value field of a value the API accepted does not have a maxlength below its UTF-16 length', async () => {
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.emoji', group_name: 'home' });
    const keyId = ((await res.json()) as { id: string }).id;
    const value = '🎉'.repeat(6000);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value })).status).toBe(200);
    const html = (await alice.get(`/portal/projects/${p.projectId}?q=home.emoji&lang=de`)).text;
    const form = new RegExp(`<form method="post" action="/portal/projects/${p.projectId}/keys/${keyId}/values/de"[^]*?</form>`).exec(html)?.[0];
    expect(form).toBeDefined();
    const textarea = /<textarea[^>]*name="value"[^>]*>/.exec(form!)![0];
    const maxlength = Number(/maxlength="(\d+)"/.exec(textarea)?.[1] ?? Infinity);
    expect(form!).toContain(value);
    // A browser compares maxlength with value.length (UTF-16 code units).
    expect(maxlength).toBeGreaterThanOrEqual(value.length);
  });
});
