// The slot a comment belongs to: a live key of the project and one of the project's languages. The
// same 404s as the value's own routes: the key first, then the language.
import type { Sql, TransactionSql } from '../db/client.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';

/**
 * Checks the slot and answers how many comments it holds. `lock`: the key's row is locked (FOR NO
 * KEY UPDATE, which the value writes' foreign-key checks do not wait for), so that two comments
 * added at once are counted one after the other against the thread's cap. The key is found by its
 * primary key alone and its project checked on the row (core/keys/by-id.ts).
 */
export async function checkSlot(sql: Sql | TransactionSql, projectId: string, keyId: string, language: string, lock = false): Promise<{ comments: number }> {
  const [key] = await sql<{ project_id: string; deleted: boolean }[]>`
    select k.project_id, k.deleted_at is not null as deleted
    from (select * from translation_keys where id = ${keyId} offset 0 ${lock ? sql`for no key update` : sql``}) k`;
  if (!key || key.project_id !== projectId || key.deleted) throw keyNotFound();
  const [slot] = await sql<{ registered: boolean; comments: number }[]>`
    select exists (select 1 from project_languages where project_id = ${projectId} and code = ${language}) as registered,
           (select count(*) from value_comments where key_id = ${keyId} and language = ${language})::int as comments`;
  if (!slot?.registered) throw languageNotRegistered(language);
  return { comments: slot.comments };
}
