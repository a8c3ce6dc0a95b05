import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam } from '../http/params.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { KeyItem, KeyRecord, CreateKeyInput, KeyList, ListKeysQuery, UpdatedKey, UpdateKeyInput } from '../../core/keys/schemas.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { getKey } from '../../core/keys/get-key.ts';
import { BulkDeleted, BulkDeleteKeysInput, bulkDeleteKeys } from '../../core/keys/bulk-delete-keys.ts';
import { BulkStatusInput, BulkStatusResult, bulkSetStatus } from '../../core/keys/bulk-set-status.ts';
import { BulkTagged, BulkTagInput, bulkTagKeys } from '../../core/keys/bulk-tag-keys.ts';
import { BULK_MAX_KEYS } from '../../core/keys/key-selection.ts';
import { TAGS_PER_KEY_MAX } from '../../core/keys/tags.ts';
import { readTagList, TagList } from '../../core/keys/list-tags.ts';
import { LIVE_RESPONSES, liveResponse } from '../http/live-response.ts';
import { deleteTag, renameTag, RenameTagInput, TagDeleted, TagRenamed } from '../../core/keys/project-tags.ts';
import * as v from 'valibot';
import { createKey } from '../../core/keys/create-key.ts';
import { updateKey } from '../../core/keys/update-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { translationValueRoutes } from './translation-routes.ts';
import { suggestionRoutes } from './suggestion-routes.ts';
import { commentRoutes } from './comment-routes.ts';
import { respondJson } from '../http/response-headers.ts';

const tag = 'Keys';

