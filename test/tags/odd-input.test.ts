// Odd tag input (lone surrogates, NUL, U+2028, arrays for strings, a parameter twice) in the API, the portal and exports: a 4xx or an empty match, never a 5xx.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from '../portal/support/portal-client.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;
let keyId: string;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a.b', tags: ['mobile'] });
  keyId = ((await res.json()) as { id: string }).id;
});

describe('odd tags', () => {
  it('API listing, export, import, bulk: no 5xx', async () => {
    const statuses: Record<string, number> = {};
    for (const q of ['%00', 'x'.repeat(1001), '%ED%A0%80', '%E2%80%A8', '%20%20']) {
      statuses[`list ${q.slice(0, 12)}`] = (await t.call(p.apiKey, 'GET', `/v1/keys?tag=${q}`)).status;
      statuses[`export ${q.slice(0, 12)}`] = (await t.call(p.apiKey, 'GET', `/v1/export/de?format=json&tag=${q}`)).status;
    }
    for (const body of [
      { key_ids: [keyId], add: ['\uD800'] },
      { key_ids: [keyId], remove: ['\u0000'] },
      { filter: { tag: '\uD800' }, add: ['x'] },
      { filter: { tag: ['a'] }, add: ['x'] },
      { key_ids: [keyId], add: 'x' },
      { key_ids: [keyId], add: [['x']] },
      { filter: { tag: '\u0000' }, add: ['x'] },
    ]) statuses[`bulk ${JSON.stringify(body)}`] = (await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', body)).status;
    for (const tags of [['\uD800'], ['a\u0000'], [{}], [null]]) statuses[`create ${JSON.stringify(tags)}`] = (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${Math.random()}`, tags })).status;
    statuses['patch null'] = (await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { tags: null })).status;
    const five = Object.entries(statuses).filter(([, s]) => s >= 500);
    expect(five).toEqual([]);
  });

  it('portal editor with an odd ?tag= shows a page, not a 5xx', async () => {
    const statuses: Record<string, number> = {};
    for (const q of ['%00', 'x'.repeat(1001), '%ED%A0%80', '%20', 'a&tag=b']) {
      statuses[q.slice(0, 12)] = (await dev.get(`/portal/projects/${p.projectId}?lang=de&tag=${q}`)).status;
      statuses[`problems ${q.slice(0, 12)}`] = (await dev.get(`/portal/projects/${p.projectId}?lang=de&problems=de&tag=${q}`)).status;
    }
    expect(Object.entries(statuses).filter(([, s]) => s >= 500)).toEqual([]);
    console.log(statuses);
  });

  it('portal bulk and key form with odd tags: no 5xx', async () => {
    const statuses: Record<string, number> = {};
    for (const tag of ['\u0000', 'a\u2028', 'x'.repeat(5000)]) {
      statuses[`bulk ${JSON.stringify(tag).slice(0, 12)}`] = (await dev.post(`/portal/projects/${p.projectId}/bulk`, { action: 'tag-add', key: [keyId], tag })).status;
      statuses[`form ${JSON.stringify(tag).slice(0, 12)}`] = (await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { group_name: 'Default', tags: tag, tags_was: 'mobile' })).status;
    }
    statuses['bulk two tags'] = (await dev.post(`/portal/projects/${p.projectId}/bulk`, { action: 'tag-add', key: [keyId], tag: ['x', 'y'] })).status;
    statuses['bulk bad key id'] = (await dev.post(`/portal/projects/${p.projectId}/bulk`, { action: 'tag-add', key: ['nope'], tag: 'x' })).status;
    console.log(statuses);
    expect(Object.entries(statuses).filter(([, s]) => s >= 500)).toEqual([]);
  });
});
