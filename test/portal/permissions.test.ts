// Every cell of the permission table (docs/portal.md), through HTTP: each role tries every portal
// action on its own account's project and gets through (2xx/3xx) or a 403, exactly as the table
// says; a user of another account gets a 404 for all of them. The expected table is written out
// here, so a change of core/users/permissions.ts or of the docs' table fails this test.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { PERMISSIONS, type Permission } from '../../core/users/permissions.ts';
import { ROLES, type Role } from '../../core/users/schemas.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { addComment } from '../../core/comments/add-comment.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { previewGlossaryImport } from '../../core/glossary/import-glossary.ts';
import { glossaryPreviewFingerprint } from '../../functions/portal/glossary-files.ts';
import { PortalClient } from './support/portal-client.ts';
import { postMultipart, type FilePart } from './support/multipart.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';

const t = useTestApp();

const Y = true;
const N = false;
// permission:           owner developer reviewer translator
const EXPECTED: Record<Permission, [boolean, boolean, boolean, boolean]> = {
  'project.view': [Y, Y, Y, Y],
  'values.edit': [Y, Y, Y, Y],
  'values.approve': [Y, Y, Y, N],
  'comments.moderate': [Y, Y, N, N],
  'glossary.manage': [Y, Y, Y, N],
  'screenshots.manage': [Y, Y, Y, N],
  'tasks.manage': [Y, Y, Y, N],
  'keys.manage': [Y, Y, N, N],
  'languages.manage': [Y, Y, N, N],
  'api_keys.manage': [Y, Y, N, N],
  'files.transfer': [Y, Y, N, N],
  'project.publish': [Y, Y, N, N],
  'projects.create': [Y, N, N, N],
  'members.manage': [Y, N, N, N],
};

it('the table in core is the table written here, and the one in docs/portal.md', () => {
  const actual = Object.fromEntries(Object.entries(PERMISSIONS).map(([p, roles]) => [p, ROLES.map((r) => (roles as readonly Role[]).includes(r))]));
  expect(actual).toEqual(EXPECTED);
  const doc = readFileSync('docs/portal.md', 'utf8');
  for (const [permission, cells] of Object.entries(EXPECTED)) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${permission}\``));
    expect(row, permission).toBeDefined();
    expect(row!.split('|').slice(3, 7).map((c) => c.trim() === 'yes'), permission).toEqual(cells);
  }
});

type Fixture = { p: TestProject; keyId: string };
/** `role`: the member who sends it (the stranger's request is built with none). */
type Case = {
  name: string;
  permission: Permission;
  /** files: sent as the browser sends a form with a file field (multipart). */
  request: (f: Fixture, role?: Role) => Promise<{ method: 'GET' | 'POST'; path: string; fields?: Record<string, string | string[]>; files?: Record<string, FilePart> }>;
};

let counter = 0;
const unique = () => `${Date.now().toString(36)}${counter++}`;

