import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { noBody, requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { GroupList, RenamedGroup, RenameGroupInput, ValidatedGroup, ValidateGroupInput } from '../../core/groups/schemas.ts';
import { listGroups } from '../../core/groups/list-groups.ts';
import { validateGroup } from '../../core/groups/validate-group.ts';
import { renameGroup } from '../../core/groups/rename-group.ts';
import { deleteGroup } from '../../core/groups/delete-group.ts';

const tag = 'Groups';

// A path name that could never be a group (bad characters, too long) simply does not exist: core
// answers 404 for it, so the path takes any string.
const GroupNameParam = v.object({ group_name: v.string() });

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get('/', describe({ operationId: 'listGroups', tag, input: false, summary: 'List groups with live keys', responses: { 200: GroupList } }), async (c) =>
    c.json(await listGroups(c.get('deps'), { projectId: c.get('principal').projectId })),
  )
  .post(
    '/',
    describe({ operationId: 'validateGroup', tag, body: 'json', summary: 'Check that a group name is valid and free', responses: { 201: ValidatedGroup, 409: null } }),
    requireJsonBody(),
    validBody(ValidateGroupInput),
    async (c) => c.json(await validateGroup(c.get('deps'), { projectId: c.get('principal').projectId, name: c.req.valid('json').name }), 201),
  )
  .patch(
    '/:group_name',
    describe({
      operationId: 'renameGroup',
      tag,
      body: 'json',
      summary: 'Rename a group (all its keys, atomically)',
      responses: { 200: RenamedGroup, 404: null, 409: null },
    }),
    validParams(GroupNameParam),
    requireJsonBody(),
    validBody(RenameGroupInput),
    async (c) => {
      const { group_name } = c.req.valid('param');
      return c.json(await renameGroup(c.get('deps'), { ...keyScope(c), name: group_name, newName: c.req.valid('json').new_name }));
    },
  )
  .delete(
    '/:group_name',
    describe({ operationId: 'deleteGroup', tag, body: 'none', summary: 'Soft-delete every key of a group', responses: { 204: null, 404: null } }),
    validParams(GroupNameParam),
    noBody(),
    async (c) => {
      await deleteGroup(c.get('deps'), { ...keyScope(c), name: c.req.valid('param').group_name });
      return c.body(null, 204);
    },
  );

export const groupsGroup = routeGroup('groups', routes);
