// The portal's back end: accounts, projects, API keys, restores. Bearer TMS_ADMIN_TOKEN.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { adminAuth } from '../http/admin-auth.ts';
import { describe } from '../http/describe.ts';
import { noBody, optionalJsonBody, requireJsonBody, validBody, validOptionalBody, validParams, validQuery } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { Uuid } from '../../core/validation.ts';
import {
  Account,
  CreateAccountInput,
  CreatedProject,
  CreateProjectInput,
  Project,
  UpdateAccountInput,
  UpdateProjectInput,
} from '../../core/accounts/schemas.ts';
import { KeyRecord } from '../../core/keys/schemas.ts';
import { ApiKeyInfo, CreateApiKeyInput, CreatedApiKey } from '../../core/accounts/api-key-schemas.ts';
import { PageQuery } from '../../core/accounts/page-cursor.ts';
import {
  AccountDetails,
  AccountPage,
  ApiKeyIdParam,
  getAccount,
  getApiKey,
  getProject,
  listAccounts,
  listApiKeys,
  listProjects,
  ProjectDetails,
  ProjectPage,
} from '../../core/accounts/admin-reads.ts';
import { RestoredGroup } from '../../core/groups/schemas.ts';
import { createAccount } from '../../core/accounts/create-account.ts';
import { updateAccount } from '../../core/accounts/update-account.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { createApiKey } from '../../core/accounts/create-api-key.ts';
import { revokeApiKey } from '../../core/accounts/revoke-api-key.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';
import { restoreGroup } from '../../core/groups/restore-group.ts';
import { ADMIN } from '../../core/actor.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { INVITE_DAYS, inviteToAccount } from '../../core/users/invites.ts';
import { AdminInviteInput, CreatedAdminInvite } from '../../core/users/schemas.ts';
import { catalogueEntry } from '../catalogue.ts';

const tag = 'Admin';
const auth = 'admin' as const;
const AccountIdParam = v.object({ account_id: Uuid });
const ProjectIdParam = v.object({ project_id: Uuid });

const ApiKeyPage = v.object({ api_keys: v.array(ApiKeyInfo), next_cursor: v.nullable(v.string()) });

