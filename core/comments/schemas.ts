// Comments on a value: the thread of one key in one language (migration 029). docs/decisions.md,
// "Comments on values".
import * as v from 'valibot';
import { storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';

export const COMMENT_MAX_CHARS = 2_000;
/** A thread's length: a conversation about one translation, not a chat room (and a bound for its page). */
export const COMMENTS_PER_VALUE_MAX = 1_000;

/** The body of POST …/comments: the text, trimmed; blank is refused. */
export const AddCommentInput = v.strictObject({
  // Trimmed first: the limit is on what is stored (2,000 characters and a final line break are 2,000).
  text: v.pipe(
    v.string('text must be a string'),
    v.trim(),
    v.check((s) => s.length > 0, 'text must not be blank'),
    storableText('text', COMMENT_MAX_CHARS),
  ),
});

const Slot = { keyId: Uuid, language: LanguageCode } as const;
export const ListCommentsCommand = v.object({ ...InProject, ...Slot });
export const AddCommentCommand = v.object({ ...WriteInProject, ...Slot, ...AddCommentInput.entries });
export const DeleteCommentCommand = v.object({
  ...WriteInProject,
  ...Slot,
  commentId: Uuid,
  /**
   * Only a comment of this author may be deleted (a portal member deleting their own); absent: any
   * comment of the slot (an API key, a project's owner or developer moderating).
   */
  onlyAuthor: v.optional(Uuid),
});

/** The body of PATCH …/comments/{comment_id}: resolve the comment (true) or reopen it (false). */
export const ResolveCommentInput = v.strictObject({
  resolved: v.boolean('resolved must be true or false'),
});
export const ResolveCommentCommand = v.object({ ...WriteInProject, ...Slot, commentId: Uuid, ...ResolveCommentInput.entries });

export const CommentAuthor = v.object({
  type: v.picklist(['user', 'api_key']),
  id: Uuid,
  /** A portal user's email (also after they left the account) or an API key's name, as they are now; null for a key without a name. */
  name: v.nullable(v.string()),
});

export const Comment = v.object({
  id: Uuid,
  key_id: Uuid,
  language: v.string(),
  text: v.string(),
  author: CommentAuthor,
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  /** When it was resolved (the question answered, the remark acted on); null while it is open. */
  resolved_at: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  /** Who resolved it, named as an author is; null while it is open. */
  resolved_by: v.nullable(CommentAuthor),
});
export type Comment = v.InferOutput<typeof Comment>;

export const CommentList = v.object({
  project_id: Uuid,
  key_id: Uuid,
  language: v.string(),
  /** Oldest first. */
  comments: v.array(Comment),
  count: v.number(),
  /** How many of them are not resolved. */
  open: v.number(),
});
export type CommentList = v.InferOutput<typeof CommentList>;
