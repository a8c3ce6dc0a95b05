// Which accounts a user belongs to, and with which role: every portal page asks this first, so a
// user only ever sees the accounts (and their projects) they are a member of.
import type { Deps } from '../deps.ts';
import type { Membership, Role } from './schemas.ts';

export async function listMemberships(deps: Pick<Deps, 'sql'>, userId: string): Promise<Membership[]> {
  return deps.sql<Membership[]>`
    select m.account_id, a.name as account_name, a.plan, m.role, m.languages
    from memberships m join accounts a on a.id = m.account_id
    where m.user_id = ${userId}
    order by a.name, a.id`;
}

export type ProjectAccess = {
  projectId: string;
  projectName: string;
  autoRebuild: boolean;
  accountId: string;
  role: Role;
  languages: string[] | null;
};

/** The user's access to a project, through the membership of its account; null when none. */
export async function projectAccess(deps: Pick<Deps, 'sql'>, userId: string, projectId: string): Promise<ProjectAccess | null> {
  const [row] = await deps.sql<{ name: string; auto_rebuild: boolean; account_id: string; role: Role; languages: string[] | null }[]>`
    select p.name, p.auto_rebuild, p.account_id, m.role, m.languages
    from projects p join memberships m on m.account_id = p.account_id and m.user_id = ${userId}
    where p.id = ${projectId}`;
  if (!row) return null;
  return { projectId, projectName: row.name, autoRebuild: row.auto_rebuild, accountId: row.account_id, role: row.role, languages: row.languages };
}

export type ProjectSummary = { id: string; name: string; account_id: string; key_count: number; language_count: number };

/** The projects of every account the user belongs to. */
export async function listProjectsOf(deps: Pick<Deps, 'sql'>, userId: string): Promise<ProjectSummary[]> {
  return deps.sql<ProjectSummary[]>`
    select p.id, p.name, p.account_id,
      (select count(*)::int from translation_keys k where k.project_id = p.id and k.deleted_at is null) as key_count,
      (select count(*)::int from project_languages l where l.project_id = p.id) as language_count
    from projects p join memberships m on m.account_id = p.account_id and m.user_id = ${userId}
    order by p.name, p.id`;
}