const CASES: Case[] = [
  { name: 'open the editor', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}` }) },
  { name: 'see the languages', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/languages` }) },
  { name: 'read the cache status', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/cache-status` }) },
  {
    name: 'write a draft',
    permission: 'values.edit',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}/values/de`, fields: { value: 'Hallo', status: 'draft' } }),
  },
  {
    name: 'send to review',
    permission: 'values.edit',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}/values/de`, fields: { value: 'Hallo', status: 'review' } }),
  },
  {
    name: 'approve',
    permission: 'values.approve',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}/values/de`, fields: { value: 'Hallo', status: 'approved' } }),
  },
  {
    name: 'send selected to review',
    permission: 'values.edit',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'review', key: [await valued(p), await valued(p)], lang: 'de' } }),
  },
  {
    name: 'approve selected',
    permission: 'values.approve',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'approved', key: [await valued(p)], lang: 'de' } }),
  },
  {
    name: 'delete selected',
    permission: 'keys.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'delete', key: [await newKey(p), await newKey(p)] } }),
  },
  { name: 'see the usage', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/usage` }) },
  { name: 'see the activity', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/activity` }) },
  {
    name: 'see a value\'s history',
    permission: 'project.view',
    request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/keys/${await valued(p)}/values/de/history` }),
  },
  {
    name: 'revert a value',
    permission: 'values.edit',
    request: async ({ p }) => {
      const id = await valued(p);
      await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Servus' });
      const [first] = await t.runtime.deps.sql<{ id: string }[]>`
        select id from domain_events where entity_id = ${`${id}/de`} and type = 'translation.written' order by id limit 1`;
      return { method: 'POST', path: `/portal/projects/${p.projectId}/keys/${id}/values/de/revert`, fields: { event_id: String(first!.id) } };
    },
  },
  {
    name: 'comment on a value',
    permission: 'values.edit',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await valued(p)}/values/de/comments`, fields: { text: 'Too formal?' } }),
  },
  {
    // Whoever may comment on the language resolves its comments, whoever wrote them.
    name: 'resolve a comment',
    permission: 'values.edit',
    request: async ({ p }) => {
      const id = await valued(p);
      const comment = await commented(p, id, { type: 'api_key', id: p.apiKeyId });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/keys/${id}/values/de/comments/${comment}/resolve`, fields: { resolved: 'yes' } };
    },
  },
  {
    // Whatever the role: a member's own comment is theirs to take back.
    name: "delete one's own comment",
    permission: 'project.view',
    request: async ({ p }, role) => {
      const id = await valued(p);
      const comment = await commented(p, id, role ? { type: 'user', id: userIds.get(role)! } : { type: 'api_key', id: p.apiKeyId });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/keys/${id}/values/de/comments/${comment}/delete` };
    },
  },
  {
    name: "delete another's comment",
    permission: 'comments.moderate',
    request: async ({ p }) => {
      const id = await valued(p);
      const comment = await commented(p, id, { type: 'api_key', id: p.apiKeyId });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/keys/${id}/values/de/comments/${comment}/delete` };
    },
  },
  { name: 'see the glossary', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/glossary` }) },
  {
    name: 'add a glossary term',
    permission: 'glossary.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/glossary`, fields: { term: `Term ${unique()}`, description: 'A word', case_sensitive: 'yes' } }),
  },
  {
    name: 'edit a glossary term',
    permission: 'glossary.manage',
    request: async ({ p }) => {
      const term = await glossaryTerm(p);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/glossary/${term.id}`, fields: { term_was: term.term, term: `${term.term} 2`, description_was: '', description: 'Renamed' } };
    },
  },
  {
    name: 'delete a glossary term',
    permission: 'glossary.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/glossary/${(await glossaryTerm(p)).id}/delete` }),
  },
  { name: 'download the glossary', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/glossary/export?format=tbx` }) },
  {
    name: 'import a glossary file',
    permission: 'glossary.manage',
    request: async ({ p }) => {
      // Apply names what its preview showed: the dry run's fingerprint, as the preview's form carries it.
      const body = new TextEncoder().encode(`term,de\nTerm ${unique()},Begriff\n`);
      const shown = await previewGlossaryImport(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, format: 'csv', dryRun: true, body });
      return {
        method: 'POST',
        path: `/portal/projects/${p.projectId}/glossary/import`,
        fields: { apply: 'yes', format: 'csv', file_base64: Buffer.from(body).toString('base64'), preview: glossaryPreviewFingerprint(shown) },
      };
    },
  },
  { name: 'see the screenshots', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/screenshots` }) },
  { name: 'see a screenshot', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/screenshots/${(await screenshot(p)).id}` }) },
  {
    name: "see a screenshot's image",
    permission: 'project.view',
    request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/screenshots/${(await screenshot(p)).id}/image` }),
  },
  {
    name: 'upload a screenshot',
    permission: 'screenshots.manage',
    request: async ({ p }) => ({
      method: 'POST',
      path: `/portal/projects/${p.projectId}/screenshots`,
      fields: { name: `Shot ${unique()}` },
      files: { file: { name: 'sign-in.png', type: 'image/png', bytes: PNG } },
    }),
  },
  {
    name: 'rename a screenshot',
    permission: 'screenshots.manage',
    request: async ({ p }) => {
      const shot = await screenshot(p);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/screenshots/${shot.id}`, fields: { name_was: shot.name, name: `${shot.name} 2` } };
    },
  },
  {
    name: 'link keys to a screenshot',
    permission: 'screenshots.manage',
    request: async ({ p }) => {
      const name = `k.${unique()}`;
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: name });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/screenshots/${(await screenshot(p)).id}/keys`, fields: { keys: name } };
    },
  },
  {
    name: "mark a key's region on a screenshot",
    permission: 'screenshots.manage',
    request: async ({ p }) => {
      const keyId = await newKey(p);
      const shot = await screenshot(p, [keyId]);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/screenshots/${shot.id}/keys/${keyId}`, fields: { do: 'region', x: '10', y: '20', width: '100', height: '30' } };
    },
  },
  {
    name: 'unlink a key from a screenshot',
    permission: 'screenshots.manage',
    request: async ({ p }) => {
      const keyId = await newKey(p);
      const shot = await screenshot(p, [keyId]);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/screenshots/${shot.id}/keys/${keyId}`, fields: { do: 'unlink' } };
    },
  },
  {
    name: 'delete a screenshot',
    permission: 'screenshots.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/screenshots/${(await screenshot(p)).id}/delete` }),
  },
  { name: 'see the tasks', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/tasks?state=all` }) },
  { name: 'see a task', permission: 'project.view', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/tasks/${await task(p)}` }) },
  { name: 'open the New task form', permission: 'tasks.manage', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/tasks/new` }) },
  {
    name: 'create a task',
    permission: 'tasks.manage',
    request: async ({ p }) => ({
      method: 'POST',
      path: `/portal/projects/${p.projectId}/tasks`,
      fields: { name: `Task ${unique()}`, kind: 'translate', language: 'de', keys: 'selected', key_ids: [await newKey(p)], due_date: '' },
    }),
  },
  {
    name: 'create a task from the selected keys (the editor)',
    permission: 'tasks.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'task', key: [await newKey(p), await newKey(p)], lang: 'de' } }),
  },
  {
    name: 'edit a task',
    permission: 'tasks.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/tasks/${await task(p)}`, fields: { name_was: 'Task', name: `Task ${unique()}`, description_was: '', description: 'Before the release' } }),
  },
  {
    name: 'cancel a task',
    permission: 'tasks.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/tasks/${await task(p)}/state`, fields: { state: 'canceled' } }),
  },
  {
    name: 'open a task again',
    permission: 'tasks.manage',
    request: async ({ p }) => {
      const number = await task(p);
      expect((await t.call(p.apiKey, 'PATCH', `/v1/tasks/${number}`, { state: 'canceled' })).status).toBe(200);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/tasks/${number}/state`, fields: { state: 'open' } };
    },
  },
  { name: 'delete a task', permission: 'tasks.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/tasks/${await task(p)}/delete` }) },
  { name: 'see import and export', permission: 'files.transfer', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/files` }) },
  {
    name: 'import a file',
    permission: 'files.transfer',
    request: async ({ p }) => ({
      method: 'POST',
      path: `/portal/projects/${p.projectId}/import`,
      fields: { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default', apply: 'yes', file_base64: Buffer.from(`{"imported.${unique()}":"Hallo"}`).toString('base64') },
    }),
  },
  { name: 'export a file', permission: 'files.transfer', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/export?language=de&format=po` }) },
  { name: 'see the trash', permission: 'keys.manage', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/trash` }) },
  {
    name: 'restore a key',
    permission: 'keys.manage',
    request: async ({ p }) => {
      const id = await newKey(p);
      expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`)).status).toBeLessThan(300);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/trash/keys/${id}/restore` };
    },
  },
  { name: 'create a key', permission: 'keys.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys`, fields: { key: `k.${unique()}` } }) },
  {
    name: 'describe a key and change its group',
    permission: 'keys.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}`, fields: { group_name: 'moved', description: 'Shown on the home screen' } }),
  },
  {
    name: "tag a key (its form's Tags)",
    permission: 'keys.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}`, fields: { group_name: 'Default', tags: 'mobile, release-2.3', tags_was: '' } }),
  },
  {
    name: 'tag selected keys',
    permission: 'keys.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'tag-add', key: [await newKey(p), await newKey(p)], tag: 'release-2.3' } }),
  },
  {
    name: 'untag selected keys',
    permission: 'keys.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/bulk`, fields: { action: 'tag-remove', key: [await newKey(p)], tag: 'release-2.3' } }),
  },
  {
    name: 'rename a group',
    permission: 'keys.manage',
    request: async ({ p }) => {
      const group = `g${unique()}`;
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${unique()}`, group_name: group });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/groups/${group}/rename`, fields: { new_name: `r${unique()}` } };
    },
  },
  {
    name: 'rename a tag across the project',
    permission: 'keys.manage',
    request: async ({ p }) => {
      const tag = `t${unique()}`;
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${unique()}`, tags: [tag] });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/tags/${tag}/rename`, fields: { name: `r${unique()}` } };
    },
  },
  {
    name: 'delete a tag across the project',
    permission: 'keys.manage',
    request: async ({ p }) => {
      const tag = `t${unique()}`;
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${unique()}`, tags: [tag] });
      return { method: 'POST', path: `/portal/projects/${p.projectId}/tags/${tag}/delete` };
    },
  },
  { name: 'delete a key', permission: 'keys.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/keys/${await newKey(p)}/delete` }) },
  { name: 'add a language', permission: 'languages.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/languages`, fields: { code: nextLanguage() } }) },
  {
    name: 'remove a language',
    permission: 'languages.manage',
    request: async ({ p }) => {
      const code = nextLanguage();
      expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBeLessThan(300);
      return { method: 'POST', path: `/portal/projects/${p.projectId}/languages/${code}/remove`, fields: { confirmed: 'yes', values: '0', digest: 'none' } };
    },
  },
  { name: 'see the API keys', permission: 'api_keys.manage', request: async ({ p }) => ({ method: 'GET', path: `/portal/projects/${p.projectId}/api-keys` }) },
  { name: 'create an API key', permission: 'api_keys.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/api-keys` }) },
  {
    name: 'revoke an API key',
    permission: 'api_keys.manage',
    request: async ({ p }) => {
      const key = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json()) as { id: string };
      return { method: 'POST', path: `/portal/projects/${p.projectId}/api-keys/${key.id}/revoke` };
    },
  },
  { name: 'publish', permission: 'project.publish', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/publish` }) },
  { name: 'turn auto-publish on', permission: 'project.publish', request: async ({ p }) => ({ method: 'POST', path: `/portal/projects/${p.projectId}/settings`, fields: { auto_rebuild: 'true' } }) },
  { name: 'create a project', permission: 'projects.create', request: async ({ p }) => ({ method: 'POST', path: `/portal/accounts/${p.accountId}/projects`, fields: { name: `P ${unique()}` } }) },
  { name: 'see the members', permission: 'members.manage', request: async ({ p }) => ({ method: 'GET', path: `/portal/accounts/${p.accountId}/members` }) },
  {
    name: 'change a member\'s role',
    permission: 'members.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/accounts/${p.accountId}/members/${await memberId(p.accountId)}/role`, fields: { role: 'reviewer', languages: 'de' } }),
  },
  {
    name: 'remove a member',
    permission: 'members.manage',
    request: async ({ p }) => ({ method: 'POST', path: `/portal/accounts/${p.accountId}/members/${await memberId(p.accountId)}/remove` }),
  },
  { name: 'invite a member', permission: 'members.manage', request: async ({ p }) => ({ method: 'POST', path: `/portal/accounts/${p.accountId}/invites`, fields: { role: 'translator' } }) },
];

