// DELETE …/comments/{comment_id}: removes one comment for good, recorded as comment.deleted with its
// author but not its text (add-comment.ts says why). A comment of another slot, another project
// or (onlyAuthor) another author is not found: the caller learns nothing of it.
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { checkSlot } from './comment-slot.ts';
import { DeleteCommentCommand } from './schemas.ts';

export const commentNotFound = () => notFound('Comment not found');

export const deleteComment = useCase(DeleteCommentCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    const { projectId, keyId, language, commentId } = input;
    await checkSlot(tx.sql, projectId, keyId, language);
    const [removed] = await tx.sql<{ author_type: string; author_id: string }[]>`
      delete from value_comments
      where id = ${commentId} and key_id = ${keyId} and language = ${language} and project_id = ${projectId}
        ${input.onlyAuthor === undefined ? tx.sql`` : tx.sql`and author_type = 'user' and author_id = ${input.onlyAuthor}`}
      returning author_type, author_id::text`;
    if (!removed) throw commentNotFound();
    tx.record({
      type: 'comment.deleted',
      projectId,
      actor: input.actor,
      entity: { type: 'comment', id: commentId },
      before: { key_id: keyId, language, author_type: removed.author_type, author_id: removed.author_id },
    });
  }),
);
