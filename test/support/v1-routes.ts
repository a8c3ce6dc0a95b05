// Every authenticated /v1 route, with a request that would succeed for a real project. The shared
// auth cases (test/http/auth.test.ts) run against each: add new routes here.
export type RouteCase = { method: string; path: string; body?: unknown };

const KEY_ID = '00000000-0000-4000-8000-000000000000';

export const V1_ROUTES: RouteCase[] = [
  { method: 'GET', path: '/v1/keys' },
  { method: 'POST', path: '/v1/keys', body: { key: 'auth.case' } },
  { method: 'PATCH', path: `/v1/keys/${KEY_ID}`, body: { description: 'x' } },
  { method: 'DELETE', path: `/v1/keys/${KEY_ID}` },
  { method: 'GET', path: '/v1/groups' },
  { method: 'POST', path: '/v1/groups', body: { name: 'auth' } },
  { method: 'PATCH', path: '/v1/groups/auth', body: { new_name: 'auth2' } },
  { method: 'DELETE', path: '/v1/groups/auth' },
  { method: 'GET', path: '/v1/languages' },
  { method: 'POST', path: '/v1/languages', body: { code: 'de' } },
  { method: 'DELETE', path: '/v1/languages/de' },
  { method: 'PUT', path: `/v1/keys/${KEY_ID}/translations/de`, body: { value: 'x' } },
  { method: 'DELETE', path: `/v1/keys/${KEY_ID}/translations/de` },
  { method: 'GET', path: '/v1/translations/de' },
  { method: 'GET', path: '/v1/translations/de/auth' },
  { method: 'GET', path: '/v1/translations/de/auth/auth.case' },
  { method: 'GET', path: '/v1/manifest' },
  { method: 'POST', path: '/v1/cache/rebuild' },
  { method: 'GET', path: '/v1/cache/status' },
  { method: 'GET', path: '/v1/cached/manifest' },
  { method: 'GET', path: '/v1/cached/translations/de' },
  { method: 'GET', path: '/v1/cached/translations/de/auth' },
  { method: 'GET', path: '/v1/cached/translations/de/auth/auth.case' },
];
