// How a comment is read: its author's name joined as it is now (an API key renamed since shows its
// new name, a removed user none), its time as ISO 8601 UTC.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import type { Comment } from './schemas.ts';

export type CommentRow = {
  id: string;
  key_id: string;
  language: string;
  text: string;
  author_type: 'user' | 'api_key';
  author_id: string;
  author_name: string | null;
  created_at: string;
};

/** Select list over `c` (value_comments), `u` (users) and `a` (api_keys) joined by commentAuthors. */
export const commentColumns = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`c.id, c.key_id, c.language, c.text, c.author_type, c.author_id::text as author_id,
      case c.author_type when 'user' then u.email else a.name end as author_name, ${isoUtc(sql, 'c.created_at')} as created_at`;

/** The joins commentColumns reads the authors' names from. */
export const commentAuthors = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`left join users u on c.author_type = 'user' and u.id = c.author_id
      left join api_keys a on c.author_type = 'api_key' and a.id = c.author_id`;

export const toComment = (r: CommentRow): Comment => ({
  id: r.id,
  key_id: r.key_id,
  language: r.language,
  text: r.text,
  author: { type: r.author_type, id: r.author_id, name: r.author_name },
  created_at: r.created_at,
});