it('the cases cover every permission', () => {
  expect(new Set(CASES.map((c) => c.permission))).toEqual(new Set(Object.keys(PERMISSIONS)));
});

const LANGS = ['fr', 'it', 'es', 'pt', 'nl', 'sv', 'da', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'tr', 'ja', 'ko', 'zh', 'ru', 'uk', 'he', 'ar', 'hi', 'th', 'vi', 'id', 'ms'];
let langIndex = 0;
const nextLanguage = () => LANGS[langIndex++ % LANGS.length]!;

let fixture: Fixture;
async function newKey(p: TestProject): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${unique()}` });
  return ((await res.json()) as { id: string }).id;
}

/** A key with a draft value in de. */
async function valued(p: TestProject): Promise<string> {
  const id = await newKey(p);
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Hallo' })).status).toBe(200);
  return id;
}

/** A comment on the key's de value by `actor`: its id. */
async function commented(p: TestProject, keyId: string, actor: { type: 'user' | 'api_key'; id: string }): Promise<string> {
  return (await addComment(t.runtime.deps, { projectId: p.projectId, keyId, language: 'de', text: 'Is this the right tone?', actor })).id;
}

/** A glossary term of the project (through core: the portal's own form is a case above). */
async function glossaryTerm(p: TestProject): Promise<{ id: string; term: string }> {
  return createTerm(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, term: `Term ${unique()}` });
}

/** A task of the project over a new key (through the API: the portal's own form is a case above): its number. */
async function task(p: TestProject): Promise<number> {
  const res = await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Task', kind: 'translate', language: 'de', key_ids: [await newKey(p)] });
  expect(res.status).toBe(201);
  return ((await res.json()) as { number: number }).number;
}

const PNG = new Uint8Array(readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url)));

/** A screenshot of the project (through core: the portal's own upload form is a case above), showing `keyIds`. */
async function screenshot(p: TestProject, keyIds: string[] = []): Promise<{ id: string; name: string }> {
  return uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, body: PNG, name: `Shot ${unique()}`, keyIds });
}

/** A fresh translator of the account, to be changed or removed. */
async function memberId(accountId: string): Promise<string> {
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${`m-${unique()}@example.com`}, 'scrypt$1$1$1$x$y') returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${accountId}, 'translator')`;
  return user!.id;
}