const routes = new Hono<AppEnv>()
  .use('*', adminAuth())
  .get(
    '/accounts',
    describe({ operationId: 'listAccounts', tag, auth, summary: 'Accounts, oldest first, a page at a time (limit, cursor)', responses: { 200: AccountPage } }),
    validQuery(PageQuery),
    async (c) => c.json(await listAccounts(c.get('deps'), c.req.valid('query'))),
  )
  .get(
    '/accounts/:account_id',
    describe({ operationId: 'getAccount', tag, auth, summary: 'One account: plan and limit overrides', responses: { 200: AccountDetails, 404: null } }),
    validParams(AccountIdParam),
    async (c) => c.json(await getAccount(c.get('deps'), c.req.valid('param').account_id)),
  )
  .get(
    '/accounts/:account_id/projects',
    describe({ operationId: 'listProjects', tag, auth, summary: "An account's projects, oldest first, a page at a time (limit, cursor)", responses: { 200: ProjectPage, 404: null } }),
    validParams(AccountIdParam),
    validQuery(PageQuery),
    async (c) => c.json(await listProjects(c.get('deps'), c.req.valid('param').account_id, c.req.valid('query'))),
  )
  .get(
    '/projects/:project_id',
    describe({ operationId: 'getProject', tag, auth, summary: 'One project and its settings', responses: { 200: ProjectDetails, 404: null } }),
    validParams(ProjectIdParam),
    async (c) => c.json(await getProject(c.get('deps'), c.req.valid('param').project_id)),
  )
  .get(
    '/projects/:project_id/api-keys',
    describe({
      operationId: 'listApiKeys',
      tag,
      auth,
      summary: "A project's API keys (never the keys themselves): name, kind, hint, restrictions, last use, revocation; a page at a time",
      responses: { 200: ApiKeyPage, 404: null },
    }),
    validParams(ProjectIdParam),
    validQuery(PageQuery),
    async (c) => c.json(await listApiKeys(c.get('deps'), c.req.valid('param').project_id, c.req.valid('query'))),
  )
  .get(
    '/api-keys/:api_key_id',
    describe({ operationId: 'getApiKey', tag, auth, summary: 'One API key (never the key itself)', responses: { 200: ApiKeyInfo, 404: null } }),
    validParams(ApiKeyIdParam),
    async (c) => c.json(await getApiKey(c.get('deps'), c.req.valid('param').api_key_id)),
  )
  .post(
    '/accounts',
    describe({ operationId: 'createAccount', tag, auth, body: 'json', idempotent: true, summary: 'Create an account', responses: { 201: Account } }),
    requireJsonBody(),
    validBody(CreateAccountInput),
    idempotencyKey(),
    async (c) => c.json(await createAccount(c.get('deps'), { actor: ADMIN, ...c.req.valid('json') }), 201),
  )
  .patch(
    '/accounts/:account_id',
    describe({
      operationId: 'updateAccount',
      tag,
      auth,
      body: 'json',
      summary: "Change an account's plan, daily call limit or translation-unit allowance",
      responses: { 200: Account, 404: null },
    }),
    validParams(AccountIdParam),
    requireJsonBody(),
    validBody(UpdateAccountInput),
    async (c) => c.json(await updateAccount(c.get('deps'), { actor: ADMIN, accountId: c.req.valid('param').account_id, ...c.req.valid('json') })),
  )
  .post(
    '/accounts/:account_id/projects',
    describe({
      operationId: 'createProject',
      tag,
      auth,
      body: 'json',
      idempotent: true,
      summary: 'Create a project with its first API key',
      responses: { 201: CreatedProject, 402: null, 404: null },
    }),
    validParams(AccountIdParam),
    requireJsonBody(),
    validBody(CreateProjectInput),
    idempotencyKey(),
    async (c) => c.json(await createProject(c.get('deps'), { actor: ADMIN, accountId: c.req.valid('param').account_id, ...c.req.valid('json') }), 201),
  )
  .patch(
    '/projects/:project_id',
    describe({ operationId: 'updateProject', tag, auth, body: 'json', summary: 'Change project settings (auto_rebuild, fallbacks, source_language, quality_blocking)', responses: { 200: Project, 404: null } }),
    validParams(ProjectIdParam),
    requireJsonBody(),
    validBody(UpdateProjectInput),
    async (c) => c.json(await updateProject(c.get('deps'), { actor: ADMIN, projectId: c.req.valid('param').project_id, ...c.req.valid('json') })),
  )
  .post(
    '/accounts/:account_id/invitations',
    describe({
      operationId: 'inviteToAccount',
      tag,
      auth,
      body: 'json',
      idempotent: true,
      summary: "A one-time portal link into an account (the body is optional): role owner unless another is given; languages limit a translator or reviewer",
      description:
        'An account made here has no portal member, and portal setup makes an account of its own: this invitation is how its people reach it. ' +
        'The answer holds the token once; open `path` on the server (e.g. http://127.0.0.1:3000/portal/invite/...) to choose a password or join with an existing one. ' +
        `It expires after ${INVITE_DAYS} days and is used once.`,
      responses: { 201: CreatedAdminInvite, 404: null },
    }),
    validParams(AccountIdParam),
    optionalJsonBody(),
    validOptionalBody(AdminInviteInput),
    idempotencyKey(),
    async (c) => {
      const invite = await inviteToAccount(c.get('deps'), { accountId: c.req.valid('param').account_id, ...c.req.valid('json') });
      return c.json({ ...invite, path: `${catalogueEntry('portal').prefix}/invite/${invite.token}` }, 201);
    },
  )
  .post(
    '/projects/:project_id/api-keys',
    describe({
      operationId: 'createApiKey',
      tag,
      auth,
      body: 'json',
      idempotent: true,
      summary: 'Create another API key for a project: a live key, or a read-only delivery key (the body is optional)',
      description:
        'kind "live" (default): key_live_..., every /v1 route. kind "delivery": delivery_..., only GET /v1/cached/... (403 elsewhere), ' +
        'optionally bound to browser origins (a request with another Origin gets 403; one without Origin is served) and to languages.',
      responses: { 201: CreatedApiKey, 404: null },
    }),
    validParams(ProjectIdParam),
    optionalJsonBody(),
    validOptionalBody(CreateApiKeyInput),
    idempotencyKey(),
    async (c) => c.json(await createApiKey(c.get('deps'), { actor: ADMIN, projectId: c.req.valid('param').project_id, ...c.req.valid('json') }), 201),
  )
  .delete(
    '/api-keys/:api_key_id',
    describe({ operationId: 'revokeApiKey', tag, auth, body: 'none', summary: 'Revoke an API key', responses: { 204: null, 404: null } }),
    validParams(v.object({ api_key_id: Uuid })),
    noBody(),
    async (c) => {
      await revokeApiKey(c.get('deps'), { actor: ADMIN, apiKeyId: c.req.valid('param').api_key_id });
      return c.body(null, 204);
    },
  )
  .post(
    '/projects/:project_id/keys/:key_id/restore',
    describe({
      operationId: 'restoreKey',
      tag,
      auth,
      body: 'none',
      summary: 'Restore a soft-deleted key with its values',
      responses: { 200: KeyRecord, 402: null, 404: null, 409: null },
    }),
    validParams(v.object({ project_id: Uuid, key_id: Uuid })),
    noBody(),
    async (c) => {
      const { project_id, key_id } = c.req.valid('param');
      return c.json(await restoreKey(c.get('deps'), { actor: ADMIN, projectId: project_id, keyId: key_id }));
    },
  )
  .post(
    '/projects/:project_id/groups/:group_name/restore',
    describe({
      operationId: 'restoreGroup',
      tag,
      auth,
      body: 'none',
      summary: "Undo a group's last delete",
      responses: { 200: RestoredGroup, 402: null, 404: null, 409: null },
    }),
    validParams(v.object({ project_id: Uuid, group_name: v.string() })),
    noBody(),
    async (c) => {
      const { project_id, group_name } = c.req.valid('param');
      return c.json(await restoreGroup(c.get('deps'), { actor: ADMIN, projectId: project_id, name: group_name }));
    },
  )
  .route('/', webhookRoutes);

export const adminGroup = routeGroup('admin', routes);
