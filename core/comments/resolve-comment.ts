// PATCH …/comments/{comment_id} {resolved}: marks a comment resolved (the question answered, the
// remark acted on) or open again. It stays in the thread either way; who resolved it and when are
// kept. Recorded as comment.resolved or comment.reopened (Activity), naming the value and the
// comment's author, not its text (add-comment.ts says why). Asking for the state the comment is
// already in changes nothing and records nothing: the first resolver stays named.
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { checkSlot } from './comment-slot.ts';
import { commentNotFound } from './delete-comment.ts';
import { commentAuthors, commentColumns, toComment, type CommentRow } from './comment-rows.ts';
import { ResolveCommentCommand, type Comment } from './schemas.ts';

export const resolveComment = useCase(ResolveCommentCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Comment> => {
  const { projectId, keyId, language, commentId, resolved, actor } = input;
  // Named beside the comment as its author is: a member or an API key.
  if (actor.type !== 'user' && actor.type !== 'api_key') throw new AppError('forbidden', 'Only a portal member or an API key can resolve a comment');
  return transaction(deps, async (tx) => {
    await checkSlot(tx.sql, projectId, keyId, language);
    // Changed only when its state differs (the row locked by the update, so two resolvers at once
    // are one change and one event); then read back with the names.
    const changed = await tx.sql<{ author_type: string; author_id: string }[]>`
      update value_comments set
        resolved_at = ${resolved ? tx.sql`now()` : null},
        resolved_by_type = ${resolved ? actor.type : null},
        resolved_by_id = ${resolved ? actor.id : null}
      where id = ${commentId} and key_id = ${keyId} and language = ${language} and project_id = ${projectId}
        and (resolved_at is null) = ${resolved}
      returning author_type, author_id::text`;
    const [row] = await tx.sql<CommentRow[]>`
      select ${commentColumns(tx.sql)} from value_comments c ${commentAuthors(tx.sql)}
      where c.id = ${commentId} and c.key_id = ${keyId} and c.language = ${language} and c.project_id = ${projectId}`;
    if (!row) throw commentNotFound();
    const [by] = changed;
    if (by) {
      tx.record({
        type: resolved ? 'comment.resolved' : 'comment.reopened',
        projectId,
        actor,
        entity: { type: 'comment', id: row.id },
        after: { key_id: keyId, language, author_type: by.author_type, author_id: by.author_id },
      });
    }
    return toComment(row);
  });
});
