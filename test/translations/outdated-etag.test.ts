// GET /v1/keys/{key_id}/translations/{language} answers `outdated`, which changes without the
// value's version (a source rewritten, a value marked up to date): its ETag carries it ("42-outdated"),
// so a conditional GET is not a 304 when only `outdated` changed (a strong ETag changes with the
// representation, RFC 9110 8.8.3), and it still names version 42 as a write's If-Match.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

describe('the ETag of a value read with outdated', () => {
  it('a source change after the read is not a 304: the client learns the value is outdated', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome');
    await p.put(keyId, 'de', 'Willkommen');
    const url = `/v1/keys/${keyId}/translations/de`;
    const first = await p.get(url);
    expect((await body(first)).outdated).toBe(false);
    const etag = first.headers.get('etag')!;

    await p.put(keyId, 'en', 'Welcome back');
    const again = await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': etag });
    expect(again.status).toBe(200);
    expect((await body(again)).outdated).toBe(true);
  });

  it('Mark up to date is not a 304 either: the client learns the value is no longer outdated', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome');
    await p.put(keyId, 'de', 'Willkommen');
    await p.put(keyId, 'en', 'Welcome!');
    const url = `/v1/keys/${keyId}/translations/de`;
    const first = await p.get(url);
    expect((await body(first)).outdated).toBe(true);
    expect((await t.call(p.apiKey, 'POST', `${url}/up-to-date`)).status).toBe(200);
    const again = await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': first.headers.get('etag')! });
    expect(again.status).toBe(200);
    expect((await body(again)).outdated).toBe(false);
  });
});