const clients = new Map<Role | 'stranger', PortalClient>();
const userIds = new Map<Role, string>();

async function member(accountId: string, role: Role | null): Promise<PortalClient> {
  const email = `${role ?? 'stranger'}-${unique()}@example.com`;
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${email}, ${await hashPassword('not used here')}) returning id`;
  if (role) await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${accountId}, ${role})`;
  if (role) userIds.set(role, user!.id);
  const session = await createSession(t.runtime.deps, user!.id);
  const client = new PortalClient(t.app);
  client.cookies.set('tms_session', session.token);
  client.csrf = session.csrf;
  return client;
}

beforeAll(async () => {
  const p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBeLessThan(300);
  fixture = { p, keyId: await newKey(p) };
  for (const role of ROLES) clients.set(role, await member(p.accountId, role));
  // A member of another account only.
  const elsewhere = await t.newProject('team');
  clients.set('stranger', await member(elsewhere.accountId, 'owner'));
});

function send(client: PortalClient, method: 'GET' | 'POST', path: string, fields: Record<string, string | string[]> = {}, files?: Record<string, FilePart>) {
  if (method === 'GET') return client.get(path);
  if (files) return postMultipart(t.app, client, path, fields as Record<string, string>, files);
  return client.post(path, fields);
}

describe.each(CASES)('$name ($permission)', (c) => {
  it.each(ROLES.map((role, i) => ({ role, allowed: EXPECTED[c.permission][i]! })))('$role: allowed $allowed', async ({ role, allowed }) => {
    const { method, path, fields, files } = await c.request(fixture, role);
    const client = clients.get(role)!;
    const res = await send(client, method, path, fields, files);
    if (allowed) expect(res.status, res.text.slice(0, 300)).toBeLessThan(400);
    else expect(res.status).toBe(403);
  });
  it('a member of another account: 404', async () => {
    const { method, path, fields, files } = await c.request(fixture);
    const res = await send(clients.get('stranger')!, method, path, fields, files);
    expect(res.status).toBe(404);
  });
});

