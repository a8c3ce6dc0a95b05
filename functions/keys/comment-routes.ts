// Comments on one value (core/comments), mounted inside the keys router (which applies apiKeyAuth
// and the daily quota). An API key speaks for its project: it may delete (or resolve) any comment
// there, as a project's owner or developer may in the portal.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam, LanguageParam } from '../http/params.ts';
import { keyScope } from '../http/api-key-auth.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { noBody, requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { respondJson } from '../http/response-headers.ts';
import { Uuid } from '../../core/validation.ts';
import { AddCommentInput, Comment, COMMENT_MAX_CHARS, COMMENTS_PER_VALUE_MAX, CommentList, ResolveCommentInput } from '../../core/comments/schemas.ts';
import { listComments } from '../../core/comments/list-comments.ts';
import { addComment } from '../../core/comments/add-comment.ts';
import { deleteComment } from '../../core/comments/delete-comment.ts';
import { resolveComment } from '../../core/comments/resolve-comment.ts';

const tag = 'Comments';
const SlotParams = v.object({ ...KeyIdParam.entries, ...LanguageParam.entries });
const CommentParams = v.object({ ...SlotParams.entries, comment_id: Uuid });

export const commentRoutes = new Hono<AppEnv>()
  .get(
    '/:key_id/translations/:language/comments',
    describe({
      operationId: 'listComments',
      tag,
      summary: 'The comments on a key in one language, oldest first',
      description:
        'A thread belongs to the key and language, not to a text: it stays when the value is rewritten or deleted, and may start before ' +
        "the first translation. Each comment names its author as it is now: a portal member's email (also after they left the account) " +
        'or an API key\'s name (null when it has none). 404 when the key is not a live key of the project or the language is not registered.',
      responses: { 200: CommentList, 404: null },
    }),
    validParams(SlotParams),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      return c.json(await listComments(c.get('deps'), { projectId: c.get('principal').projectId, keyId: key_id, language }));
    },
  )
  .post(
    '/:key_id/translations/:language/comments',
    describe({
      operationId: 'addComment',
      tag,
      body: 'json',
      idempotent: true,
      summary: `Comment on a key in one language (text: 1 to ${COMMENT_MAX_CHARS.toLocaleString('en-US')} characters, trimmed)`,
      description:
        `At most ${COMMENTS_PER_VALUE_MAX.toLocaleString('en-US')} comments per key and language (422 beyond). A comment changes nothing served: ` +
        'no rebuild, no translations.changed; a webhook subscribed to comment.added gets it, and the project\'s activity records it.',
      responses: { 201: Comment, 404: null },
    }),
    validParams(SlotParams),
    requireJsonBody(),
    validBody(AddCommentInput),
    idempotencyKey(),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      return respondJson(c, await addComment(c.get('deps'), { ...keyScope(c), keyId: key_id, language, ...c.req.valid('json') }), 201);
    },
  )
  .patch(
    '/:key_id/translations/:language/comments/:comment_id',
    describe({
      operationId: 'resolveComment',
      tag,
      body: 'json',
      summary: 'Resolve a comment ({"resolved": true}) or reopen it ({"resolved": false})',
      description:
        'A resolved comment stays in the thread, with resolved_at and resolved_by (who resolved it, named as an author is); reopening clears both. ' +
        'Asking for the state the comment is already in changes nothing and records nothing (the first resolver stays named). ' +
        "Recorded in the project's activity as comment.resolved or comment.reopened; nothing served changes. " +
        '`GET /v1/keys?open_comments={language}` lists the keys with open comments in a language.',
      responses: { 200: Comment, 404: null },
    }),
    validParams(CommentParams),
    requireJsonBody(),
    validBody(ResolveCommentInput),
    async (c) => {
      const { key_id, language, comment_id } = c.req.valid('param');
      return respondJson(c, await resolveComment(c.get('deps'), { ...keyScope(c), keyId: key_id, language, commentId: comment_id, ...c.req.valid('json') }), 200);
    },
  )
  .delete(
    '/:key_id/translations/:language/comments/:comment_id',
    describe({
      operationId: 'deleteComment',
      tag,
      body: 'none',
      summary: 'Delete a comment for good (the activity log records who deleted whose comment, not its text)',
      responses: { 204: null, 404: null },
    }),
    validParams(CommentParams),
    noBody(),
    async (c) => {
      const { key_id, language, comment_id } = c.req.valid('param');
      await deleteComment(c.get('deps'), { ...keyScope(c), keyId: key_id, language, commentId: comment_id });
      return c.body(null, 204);
    },
  );
