// Unknown fields are a 422 on every route, admin included (docs/decisions.md, "Errors and bad input"):
// every route that takes a JSON body refuses a field it does not know, and every write that takes no
// body refuses a body with fields, naming each at ["body", <field>]; nothing is written. The routes
// come from the app's route table, so a route added later is covered without being listed here.
import { beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { BODIES, routeCases, type ParamValues } from '../support/route-table.ts';
import { webhookFixture } from '../support/webhook-receiver.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { generateOpenApi } from '../../scripts/openapi.ts';
import { operations, type Doc } from '../openapi/openapi-support.ts';

// Webhook endpoints on loopback are allowed, so that the fixture's endpoint sends nothing off this machine.
const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' } });

const mounted = new Hono();
for (const group of allRouteGroups) mounted.route(group.prefix, group.routes);
const WRITES = [...routeCases(mounted, '/v1/'), ...routeCases(mounted, '/admin/v1/')].filter((r) => r.method !== 'GET');

// Needed to collect the cases, before any test runs.
const doc: Doc = JSON.parse(await generateOpenApi());
/** How the operation documents its body: 'json', 'file' (raw bytes, whatever the media type), or 'none'. */
function documentedBody(id: string): 'json' | 'file' | 'none' {
  const [method, path] = id.split(' ') as [string, string];
  const op = operations(doc).find((o) => o.method === method.toLowerCase() && o.path === path.replace(/:(\w+)/g, '{$1}'));
  if (!op) throw new Error(`${id} is not in /openapi.json`);
  const content = op.op.requestBody?.content;
  if (content === undefined) return 'none';
  return Object.values<any>(content).some((m) => m.schema?.format === 'binary') ? 'file' : 'json';
}

type Fixture = { p: TestProject; screenshotId: string; termId: string; keyId: string; deletedKeyId: string; extraApiKeyId: string; webhookId: string; deliveryId: string; commentId: string };

/** A project where every write route's request, with the route table's sample body, would succeed. */
async function fixture(): Promise<Fixture> {
  const p = await t.newProject('team');
  const ok = async (res: Promise<Response>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`fixture: ${r.status} ${await r.text()}`);
    return r.status === 204 ? undefined : r.json();
  };
  // en first: it stays the source language (with no values), de is a target to translate into.
  await ok(t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }));
  await ok(t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }));
  const key = await ok(t.call(p.apiKey, 'POST', '/v1/keys', { key: 'auth.case', group_name: 'auth', tags: ['auth-tag'] }));
  await ok(t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Wert' }));
  const deleted = await ok(t.call(p.apiKey, 'POST', '/v1/keys', { key: 'gone.case', group_name: 'gone' }));
  await ok(t.call(p.apiKey, 'DELETE', '/v1/groups/gone'));
  const extra = await ok(t.admin('POST', `/projects/${p.projectId}/api-keys`));
  const comment = await ok(t.call(p.apiKey, 'POST', `/v1/keys/${key.id}/translations/de/comments`, { text: 'Formal?' }));
  const term = await ok(t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Auth case' }));
  const screenshot = await ok(t.call(p.apiKey, 'POST', `/v1/screenshots?key_id=${key.id}`, BODIES['POST /v1/screenshots']));
  // Task #1 of the project (the routes' sample number).
  await ok(t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Auth', kind: 'translate', language: 'de', key_ids: [key.id], include_done: true }));
  return { p, screenshotId: screenshot.id, termId: term.id, keyId: key.id, deletedKeyId: deleted.id, extraApiKeyId: extra.id, commentId: comment.id, ...(await webhookFixture(t, p.projectId)) };
}

function paramsOf(f: Fixture): ParamValues {
  return (name, id) => {
    const restore = id.endsWith('/restore');
    const values: Record<string, string> = {
      key_id: restore ? f.deletedKeyId : f.keyId,
      group_name: restore ? 'gone' : 'auth',
      account_id: f.p.accountId,
      project_id: f.p.projectId,
      api_key_id: f.extraApiKeyId,
      webhook_id: f.webhookId,
      delivery_id: f.deliveryId,
      comment_id: f.commentId,
      term_id: f.termId,
      screenshot_id: f.screenshotId,
    };
    return values[name];
  };
}

/** Events of the fixture's project and account, and every account created: what any of these writes records. */
async function eventCount(f: Fixture): Promise<number> {
  const [row] = await t.runtime.deps.sql<{ n: number }[]>`
    select count(*)::int as n from domain_events
    where project_id = ${f.p.projectId} or account_id = ${f.p.accountId} or type = 'account.created'`;
  return row!.n;
}

async function send(f: Fixture, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  if (path.startsWith('/admin/v1/')) return t.call(undefined, method, path, body, { Authorization: 'Bearer test-admin-token-0123456789', ...headers });
  return t.call(f.p.apiKey, method, path, body, headers);
}

it('every write is in the route table, and its sample body matches what /openapi.json documents', () => {
  expect(WRITES.length).toBeGreaterThanOrEqual(20);
  for (const route of WRITES) {
    const documented = documentedBody(route.id);
    expect(documented === 'none' ? 'none' : 'a body', route.id).toBe(route.id in BODIES ? 'a body' : 'none');
  }
});

describe.each(WRITES.filter((r) => documentedBody(r.id) !== 'file'))('$method $path', (route) => {
  it('refuses a field it does not take with 422 naming it, writes nothing, and succeeds without it', async () => {
    const f = await fixture();
    const path = routeCases(mounted, route.path.startsWith('/admin/') ? '/admin/v1/' : '/v1/', paramsOf(f)).find((r) => r.id === route.id)!.path;
    const takesBody = route.id in BODIES;
    const before = await eventCount(f);

    const extra = takesBody ? { ...(route.body as object), zz_unknown: 1 } : { scope: 'read' };
    const refused = await send(f, route.method, path, extra);
    expect(refused.status, await refused.clone().text()).toBe(422);
    const field = takesBody ? 'zz_unknown' : 'scope';
    expect((await refused.json()).detail).toEqual([{ loc: ['body', field], msg: `Unknown field '${field}'`, type: 'extra_forbidden' }]);
    expect(await eventCount(f), 'nothing written').toBe(before);

    // The same request without it goes through (so it was the field that was refused): a bodiless
    // write takes `{}` as no body.
    const accepted = await send(f, route.method, path, takesBody ? route.body : {});
    expect(accepted.status, await accepted.clone().text()).toBeLessThan(300);
    // POST /v1/groups only checks a name: it stores nothing (spec 4.2). POST /v1/translate finds
    // nothing to fill in the fixture (no source-language values): test/translate covers its writes.
    // Nor is any value outdated there, for .../up-to-date to mark: test/translations/outdated.test.ts.
    const writesNothingHere = ['POST /v1/groups', 'POST /v1/translate/:language', 'POST /v1/keys/:key_id/translations/:language/up-to-date'];
    if (!writesNothingHere.includes(route.id)) expect(await eventCount(f)).toBeGreaterThan(before);
  });
});

describe('what a write that takes no body accepts', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });
  const rebuild = (body?: string, contentType?: string) =>
    t.call(f.p.apiKey, 'POST', '/v1/cache/rebuild', body, contentType ? { 'Content-Type': contentType } : {});

  it('no body, a blank one, or {} (in any JSON media type)', async () => {
    expect((await rebuild()).status).toBe(202);
    expect((await rebuild('', 'application/x-www-form-urlencoded')).status).toBe(202);
    expect((await rebuild(' \n', 'text/plain')).status).toBe(202);
    expect((await rebuild('{}', 'application/json')).status).toBe(202);
    expect((await rebuild(' { } ', 'application/merge-patch+json; charset=utf-8')).status).toBe(202);
  });

  it('every field named at once', async () => {
    const res = await t.call(undefined, 'DELETE', `/admin/v1/api-keys/${f.extraApiKeyId}`, { a: 1, b: 2 }, { Authorization: 'Bearer test-admin-token-0123456789' });
    expect(res.status).toBe(422);
    expect((await res.json()).detail.map((i: { loc: unknown }) => i.loc)).toEqual([['body', 'a'], ['body', 'b']]);
  });

  it('JSON that is not an object, or not JSON at all: 422, as on the routes that take JSON', async () => {
    for (const body of ['[]', 'null', '"x"', '1', '{"a":']) {
      const res = await rebuild(body, 'application/json');
      expect(res.status, body).toBe(422);
      const [issue] = (await res.json()).detail;
      expect(issue.loc, body).toEqual(['body']);
      expect(issue.type, body).toBe(body === '{"a":' ? 'json_invalid' : 'object_type');
    }
  });

  it('other bytes: 415 saying the operation takes no body', async () => {
    for (const [body, type] of [['scope=read', 'application/x-www-form-urlencoded'], ['read', 'text/plain'], ['{"scope":"read"}', 'text/plain']] as const) {
      const res = await rebuild(body, type);
      expect(res.status, `${type} ${body}`).toBe(415);
      expect(await res.json()).toEqual({ detail: 'This operation takes no request body: send none, or {}' });
    }
  });

  it('nothing was queued by the refused ones', async () => {
    const [row] = await t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from domain_events where project_id = ${f.p.projectId} and type = 'cache.rebuild_requested'`;
    expect(row!.n).toBe(5);
  });
});

describe('query parameters', () => {
  it('an unknown one is ignored (cache busters, tracing), a known one with a bad value is a 422', async () => {
    const f = await fixture();
    expect((await t.call(f.p.apiKey, 'GET', '/v1/translations/de?status=all&_=123&utm_source=x')).status).toBe(200);
    expect((await t.call(f.p.apiKey, 'DELETE', `/v1/keys/${f.keyId}?cascade=true`)).status).toBe(204);
    const bad = await t.call(f.p.apiKey, 'GET', '/v1/translations/de?status=everything');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(['query', 'status']);
  });
});
