import type { Deps } from '../deps.ts';
import { notFound, validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { lockSourceValues } from '../projects/lock-source-values.ts';
import { useCase } from '../use-case.ts';
import { fallbackIssues, type Fallbacks } from '../projects/fallbacks.ts';
import { UpdateProjectCommand, type Project } from './schemas.ts';

export const updateProject = useCase(UpdateProjectCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Project> =>
  transaction(deps, async (tx) => {
    // FOR NO KEY UPDATE, as every structural lock of the project row (core/projects/lock-project.ts):
    // it excludes the other settings changes, language removals and imports all the same, but not the
    // foreign-key checks of writes that take no project lock (a key created without a limit; until
    // migration 045, the first source-language value of a key inserting its memory row). Under FOR
    // UPDATE such a value waited here holding its memory row, which the rebuild below then waited
    // for: a deadlock, a 500 (test/accounts/lock-order.test.ts).
    const [before] = await tx.sql<{ auto_rebuild: boolean; fallbacks: Fallbacks; source_language: string; quality_blocking: string[] }[]>`
      select auto_rebuild, fallbacks, source_language, quality_blocking from projects where id = ${input.projectId} for no key update`;
    if (!before) throw notFound('Project not found');
    if (input.fallbacks !== undefined) {
      // Checked against the languages as they are in this transaction: a language removed
      // concurrently waits for the project row (remove-language locks it too) and is seen here.
      const rows = await tx.sql<{ code: string }[]>`select code from project_languages where project_id = ${input.projectId}`;
      const issues = fallbackIssues(input.fallbacks, new Set(rows.map((r) => r.code)), ['body', 'fallbacks']);
      if (issues.length) throw validationError(issues);
    }
    // Only a change is checked: a form that sends the settings as shown (the portal's Quality form)
    // sends the source language as it is, which is not a registered one before the project's first
    // language (English by default) and must not refuse the rest of the form.
    if (input.source_language !== undefined && input.source_language !== before.source_language) {
      const [registered] = await tx.sql`select 1 from project_languages where project_id = ${input.projectId} and code = ${input.source_language}`;
      if (!registered) throw validationError([{ loc: ['body', 'source_language'], msg: `${input.source_language} is not a language of this project`, type: 'value' }]);
      await lockSourceValues(tx, input.projectId, [before.source_language, input.source_language]);
    }
    const fallbacks = input.fallbacks === undefined ? null : JSON.stringify(input.fallbacks);
    const [row] = await tx.sql<Project[]>`
      update projects set
        auto_rebuild = coalesce(${input.auto_rebuild ?? null}::boolean, auto_rebuild),
        fallbacks = coalesce(${fallbacks}::text::jsonb, fallbacks),
        source_language = coalesce(${input.source_language ?? null}::text, source_language),
        quality_blocking = coalesce(${input.quality_blocking ?? null}::text[], quality_blocking)
      where id = ${input.projectId}
      returning id, account_id, name, auto_rebuild, fallbacks, source_language, quality_blocking`;
    const changed = (name: 'auto_rebuild' | 'fallbacks' | 'source_language' | 'quality_blocking') => input[name] !== undefined;
    tx.record({
      type: 'project.updated',
      projectId: input.projectId,
      actor: input.actor,
      entity: { type: 'project', id: input.projectId },
      before: {
        ...(changed('auto_rebuild') ? { auto_rebuild: before.auto_rebuild } : {}),
        ...(changed('fallbacks') ? { fallbacks: before.fallbacks } : {}),
        ...(changed('source_language') ? { source_language: before.source_language } : {}),
        ...(changed('quality_blocking') ? { quality_blocking: before.quality_blocking } : {}),
      },
      after: {
        ...(changed('auto_rebuild') ? { auto_rebuild: row!.auto_rebuild } : {}),
        ...(changed('fallbacks') ? { fallbacks: row!.fallbacks } : {}),
        ...(changed('source_language') ? { source_language: row!.source_language } : {}),
        ...(changed('quality_blocking') ? { quality_blocking: row!.quality_blocking } : {}),
      },
    });
    return row!;
  }),
);