// A path text that could never be a tag is on no key: core answers 404 for it (as for a group name).
const TagParam = v.object({ tag: v.string() });

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/',
    describe({
      operationId: 'listKeys',
      tag,
      summary: 'List live keys: search, filters, and cursor pages when limit or cursor is given',
      description:
        'Keys in name order. Filters (all optional, combined with AND): search (case-insensitive substring of the key name or of any of its ' +
        'values), group, tag (keys with this tag, exact), status (a value of this status, in language when given), language (a value in this language), missing (no value in ' +
        'this language), outdated (its value in this language predates its source text), open_comments (a comment in this language not resolved yet). Without limit and cursor every match is listed, as the spec\'s listing; with either, one page of limit keys (1 to ' +
        '500, default 100) and next_cursor (null on the last page): pass it back unchanged as cursor with the same filters. A query ' +
        'parameter this operation does not know is a 422 naming it, so a misspelt filter never lists every key.',
      responses: { 200: KeyList },
    }),
    validQuery(ListKeysQuery),
    async (c) => c.json(await listKeys(c.get('deps'), { projectId: c.get('principal').projectId, ...c.req.valid('query') })),
  )
  .get(
    '/tags',
    describe({
      operationId: 'listTags',
      tag,
      input: false,
      summary: "The project's tags, each with how many live keys have it",
      description:
        'Tags in name order. Filter keys by one with GET /v1/keys?tag=...; change them with PATCH /v1/keys/{key_id} or POST /v1/keys/bulk-tags; ' +
        'rename or delete one on every key with PATCH or DELETE /v1/keys/tags/{tag}. Live: a strong ETag, and If-None-Match answers 304 while the project is unchanged.',
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: TagList, ...LIVE_RESPONSES }, 304: LIVE_RESPONSES },
    }),
    async (c) => liveResponse(c, await readTagList(c.get('deps'), { projectId: c.get('principal').projectId })),
  )
  .patch(
    '/tags/:tag',
    describe({
      operationId: 'renameTag',
      tag,
      body: 'json',
      summary: 'Rename a tag on every key that has it',
      description:
        'Body: name (the new tag, 1 to 100 characters, no comma). A key that already has the new name keeps it once. Keys in the trash are renamed too. ' +
        "200 body: project_id, from, to, changed (live keys renamed). 404 when no live key has the tag (a retry after success: the old name is gone). Not content: no rebuild.",
      responses: { 200: TagRenamed, 404: null },
    }),
    validParams(TagParam),
    requireJsonBody(),
    validBody(RenameTagInput),
    async (c) => c.json(await renameTag(c.get('deps'), { ...keyScope(c), tag: c.req.valid('param').tag, name: c.req.valid('json').name })),
  )
  .delete(
    '/tags/:tag',
    describe({
      operationId: 'deleteTag',
      tag,
      body: 'none',
      summary: 'Take a tag off every key that has it',
      description: 'Keys in the trash lose it too. 200 body: project_id, tag, changed (live keys changed). 404 when no live key has the tag. Deletes no key.',
      responses: { 200: TagDeleted, 404: null },
    }),
    validParams(TagParam),
    noBody(),
    async (c) => c.json(await deleteTag(c.get('deps'), { ...keyScope(c), tag: c.req.valid('param').tag })),
  )
  .get(
    '/:key_id',
    describe({ operationId: 'getKey', tag, summary: 'One live key, as an item of the listing', responses: { 200: KeyItem, 404: null } }),
    validParams(KeyIdParam),
    async (c) => c.json(await getKey(c.get('deps'), { projectId: c.get('principal').projectId, keyId: c.req.valid('param').key_id })),
  )
  .post(
    '/bulk-delete',
    describe({
      operationId: 'bulkDeleteKeys',
      tag,
      body: 'json',
      idempotent: true,
      summary: `Soft-delete many keys at once: key_ids (up to ${BULK_MAX_KEYS}) or a filter (as the listing's), all or nothing`,
      description:
        'Body: key_ids (list of key ids) or filter (an object with the listing\'s filter fields). Every key id must be a live key of the ' +
        `project (404 naming the others, nothing deleted); a filter matching more than ${BULK_MAX_KEYS} keys is a 422. Deleted keys are ` +
        'restorable like single deletes. 200 body: project_id, deleted (how many).',
      responses: { 200: BulkDeleted, 404: null },
    }),
    requireJsonBody(),
    validBody(BulkDeleteKeysInput),
    idempotencyKey(),
    async (c) => c.json(await bulkDeleteKeys(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') })),
  )
  .post(
    '/bulk-status',
    describe({
      operationId: 'bulkSetStatus',
      tag: 'Translations',
      body: 'json',
      idempotent: true,
      summary: "Set the status of many keys' values in some languages at once, all or nothing",
      description:
        'Body: key_ids or filter (as bulk-delete), languages (registered codes), status (draft, review or approved), and optionally ' +
        'expected_versions: [{key_id, language, version}] as read (the ETags of the values). Any of those not at its version any more is a ' +
        '412 listing them, and nothing changes. Values already in that status and keys without a value are left as they are. 200 body: ' +
        'project_id, status, changed (how many values changed), values (their new versions).',
      responses: { 200: BulkStatusResult, 404: null, 412: null },
    }),
    requireJsonBody(),
    validBody(BulkStatusInput),
    idempotencyKey(),
    async (c) => c.json(await bulkSetStatus(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') })),
  )
  .post(
    '/bulk-tags',
    describe({
      operationId: 'bulkTagKeys',
      tag,
      body: 'json',
      idempotent: true,
      summary: 'Add and remove tags on many keys at once, all or nothing',
      description:
        'Body: key_ids or filter (as bulk-delete), add (tags every selected key gets) and/or remove (tags taken off every selected key). ' +
        `A key that would have more than ${TAGS_PER_KEY_MAX} tags refuses the whole action (422). Keys that already are as asked are left ` +
        'as they are. 200 body: project_id, changed (how many keys\' tags changed).',
      responses: { 200: BulkTagged, 404: null },
    }),
    requireJsonBody(),
    validBody(BulkTagInput),
    idempotencyKey(),
    async (c) => c.json(await bulkTagKeys(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') })),
  )
  .post(
    '/',
    describe({
      operationId: 'createKey',
      tag,
      body: 'json',
      idempotent: true,
      summary: 'Create a key',
      description:
        `Body: key, group_name (default Default), description, tags (up to ${TAGS_PER_KEY_MAX}; each 1 to 100 characters, no comma), ` +
        'max_length (the most characters a value of the key should have, 1 to 10000, or null for no limit: the quality check max_length).',
      responses: { 201: KeyRecord, 402: null, 409: null },
    }),
    requireJsonBody(),
    validBody(CreateKeyInput),
    idempotencyKey(),
    async (c) => respondJson(c, await createKey(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') }), 201),
  )
  .patch(
    '/:key_id',
    describe({ operationId: 'updateKey', tag, body: 'json', summary: "Change a key's group, description, tags (the whole new set) or character limit (max_length, null for none)", responses: { 200: UpdatedKey, 404: null } }),
    validParams(KeyIdParam),
    requireJsonBody(),
    validBody(UpdateKeyInput),
    async (c) =>
      c.json(await updateKey(c.get('deps'), { ...keyScope(c), keyId: c.req.valid('param').key_id, ...c.req.valid('json') })),
  )
  .delete(
    '/:key_id',
    describe({ operationId: 'deleteKey', tag, body: 'none', summary: 'Soft-delete a key and its values', responses: { 204: null, 404: null } }),
    validParams(KeyIdParam),
    noBody(),
    async (c) => {
      await deleteKey(c.get('deps'), { ...keyScope(c), keyId: c.req.valid('param').key_id });
      return c.body(null, 204);
    },
  )
  .route('/', translationValueRoutes)
  .route('/', suggestionRoutes)
  .route('/', commentRoutes);

export const keysGroup = routeGroup('keys', routes);
