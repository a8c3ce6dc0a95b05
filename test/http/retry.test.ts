// What a retry does after a lost answer (docs/operations.md, "Retrying writes"): every write sent
// twice, as a client does that never saw the first answer, and the second answer as the table says.
// The two cases are the same to the server: the first request committed. The table lists every write
// in the route table (a new write fails here until it has a row).
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { useTestApp } from '../support/test-app.ts';
import { routeCases } from '../support/route-table.ts';
import { webhookFixture } from '../support/webhook-receiver.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { readFileSync } from 'node:fs';

// Webhook endpoints on loopback are allowed, so that the fixture's endpoint sends nothing off this machine.
const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });
const ADMIN = { Authorization: 'Bearer test-admin-token-0123456789' };
const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)));
const uploadPng = async (apiKey: string, path: string) => t.app.request(path, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'image/png' }, body: PNG });

type Outcome = { first: number; retry: number; same?: boolean };
/** Each write, by route id: the first answer, the retried one, and whether the retry's body is the first's. */
const TABLE: Record<string, Outcome> = {
  'POST /v1/keys': { first: 201, retry: 409 },
  'PATCH /v1/keys/:key_id': { first: 200, retry: 200, same: true },
  'DELETE /v1/keys/:key_id': { first: 204, retry: 404 },
  // Over a filter: the retry finds nothing left to do (over key_ids, a bulk delete's retry is a 404).
  'POST /v1/keys/bulk-delete': { first: 200, retry: 200 },
  'POST /v1/keys/bulk-status': { first: 200, retry: 200 },
  // The retry finds the tags already there: nothing changes, changed 0.
  'POST /v1/keys/bulk-tags': { first: 200, retry: 200 },
  // The old name is gone after the first: the retry finds no key with it (as a group's rename).
  'PATCH /v1/keys/tags/:tag': { first: 200, retry: 404 },
  'DELETE /v1/keys/tags/:tag': { first: 200, retry: 404 },
  'PUT /v1/keys/:key_id/translations/:language': { first: 200, retry: 200, same: true },
  'DELETE /v1/keys/:key_id/translations/:language': { first: 204, retry: 404 },
  // Already up to date the second time: the same answer, nothing recorded again.
  'POST /v1/keys/:key_id/translations/:language/up-to-date': { first: 200, retry: 200, same: true },
  // Another comment each time (a conversation may say the same twice); Idempotency-Key makes a retry the same one.
  'POST /v1/keys/:key_id/translations/:language/comments': { first: 201, retry: 201 },
  // Resolved the second time already: the same answer, nothing recorded again.
  'PATCH /v1/keys/:key_id/translations/:language/comments/:comment_id': { first: 200, retry: 200, same: true },
  'DELETE /v1/keys/:key_id/translations/:language/comments/:comment_id': { first: 204, retry: 404 },
  // Without Idempotency-Key the spelling is taken by the first: the retry is a 409, as for a key.
  'POST /v1/glossary': { first: 201, retry: 409 },
  'PATCH /v1/glossary/:term_id': { first: 200, retry: 200, same: true },
  'DELETE /v1/glossary/:term_id': { first: 204, retry: 404 },
  'POST /v1/glossary/import': { first: 200, retry: 200 },
  // Another screenshot each time (the same image may show two states); Idempotency-Key makes a retry the same one.
  'POST /v1/screenshots': { first: 201, retry: 201 },
  'PATCH /v1/screenshots/:screenshot_id': { first: 200, retry: 200, same: true },
  'DELETE /v1/screenshots/:screenshot_id': { first: 204, retry: 404 },
  // Another task each time (the body takes keys already in tasks); Idempotency-Key makes a retry the same one.
  'POST /v1/tasks': { first: 201, retry: 201 },
  'PATCH /v1/tasks/:number': { first: 200, retry: 200, same: true },
  'DELETE /v1/tasks/:number': { first: 204, retry: 404 },
  'POST /v1/groups': { first: 201, retry: 201, same: true },
  'PATCH /v1/groups/:group_name': { first: 200, retry: 404 },
  'DELETE /v1/groups/:group_name': { first: 204, retry: 404 },
  'POST /v1/languages': { first: 201, retry: 409 },
  'DELETE /v1/languages/:code': { first: 200, retry: 404 },
  'POST /v1/cache/rebuild': { first: 202, retry: 202, same: true },
  'POST /v1/import/:language': { first: 200, retry: 200 },
  // Only missing values are filled: the retry finds nothing left to do (here: nothing to do at all).
  'POST /v1/translate/:language': { first: 200, retry: 200, same: true },
  'POST /admin/v1/accounts': { first: 201, retry: 201 },
  'PATCH /admin/v1/accounts/:account_id': { first: 200, retry: 200, same: true },
  'POST /admin/v1/accounts/:account_id/projects': { first: 201, retry: 201 },
  'PATCH /admin/v1/projects/:project_id': { first: 200, retry: 200, same: true },
  'POST /admin/v1/projects/:project_id/api-keys': { first: 201, retry: 201 },
  // Another link each time (each used once); Idempotency-Key makes a retry the same one.
  'POST /admin/v1/accounts/:account_id/invitations': { first: 201, retry: 201 },
  'DELETE /admin/v1/api-keys/:api_key_id': { first: 204, retry: 204 },
  'POST /admin/v1/projects/:project_id/keys/:key_id/restore': { first: 200, retry: 404 },
  'POST /admin/v1/projects/:project_id/groups/:group_name/restore': { first: 200, retry: 404 },
  'POST /admin/v1/projects/:project_id/webhooks': { first: 201, retry: 201 },
  'PATCH /admin/v1/projects/:project_id/webhooks/:webhook_id': { first: 200, retry: 200 },
  'DELETE /admin/v1/projects/:project_id/webhooks/:webhook_id': { first: 204, retry: 404 },
  // A replay queues the message again each time it is asked (each its own delivery).
  'POST /admin/v1/projects/:project_id/webhooks/:webhook_id/deliveries/:delivery_id/replay': { first: 202, retry: 202 },
};

