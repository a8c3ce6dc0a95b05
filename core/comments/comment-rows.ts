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
  resolved_at: string | null;
  resolved_by_type: 'user' | 'api_key' | null;
  resolved_by_id: string | null;
  resolved_by_name: string | null;
};

/**
 * Select list over `c` (value_comments), `u` and `a` (the author's users and api_keys row) and `ru`
 * and `ra` (the resolver's), joined by commentAuthors.
 */
export const commentColumns = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`c.id, c.key_id, c.language, c.text, c.author_type, c.author_id::text as author_id,
      case c.author_type when 'user' then u.email else a.name end as author_name, ${isoUtc(sql, 'c.created_at')} as created_at,
      ${isoUtc(sql, 'c.resolved_at')} as resolved_at, c.resolved_by_type, c.resolved_by_id::text as resolved_by_id,
      case c.resolved_by_type when 'user' then ru.email else ra.name end as resolved_by_name`;

/** The joins commentColumns reads the authors' and resolvers' names from. */
export const commentAuthors = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`left join users u on c.author_type = 'user' and u.id = c.author_id
      left join api_keys a on c.author_type = 'api_key' and a.id = c.author_id
      left join users ru on c.resolved_by_type = 'user' and ru.id = c.resolved_by_id
      left join api_keys ra on c.resolved_by_type = 'api_key' and ra.id = c.resolved_by_id`;

export const toComment = (r: CommentRow): Comment => ({
  id: r.id,
  key_id: r.key_id,
  language: r.language,
  text: r.text,
  author: { type: r.author_type, id: r.author_id, name: r.author_name },
  created_at: r.created_at,
  resolved_at: r.resolved_at,
  resolved_by: r.resolved_by_type === null || r.resolved_by_id === null ? null : { type: r.resolved_by_type, id: r.resolved_by_id, name: r.resolved_by_name },
});
