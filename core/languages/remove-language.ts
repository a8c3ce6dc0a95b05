import type { Deps } from '../deps.ts';
import { AppError, notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { RemoveLanguageCommand, type RemovedLanguage, type ShownValues } from './schemas.ts';
import { shownValuesColumns } from './value-counts.ts';
import { withoutLanguage, type Fallbacks } from '../projects/fallbacks.ts';
import { lockSourceValues } from '../projects/lock-source-values.ts';

export const languageNotRegistered = (code: string) => notFound(`Language '${code}' is not registered for this project`);

/** The values changed since a confirmation counted them: nothing was removed; `now` is what it would delete. */
export class LanguageValuesChanged extends AppError {
  readonly now: ShownValues;
  constructor(code: string, now: ShownValues) {
    super('precondition_failed', `The values of ${code} changed since they were counted: it now holds ${now.values}. Nothing was removed.`);
    this.now = now;
  }
}

/**
 * Unregisters a language and permanently deletes its values across all keys (also those kept for
 * soft-deleted keys: they are counted in translations_deleted). With `shown` (the portal's
 * confirmation, which said how many values it would delete), only those: a value written, changed
 * or deleted since is a LanguageValuesChanged (412) and nothing is removed.
 */
export const removeLanguage = useCase(RemoveLanguageCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<RemovedLanguage> =>
  transaction(deps, async (tx) => {
    const { projectId, code } = input;
    // The project row first, as the fallbacks update takes it: a chain naming this language cannot
    // be saved between the check below and the removal. Not FOR UPDATE, which would also hold up
    // the foreign-key checks of writes that take no project lock (see lock-project.ts).
    const [project] = await tx.sql<{ fallbacks: Fallbacks; source_language: string }[]>`
      select fallbacks, source_language from projects where id = ${projectId} for no key update`;
    const [registered] = await tx.sql`
      select 1 from project_languages where project_id = ${projectId} and code = ${code} for update`;
    if (!registered) throw languageNotRegistered(code);
    // The source language removed: the project's first remaining language takes its place (the
    // rule a project without its source language follows when it adds one, and migration 014's),
    // else memory, machine translation and checks would stop without a word, in a state a PATCH
    // of the source refuses to make. Its values are held still as for a PATCH of the source (lock-source-values.ts),
    // before this removal's own value locks: language rows, then values, as every such change.
    const [successor] =
      project?.source_language === code
        ? await tx.sql<{ code: string }[]>`
            select code from project_languages where project_id = ${projectId} and code <> ${code} order by added_at, code limit 1`
        : [];
    if (successor) await lockSourceValues(tx, projectId, [code, successor.code]);
    // Its values locked in key order first, the order every multi-value write takes (bulk status
    // changes, imports, the value batches); in the delete's own order (the index's, by status) a
    // bulk status change of some of them could deadlock with it (test/keys/lock-order.test.ts).
    // The language's row is locked (above): no value of it can be written until this commits, so
    // the values counted here are the ones deleted below.
    const [now] = await tx.sql<ShownValues[]>`
      select ${shownValuesColumns(tx.sql)}
      from (select key_id, version from translations where project_id = ${projectId} and language = ${code} order by key_id for update) v`;
    if (input.shown && (input.shown.values !== now!.values || input.shown.digest !== now!.digest)) throw new LanguageValuesChanged(code, now!);
    const [row] = await tx.sql<{ count: number }[]>`
      with deleted as (delete from translations where project_id = ${projectId} and language = ${code} returning 1)
      select count(*)::int as count from deleted`;
    await tx.sql`delete from project_languages where project_id = ${projectId} and code = ${code}`;
    tx.record({ type: 'language.removed', projectId, actor: input.actor, entity: { type: 'language', id: code }, before: { values: row!.count } });
    // Fallback chains name registered languages only: the language leaves every chain, and its own
    // chain goes, in this same transaction.
    const before = project?.fallbacks ?? {};
    const after = withoutLanguage(before, code);
    const chainsChanged = JSON.stringify(after) !== JSON.stringify(before);
    if (chainsChanged || successor) {
      // The source language's change sets off the memory's rebuild from the successor's values
      // (the trigger on projects.source_language, migration 014).
      await tx.sql`
        update projects set fallbacks = ${JSON.stringify(after)}::text::jsonb, source_language = ${successor?.code ?? project!.source_language}
        where id = ${projectId}`;
      tx.record({
        type: 'project.updated',
        projectId,
        actor: input.actor,
        entity: { type: 'project', id: projectId },
        before: { ...(chainsChanged ? { fallbacks: before } : {}), ...(successor ? { source_language: code } : {}) },
        after: { ...(chainsChanged ? { fallbacks: after } : {}), ...(successor ? { source_language: successor.code } : {}) },
      });
    }
    return { project_id: projectId, code, translations_deleted: row!.count, deleted: true };
  }),
);
