// POST …/comments: a comment on one value (core/comments/schemas.ts). It changes nothing served:
// recorded as comment.added (Activity; the comment.added webhook, core/webhooks/dispatch-outbox.ts),
// no rebuild, no translations.changed. The event names the value, not the
// text: a deleted comment is gone, from Activity too (a password pasted by mistake, a remark
// taken back), and the thread is where a comment is read.
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { checkSlot } from './comment-slot.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { commentAuthors, commentColumns, toComment, type CommentRow } from './comment-rows.ts';
import { AddCommentCommand, COMMENTS_PER_VALUE_MAX, type Comment } from './schemas.ts';

export const addComment = useCase(AddCommentCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Comment> => {
  const { projectId, keyId, language, text, actor } = input;
  // Someone who can be named and answered: a member or an API key (the admin token and tms's own
  // parts do not take part in a conversation).
  if (actor.type !== 'user' && actor.type !== 'api_key') throw new AppError('forbidden', 'Only a portal member or an API key can comment');
  return transaction(deps, async (tx) => {
    const { comments } = await checkSlot(tx.sql, projectId, keyId, language, true);
    if (comments >= COMMENTS_PER_VALUE_MAX) {
      throw new AppError('validation', `This value already has ${COMMENTS_PER_VALUE_MAX.toLocaleString('en-US')} comments, the most one value keeps: delete some before adding more`, {
        issues: [{ loc: ['path', 'language'], msg: `at most ${COMMENTS_PER_VALUE_MAX} comments per value`, type: 'value' }],
      });
    }
    const [row] = await tx.sql<CommentRow[]>`
      with c as (
        insert into value_comments (project_id, key_id, language, text, author_type, author_id)
        values (${projectId}, ${keyId}, ${language}, ${text}, ${actor.type}, ${actor.id})
        returning *
      )
      select ${commentColumns(tx.sql)} from c ${commentAuthors(tx.sql)}`.catch((error: unknown) => {
      // The slot was checked on a snapshot: a language removed (or a project deleted) since surfaces
      // at the foreign-key check as 23503, which is "not there" for the caller, as for a PUT.
      const e = error as { code?: unknown; constraint_name?: unknown } | null;
      if (e?.code === '23503') throw String(e.constraint_name ?? '').includes('language') ? languageNotRegistered(language) : keyNotFound();
      throw error;
    });
    const comment = toComment(row!);
    tx.record({
      type: 'comment.added',
      projectId,
      actor,
      entity: { type: 'comment', id: comment.id },
      after: { key_id: keyId, language },
    });
    return comment;
  });
});
