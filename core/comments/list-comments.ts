// GET …/comments: the thread of one value, oldest first. A read: no lock, no event. One statement:
// the slot's checks (as comment-slot.ts makes them) and the comments, each a round trip otherwise.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { commentAuthors, commentColumns, toComment, type CommentRow } from './comment-rows.ts';
import { ListCommentsCommand, type CommentList } from './schemas.ts';

type Row = { key_found: boolean; registered: boolean; comments: CommentRow[] };

export const listComments = useCase(ListCommentsCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<CommentList> => {
  const { projectId, keyId, language } = input;
  // The key by its primary key alone, its project checked on the row (core/keys/by-id.ts).
  const [row] = await deps.sql<Row[]>`
    select k.project_id = ${projectId} and k.deleted_at is null as key_found,
           exists (select 1 from project_languages where project_id = ${projectId} and code = ${language}) as registered,
           coalesce((
             select json_agg(c order by c.written, c.id) from (
               select ${commentColumns(deps.sql)}, c.created_at as written
               from value_comments c ${commentAuthors(deps.sql)}
               where c.key_id = ${keyId} and c.language = ${language} and c.project_id = ${projectId}) c
           ), '[]') as comments
    from (select * from translation_keys where id = ${keyId} offset 0) k`;
  if (!row?.key_found) throw keyNotFound();
  if (!row.registered) throw languageNotRegistered(language);
  const comments = row.comments.map(toComment);
  return { project_id: projectId, key_id: keyId, language, comments, count: comments.length, open: comments.filter((c) => c.resolved_at === null).length };
});
