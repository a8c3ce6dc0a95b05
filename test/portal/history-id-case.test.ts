// A key id in the address is an id whatever its case (the value routes and the API read 5D78… as
// 5d78…): History lists the same writes for it in capitals, and its Revert takes it, though the
// events name the value by its id in lower case.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
});

const reverts = (html: string) => [...html.matchAll(/name="event_id" value="(\d+)"/g)].map((m) => m[1]);

describe('History with the key id in capitals', () => {
  it('lists the same writes as with the id in lower case, and its Revert works', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.cta' });
    const keyId = ((await created.json()) as { id: string }).id;
    for (const value of ['Los', 'Weiter', 'Jetzt starten']) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value })).status).toBe(200);

    const lower = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    expect(reverts(lower.text)).toHaveLength(2);
    const upper = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId.toUpperCase()}/values/de/history`);
    expect(upper.status).toBe(200);
    expect(upper.text).not.toContain('written without a recorded change');
    expect(reverts(upper.text)).toEqual(reverts(lower.text));

    // The History page's own Revert form (its action carries the id as the address had it).
    const action = /<form method="post" action="([^"]*\/revert)"/.exec(upper.text)?.[1];
    expect(action).toBeDefined();
    const version = /name="version" value="(\d+)"/.exec(upper.text)?.[1];
    const [stored] = await t.runtime.deps.sql<{ version: string }[]>`select version::text from translations where key_id = ${keyId} and language = 'de'`;
    expect(version).toBe(stored!.version);
    const res = await dev.post(action!, { event_id: reverts(lower.text)[1]!, version: version! });
    expect(res.status).toBe(303);
    const [row] = await t.runtime.deps.sql<{ value: string }[]>`select value from translations where key_id = ${keyId} and language = 'de'`;
    expect(row!.value).toBe('Los');
  });
});
