// The locks a change of a project's source language takes (a settings change, the removal of the
// source language): see below.
import type { Tx } from '../db/transaction.ts';

/**
 * Before a new source language rebuilds the project's translation memory (the trigger on
 * projects.source_language, migration 014), its values in the old and the new language are held
 * still: value writes keep the memory through a trigger that reads the source language as
 * committed, so one running alongside the rebuild would write a memory row by the old language (a
 * text of the old language kept, or the new one missed) or collide with a rebuilt row. The language
 * rows, FOR UPDATE, stop new values of both languages: their foreign-key check (FOR KEY SHARE of the
 * language row) waits for this transaction, before the value's memory row is written, and then its
 * trigger reads the new source language; a value inserted just before holds that check's lock, and
 * this waits for it to commit. The values' rows stop changes and deletions of existing values.
 * A value waiting on a language row holds only its own new row, which nothing here reads or waits
 * for; a batch of values, which could hold more, gives up after its lock timeout and writes them
 * one at a time (core/db/statement-batches.ts); the writers of many values in one transaction
 * (import, machine translation, language removal) take the project row first, and wait before.
 * Project row, then language rows, then values by key id and language: the order of a language
 * removal and of every multi-value write.
 */
export async function lockSourceValues(tx: Tx, projectId: string, languages: string[]): Promise<void> {
  await tx.sql`
    select 1 from project_languages where project_id = ${projectId} and code = any(${languages}::text[]) order by code for update`;
  await tx.sql`
    with locked as (
      select 1 from translations where project_id = ${projectId} and language = any(${languages}::text[])
      order by key_id, language for update
    )
    select count(*) from locked`;
}
