// GET …/comments: the thread of one value, oldest first. A read: no lock, no event.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { checkSlot } from './comment-slot.ts';
import { commentAuthors, commentColumns, toComment, type CommentRow } from './comment-rows.ts';
import { ListCommentsCommand, type CommentList } from './schemas.ts';

export const listComments = useCase(ListCommentsCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<CommentList> => {
  const { projectId, keyId, language } = input;
  await checkSlot(deps.sql, projectId, keyId, language);
  const rows = await deps.sql<CommentRow[]>`
    select ${commentColumns(deps.sql)}
    from value_comments c ${commentAuthors(deps.sql)}
    where c.key_id = ${keyId} and c.language = ${language} and c.project_id = ${projectId}
    order by c.created_at, c.id`;
  const comments = rows.map(toComment);
  return { project_id: projectId, key_id: keyId, language, comments, count: comments.length };
});
