// A machine translation moves the memoized live bodies of its language.
import { describe, expect, it } from 'vitest';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';

let t: StartedApp;
withDeeplTestApp((app) => {
  t = app;
});

describe('machine translation and live reads', () => {
  it('a memoized live body of the language shows the machine translation once it is answered', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const ids: string[] = [];
    for (const name of ['a.one', 'a.two']) {
      const k = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'a' })).json();
      ids.push(k.id);
    }
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[0]}/translations/en`, { value: 'Save changes', status: 'approved' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[1]}/translations/en`, { value: 'Open file', status: 'approved' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[1]}/translations/de`, { value: 'Datei öffnen', status: 'draft' })).status).toBe(200);
    const before = await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all');
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;
    const manifestBefore = await (await t.call(p.apiKey, 'GET', '/v1/manifest')).text();
    const res = await t.call(p.apiKey, 'POST', '/v1/translate/de', {});
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all', undefined, { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    const translations = (await after.json()).translations;
    expect(Object.keys(translations).sort()).toEqual(['a.one', 'a.two']);
    expect(await (await t.call(p.apiKey, 'GET', '/v1/manifest')).text()).toBe(manifestBefore);
  });
});
