import type { Deps } from '../deps.ts';
import { conflict, planLimit } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { lockProject } from '../projects/lock-project.ts';
import { LanguageCommand, type AddedLanguage } from './schemas.ts';

export const addLanguage = useCase(LanguageCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<AddedLanguage> =>
  transaction(deps, async (tx) => {
    const { projectId, code } = input;
    const { plan, limits } = await lockProject(tx.sql, projectId);
    const [row] = await tx.sql<{ count: number; present: boolean }[]>`
      select count(*)::int as count, coalesce(bool_or(code = ${code}), false) as present
      from project_languages where project_id = ${projectId}`;
    if (row!.present) throw conflict(`Language '${code}' is already registered`);
    const limit = limits.languagesPerProject;
    if (limit !== null && row!.count >= limit) {
      throw planLimit(
        `Language limit reached: the ${plan} plan allows ${limit} languages per project. Upgrade the plan to add more.`,
        { resource: 'languages', plan, limit, current: row!.count, adding: 1 },
      );
    }
    await tx.sql`insert into project_languages (project_id, code) values (${projectId}, ${code})`;
    // A project starts with English as its source language (translation memory, machine
    // translation and quality checks compare with it). One that registers languages without it
    // takes its first one instead, as migration 014 did for the projects it found: else a de/fr
    // project would silently get no memory and no checks. Only while the source is not one of the
    // project's languages: nothing can be stored in it then, so no memory row moves (the projects
    // trigger re-seeds from the new language, which has no values yet).
    await tx.sql`
      update projects set source_language = ${code}
      where id = ${projectId} and source_language <> ${code}
        and not exists (select 1 from project_languages l where l.project_id = ${projectId} and l.code = projects.source_language)`;
    tx.record({ type: 'language.added', projectId, actor: input.actor, entity: { type: 'language', id: code } });
    return { project_id: projectId, code, added: true };
  }),
);