const mounted = new Hono();
for (const group of allRouteGroups) mounted.route(group.prefix, group.routes);
const writes = [...routeCases(mounted, '/v1/'), ...routeCases(mounted, '/admin/v1/')].filter((r) => r.method !== 'GET');

it('the table has a row for every write the app has, and no other', () => {
  expect(Object.keys(TABLE).sort()).toEqual(writes.map((r) => r.id).sort());
});

/** A team project with `de`, key auth.case (with a de value) in group auth, a deleted key in group gone, a second API key. */
async function setUp() {
  const p = await t.newProject('team');
  const json = async (res: Promise<Response>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`set-up: ${r.status} ${await r.text()}`);
    return r.status === 204 ? undefined : r.json();
  };
  // en first: it stays the source language, de is a target to translate into.
  await json(t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  await json(t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }));
  const key = await json(t.call(p.apiKey, 'POST', '/v1/keys', { key: 'auth.case', group_name: 'auth', tags: ['auth-tag'] }));
  await json(t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'x' }));
  const gone = await json(t.call(p.apiKey, 'POST', '/v1/keys', { key: 'gone.case', group_name: 'gone' }));
  await json(t.call(p.apiKey, 'DELETE', '/v1/groups/gone'));
  const extra = await json(t.call(undefined, 'POST', `/admin/v1/projects/${p.projectId}/api-keys`, undefined, ADMIN));
  const hook = await webhookFixture(t, p.projectId);
  const comment = await json(t.call(p.apiKey, 'POST', `/v1/keys/${key.id}/translations/de/comments`, { text: 'Formal or informal?' }));
  const term = await json(t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Auth case', translations: { de: 'Fall' } }));
  const screenshot = await json(uploadPng(p.apiKey, `/v1/screenshots?key_id=${key.id}`));
  // Task #1 of the project (the routes' sample number).
  await json(t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Auth', kind: 'translate', language: 'de', key_ids: [key.id], include_done: true }));
  return { p, screenshotId: screenshot.id as string, termId: term.id as string, keyId: key.id as string, goneId: gone.id as string, extraId: extra.id as string, commentId: comment.id as string, ...hook };
}

const BODY: Record<string, unknown> = {
  'POST /v1/keys': { key: 'auth.new' },
  'PATCH /v1/keys/:key_id': { description: 'x' },
  'PUT /v1/keys/:key_id/translations/:language': { value: 'y', status: 'approved' },
  'POST /v1/keys/:key_id/translations/:language/comments': { text: 'Sie, please' },
  'PATCH /v1/keys/:key_id/translations/:language/comments/:comment_id': { resolved: true },
  'POST /v1/keys/bulk-delete': { filter: { group: 'auth' } },
  'POST /v1/keys/bulk-status': { filter: { group: 'auth' }, languages: ['de'], status: 'approved' },
  'POST /v1/keys/bulk-tags': { filter: { group: 'auth' }, add: ['release-2.3'] },
  'PATCH /v1/keys/tags/:tag': { name: 'auth-tag2' },
  'POST /v1/glossary': { term: 'Fresh', translations: { de: 'Frisch' } },
  'PATCH /v1/glossary/:term_id': { description: 'The case of a sign-in', translations: { de: 'Anmeldefall' } },
  'PATCH /v1/screenshots/:screenshot_id': { name: 'Sign-in page' },
  'POST /v1/tasks': { name: 'Auth again', kind: 'translate', language: 'de', filter: {}, include_done: true, include_tasked: true },
  'PATCH /v1/tasks/:number': { name: 'Auth, renamed' },
  'POST /v1/groups': { name: 'fresh' },
  'PATCH /v1/groups/:group_name': { new_name: 'auth2' },
  'POST /v1/languages': { code: 'fr' },
  'POST /v1/translate/:language': {},
  'POST /admin/v1/accounts': { name: 'Acme', plan: 'team' },
  'PATCH /admin/v1/accounts/:account_id': { plan: 'business' },
  'POST /admin/v1/accounts/:account_id/projects': { name: 'Another' },
  'PATCH /admin/v1/projects/:project_id': { auto_rebuild: true },
  'POST /admin/v1/projects/:project_id/webhooks': { url: 'http://127.0.0.1:9/hook', events: ['cache.rebuilt'] },
  'PATCH /admin/v1/projects/:project_id/webhooks/:webhook_id': { events: ['cache.rebuilt', 'language.added'] },
};

describe.each(writes)('$method $path', (route) => {
  it('sent twice: the answers the table gives', async () => {
    const s = await setUp();
    const path = routeCases(mounted, route.id.includes(' /admin/') ? '/admin/v1/' : '/v1/', (name, id) => {
      const restore = id.endsWith('/restore');
      return { key_id: restore ? s.goneId : s.keyId, group_name: restore ? 'gone' : 'auth', account_id: s.p.accountId, project_id: s.p.projectId, api_key_id: s.extraId, language: 'de', code: 'de', webhook_id: s.webhookId, delivery_id: s.deliveryId, comment_id: s.commentId, tag: 'auth-tag', term_id: s.termId, screenshot_id: s.screenshotId }[name];
    }).find((r) => r.id === route.id)!.path;
    const send = () =>
      route.id === 'POST /v1/import/:language'
        ? t.call(s.p.apiKey, 'POST', `${path}?format=json&status=approved`, '{"auth.case": "z", "auth.other": "w"}', { 'Content-Type': 'application/json' })
        : route.id === 'POST /v1/glossary/import'
          ? t.call(s.p.apiKey, 'POST', `${path}?format=csv`, 'term,de\nAuth case,Anmeldefall\nFresh,Frisch\n', { 'Content-Type': 'text/csv' })
        : route.id === 'POST /v1/screenshots'
          ? uploadPng(s.p.apiKey, path)
        : route.id.includes(' /admin/')
          ? t.call(undefined, route.method, path, BODY[route.id], ADMIN)
          : t.call(s.p.apiKey, route.method, path, BODY[route.id]);
    const expected = TABLE[route.id]!;
    const first = await send();
    const firstText = await first.text();
    expect(first.status, firstText).toBe(expected.first);
    const retry = await send();
    const retryText = await retry.text();
    expect(retry.status, retryText).toBe(expected.retry);
    if (expected.same) expect(JSON.parse(retryText)).toEqual(JSON.parse(firstText));
    if (route.id === 'POST /v1/import/:language') {
      // The second import finds every value already there: nothing created, nothing charged.
      expect(JSON.parse(firstText)).toMatchObject({ keys_created: 1, values_created: 1, values_updated: 1, translation_units: 2 });
      expect(JSON.parse(retryText)).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, values_unchanged: 2, translation_units: 0 });
    }
    if (route.id === 'POST /v1/glossary/import') {
      // The file again finds its terms as it left them: nothing added or changed.
      expect(JSON.parse(firstText)).toMatchObject({ terms_created: 1, terms_updated: 1, translations_written: 2 });
      expect(JSON.parse(retryText)).toMatchObject({ terms_created: 0, terms_updated: 0, terms_unchanged: 2, translations_written: 0 });
    }
  });
});
