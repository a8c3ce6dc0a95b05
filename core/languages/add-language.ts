import type { Deps } from '../deps.ts';
import { conflict, planLimit } from '../errors.ts';
import { lockProject } from '../projects/lock-project.ts';
import type { AddedLanguage } from './schemas.ts';

export async function addLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<AddedLanguage> {
  return deps.sql.begin(async (tx) => {
    const { plan, limits } = await lockProject(tx, projectId);
    const [row] = await tx<{ count: number; present: boolean }[]>`
      select count(*)::int as count, coalesce(bool_or(code = ${code}), false) as present
      from project_languages where project_id = ${projectId}`;
    if (row!.present) throw conflict(`Language '${code}' is already registered`);
    const limit = limits.languagesPerProject;
    if (limit !== null && row!.count >= limit) {
      throw planLimit(
        `Language limit reached: the ${plan} plan allows ${limit} languages per project. Upgrade the plan to add more.`,
      );
    }
    await tx`insert into project_languages (project_id, code) values (${projectId}, ${code})`;
    return { project_id: projectId, code, added: true };
  });
}