describe('activity', () => {
  it('shows who changed what from every path, and a revert brings an old text back as the user', async () => {
    const { p } = fixture;
    const rv = clients.get('reviewer')!;
    const id = await valued(p);
    await rv.post(`/portal/projects/${p.projectId}/keys/${id}/values/de`, { value: 'Servus', status: 'approved' });
    const log = await rv.get(`/portal/projects/${p.projectId}/activity`);
    expect(log.status).toBe(200);
    expect(log.text).toMatch(/reviewer-[a-z0-9]+@example\.com/);
    expect(log.text).toContain(`API key ${p.apiKeyId.slice(0, 8)}`);
    expect(log.text).toContain('&quot;<span lang="de" dir="ltr">Hallo</span>&quot; (draft) → &quot;<span lang="de" dir="ltr">Servus</span>&quot; (approved)');

    const history = await rv.get(`/portal/projects/${p.projectId}/keys/${id}/values/de/history`);
    const eventId = /name="event_id" value="(\d+)"/.exec(history.text)![1]!;
    const reverted = await rv.follow(await rv.post(`/portal/projects/${p.projectId}/keys/${id}/values/de/revert`, { event_id: eventId }));
    expect(reverted.status).toBe(200);
    expect(reverted.text).toContain('Reverted to &quot;Hallo&quot; (draft)');
    const [last] = await t.runtime.deps.sql<{ actor_type: string; after: { value: string } }[]>`
      select actor_type, after from domain_events where entity_id = ${`${id}/de`} order by id desc limit 1`;
    expect([last!.actor_type, last!.after.value]).toEqual(['user', 'Hallo']);
    // An event of another value, or of another project, is not a version of this one.
    expect((await rv.post(`/portal/projects/${p.projectId}/keys/${await valued(p)}/values/de/revert`, { event_id: eventId })).status).toBe(404);
  });
});

