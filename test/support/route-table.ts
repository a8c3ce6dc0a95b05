// The routes the app really has, from Hono's own route table, with path parameters filled in, for
// the shared auth cases (test/http/auth.test.ts): a route added to any group is covered without
// anyone remembering to list it.
import type { Hono } from 'hono';
import { readFileSync } from 'node:fs';

export type RouteCase = { method: string; path: string; body?: unknown; /** `METHOD /path/:param`, as Hono lists it. */ id: string };

const KEY_ID = '00000000-0000-4000-8000-000000000000';

/** A value for each path parameter the API uses; an unknown one fails loudly, so it gets added here. */
const PARAMS: Record<string, string> = {
  key_id: KEY_ID,
  language: 'de',
  code: 'de',
  group: 'auth',
  group_name: 'auth',
  key: 'auth.case',
  account_id: KEY_ID,
  project_id: KEY_ID,
  api_key_id: KEY_ID,
  // Well-formed (a malformed one is a 422 before auth matters); no such build: a 404 for a valid key.
  build_id: '20260101T000000000Z-0123abcd',
  webhook_id: KEY_ID,
  delivery_id: KEY_ID,
  comment_id: KEY_ID,
  tag: 'auth-tag',
  term_id: KEY_ID,
  screenshot_id: KEY_ID,
  // A task number (no such task: a 404 for a valid key).
  number: '1',
};

// Bodies that would succeed for a real project, so that "a valid key gets through" means something:
// a fresh project's, or the fixture project of test/http/unknown-fields.test.ts (names it has not got).
// Every route that takes a JSON body has one here (unknown-fields.test.ts checks it against /openapi.json).
export const BODIES: Record<string, unknown> = {
  'POST /v1/keys': { key: 'auth.new' },
  'PATCH /v1/keys/:key_id': { description: 'x' },
  'POST /v1/groups': { name: 'auth-new' },
  'PATCH /v1/groups/:group_name': { new_name: 'auth2' },
  'POST /v1/languages': { code: 'fr' },
  'PUT /v1/keys/:key_id/translations/:language': { value: 'x' },
  'POST /v1/keys/:key_id/translations/:language/comments': { text: 'Is this formal or informal?' },
  'PATCH /v1/keys/:key_id/translations/:language/comments/:comment_id': { resolved: true },
  'POST /v1/keys/bulk-delete': { filter: { group: 'auth' } },
  'POST /v1/keys/bulk-status': { filter: { group: 'auth' }, languages: ['de'], status: 'approved' },
  'POST /v1/keys/bulk-tags': { filter: { group: 'auth' }, add: ['release-2.3'] },
  'PATCH /v1/keys/tags/:tag': { name: 'auth-tag2' },
  'POST /v1/import/:language': { auth: { case: 'x' } },
  'POST /v1/glossary': { term: 'Auth new' },
  'POST /v1/glossary/import': 'term,fr\nAuth new,Nouveau\n',
  'PATCH /v1/glossary/:term_id': { description: 'x' },
  // A real screenshot (Chromium's PNG): the upload's body is the image itself.
  'POST /v1/screenshots': new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url))),
  'PATCH /v1/screenshots/:screenshot_id': { name: 'Sign-in page' },
  'POST /v1/translate/:language': {},
  // Every key, done or already in tasks: a task the fixture project can make again and again.
  'POST /v1/tasks': { name: 'Auth review', kind: 'translate', language: 'de', filter: {}, include_done: true, include_tasked: true },
  'PATCH /v1/tasks/:number': { name: 'Auth review, renamed' },
  'POST /admin/v1/accounts': { name: 'Acme', plan: 'team' },
  'PATCH /admin/v1/accounts/:account_id': { plan: 'business' },
  'POST /admin/v1/accounts/:account_id/projects': { name: 'Another' },
  'POST /admin/v1/accounts/:account_id/invitations': { role: 'translator', languages: ['de'] },
  'PATCH /admin/v1/projects/:project_id': { auto_rebuild: true },
  'POST /admin/v1/projects/:project_id/api-keys': { name: 'CI' },
  'POST /admin/v1/projects/:project_id/webhooks': { url: 'https://93.184.216.34/hook', events: ['cache.rebuilt'] },
  'PATCH /admin/v1/projects/:project_id/webhooks/:webhook_id': { enabled: false },
};

/** The value of a path parameter in one route (`id` is `METHOD /path/:param`), or undefined for the default. */
export type ParamValues = (name: string, id: string) => string | undefined;

/** Every route of `app` under `prefix` (middleware entries, method ALL, left out). */
export function routeCases(app: Hono<any>, prefix: string, params?: ParamValues): RouteCase[] {
  const seen = new Set<string>();
  const cases: RouteCase[] = [];
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith(prefix)) continue;
    const id = `${route.method} ${route.path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = params?.(name, id) ?? PARAMS[name];
      if (value === undefined) throw new Error(`no sample value for path parameter :${name} (${id}): add one to PARAMS`);
      return value;
    });
    cases.push({ method: route.method, path, id, ...(id in BODIES ? { body: BODIES[id] } : {}) });
  }
  return cases;
}
