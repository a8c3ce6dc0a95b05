// The shared auth cases of section 5, against every /v1 route.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { V1_ROUTES } from '../support/v1-routes.ts';

const t = useTestApp();

async function expectInvalidKey(res: Response) {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ detail: 'Invalid API key' });
}

describe.each(V1_ROUTES)('$method $path', (route) => {
  let p: TestProject;
  let other: TestProject;
  let revokedKey: string;
  it('setup', async () => {
    p = await t.newProject('team');
    other = await t.newProject('team');
    const extra = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json();
    revokedKey = extra.key;
    expect((await t.admin('DELETE', `/api-keys/${extra.id}`)).status).toBe(204);
  });

  it('401 without a key', async () => {
    await expectInvalidKey(await t.call(undefined, route.method, route.path, route.body));
  });
  it('401 for malformed keys, including inner and non-HTTP whitespace', async () => {
    for (const bad of ['nope', 'key_live_short', 'key_test_' + 'a'.repeat(40), p.apiKey.slice(0, 20) + ' ' + p.apiKey.slice(20), p.apiKey + '\u00a0', '\u00a0' + p.apiKey, p.apiKey + '!', 'key_live_' + 'a'.repeat(200)]) {
      await expectInvalidKey(await t.call(bad, route.method, route.path, route.body));
    }
  });
  it('401 for an unknown well-formed key', async () => {
    await expectInvalidKey(await t.call('key_live_' + 'Z'.repeat(40), route.method, route.path, route.body));
  });
  it('401 for a revoked key', async () => {
    await expectInvalidKey(await t.call(revokedKey, route.method, route.path, route.body));
  });
  it('403 when X-Project-Id names another project', async () => {
    const res = await t.call(p.apiKey, route.method, route.path, route.body, { 'X-Project-Id': other.projectId });
    expect(res.status).toBe(403);
    expect(typeof (await res.json()).detail).toBe('string');
  });
  it('not 401/403 with a valid key and its own X-Project-Id', async () => {
    const res = await t.call(p.apiKey, route.method, route.path, route.body, { 'X-Project-Id': p.projectId });
    expect([401, 403]).not.toContain(res.status);
    // Cached routes answer 503 until the project's first build (section 4.7); nothing else may 5xx.
    if (route.path.startsWith('/v1/cached/')) expect([200, 404, 503]).toContain(res.status);
    else expect(res.status).toBeLessThan(500);
  });
});

describe('malformed keys never reach the database', () => {
  it('answers 401 for a malformed key even with the database gone', async () => {
    const { startTestApp } = await import('../support/test-app.ts');
    const app = await startTestApp();
    await app.runtime.deps.sql.end();
    const res = await app.call('key_live_bad key', 'GET', '/v1/keys');
    expect(res.status).toBe(401);
    await app.close();
  });
});
