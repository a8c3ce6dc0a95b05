// Portal writers at the same moment (in parallel, not one after another): one save and one 412, a bulk approval that approves only what its reviewer saw, an import's conflict modes against open forms (from a review, 2026-11-30).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { bulkFields, decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let a: PortalClient;
let b: PortalClient;
let reviewer: PortalClient;
let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

const stored = async (keyId: string) =>
  (await t.runtime.deps.sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`)[0];

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  a = await signedInMember(t, p.accountId, 'translator');
  b = await signedInMember(t, p.accountId, 'translator');
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
});

describe('at the same moment', () => {
  it('two translators save the same value from pages showing the same version: one saved, one told', async () => {
    for (const existing of [true, false]) {
      const name = unique('par');
      const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
      if (existing) await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Alt' });
      const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
      const q = `/portal/projects/${p.projectId}?lang=de&q=${encodeURIComponent(name)}`;
      const [fa, fb] = [formFields((await a.get(q)).text, action), formFields((await b.get(q)).text, action)];
      const [ra, rb] = await Promise.all([a.post(action, { ...fa, value: 'Von A' }), b.post(action, { ...fb, value: 'Von B' }, { Accept: 'application/json' })]);
      const winners = [ra.status === 303, rb.status === 200].filter(Boolean).length;
      expect(winners, `${ra.status} ${rb.status}`).toBe(1);
    }
  });

  it('a bulk approval racing a translator save approves only the text the reviewer saw', async () => {
    for (let i = 0; i < 5; i++) {
      const name = unique('race');
      const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
      await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Gesehen' });
      const q = `/portal/projects/${p.projectId}?lang=de&q=${encodeURIComponent(name)}`;
      const bulk = bulkFields((await reviewer.get(q)).text, [keyId], 'approved');
      const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
      const fa = formFields((await a.get(q)).text, action);
      await Promise.all([reviewer.post(`/portal/projects/${p.projectId}/bulk`, bulk), a.post(action, { ...fa, value: 'Ungesehen' })]);
      const now = await stored(keyId);
      expect(now!.status === 'approved' ? now!.value : 'Gesehen').toBe('Gesehen');
    }
  });
});

describe('CI push (POST /v1/import, as tms push sends it) and a translator', () => {
  it("keep leaves the translator's newer draft and does not re-approve a value a reviewer sent back; the translator's open form is told after an overwrite", async () => {
    const name = unique('push');
    const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Repo-Text', status: 'review' });
    const keep = await t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=approved&conflict=keep', JSON.stringify({ [name]: 'Repo-Text' }));
    expect(keep.status).toBe(200);
    expect(await stored(keyId)).toEqual({ value: 'Repo-Text', status: 'review' });

    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fa = formFields((await a.get(`/portal/projects/${p.projectId}?lang=de&q=${encodeURIComponent(name)}`)).text, action);
    const over = await t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=draft&conflict=overwrite', JSON.stringify({ [name]: 'Aus CI' }));
    expect(over.status).toBe(200);
    const res = await a.post(action, { ...fa, value: 'Vom Übersetzer' });
    expect(res.status).toBe(412);
    expect(decode(res.text)).toContain('Aus CI');
    expect(await stored(keyId)).toEqual({ value: 'Aus CI', status: 'draft' });
  });
});