describe('trash', () => {
  it('restores a key with its values, and explains a 409 when its name is taken again', async () => {
    const { p } = fixture;
    const dev = clients.get('developer')!;
    const id = await valued(p);
    const name = ((await (await t.call(p.apiKey, 'GET', `/v1/keys`)).json()) as { keys: { id: string; key: string }[] }).keys.find((k) => k.id === id)!.key;
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`);
    expect((await dev.get(`/portal/projects/${p.projectId}/trash`)).text).toContain(name);
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: name });
    const clash = await dev.post(`/portal/projects/${p.projectId}/trash/keys/${id}/restore`);
    expect(clash.status).toBe(409);
    expect(clash.text).toContain('Not restored');
    expect(clash.text).toContain('already exists');
    const live = ((await (await t.call(p.apiKey, 'GET', `/v1/keys`)).json()) as { keys: { id: string; key: string }[] }).keys.find((k) => k.key === name)!;
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${live.id}`);
    const ok = await dev.follow(await dev.post(`/portal/projects/${p.projectId}/trash/keys/${id}/restore`));
    expect(ok.status).toBe(200);
    expect(ok.text).toContain(`Restored ${name}`);
    const values = (await (await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all')).json()) as { translations: Record<string, { value: string }> };
    expect(values.translations[name]?.value).toBe('Hallo');
  });
});

describe('language limits and approved values', () => {
  it('a translator limited to de cannot write fr; cannot change an approved value; a reviewer can', async () => {
    const { p } = fixture;
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' });
    const tr = clients.get('translator')!;
    await t.runtime.deps.sql`update memberships set languages = ${['de']} where account_id = ${p.accountId} and role = 'translator'`;
    const key = await newKey(p);
    expect((await tr.post(`/portal/projects/${p.projectId}/keys/${key}/values/fr`, { value: 'Bonjour' })).status).toBe(403);
    expect((await tr.post(`/portal/projects/${p.projectId}/keys/${key}/values/de`, { value: 'Hallo' })).status).toBe(303);

    await t.call(p.apiKey, 'PUT', `/v1/keys/${key}/translations/de`, { value: 'Hallo', status: 'approved' });
    const refused = await tr.post(`/portal/projects/${p.projectId}/keys/${key}/values/de`, { value: 'Servus', status: 'draft' }, { Accept: 'application/json' });
    expect(refused.status).toBe(403);
    // The approved text comes with the refusal, for the editor's script to show beside the typed one.
    expect(JSON.parse(refused.text)).toEqual({ detail: expect.stringContaining('approved'), current: expect.objectContaining({ value: 'Hallo', status: 'approved' }) });
    const reviewer = clients.get('reviewer')!;
    const rebuilds = async () => (await t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = 'cache.rebuild_requested' and actor_type = 'user'`)[0]!.n;
    const before = await rebuilds();
    expect((await tr.post(`/portal/projects/${p.projectId}/keys/${key}/values/de`, { value: 'Hallo', status: 'review' })).status).toBe(403);
    expect(await rebuilds()).toBe(before);
    const ok = await reviewer.post(`/portal/projects/${p.projectId}/keys/${key}/values/de`, { value: 'Servus', status: 'approved' }, { Accept: 'application/json' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ value: 'Servus', status: 'approved' });
    // An approval in the portal queues a rebuild, as the spec says of portal actions.
    expect(await rebuilds()).toBe(before + 1);
    const read = (await (await t.call(p.apiKey, 'GET', `/v1/translations/de`)).json()) as { translations: Record<string, string> };
    expect(Object.values(read.translations)).toContain('Servus');
    const [event] = await t.runtime.deps.sql<{ actor_type: string }[]>`
      select actor_type from domain_events where type = 'translation.written' and entity_id = ${`${key}/de`} order by id desc limit 1`;
    expect(event?.actor_type).toBe('user');
  });
});
