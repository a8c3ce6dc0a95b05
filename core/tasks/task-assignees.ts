// Who may be given a task: a member of the project's account whose role and languages allow its
// kind of work in its language (core/users/permissions.ts), so that a task never hands someone work
// the editor would refuse them. Assignment grants nothing: it names who is doing the work.
import type { TransactionSql } from '../db/client.ts';
import { validationError, type ValidationIssue } from '../errors.ts';
import { may, mayEditLanguage } from '../users/permissions.ts';
import type { Role } from '../users/schemas.ts';
import type { TaskKind } from './schemas.ts';

type Candidate = { user_id: string; email: string; role: Role; languages: string[] | null };

/** Whether a member with this role and these languages may do a task of `kind` in `language`. */
export function mayWorkOn(member: { role: Role; languages: string[] | null }, kind: TaskKind, language: string): boolean {
  return may(member.role, kind === 'review' ? 'values.approve' : 'values.edit') && mayEditLanguage(member, language);
}

/** The users the emails name, in their order; a 422 naming each address that may not take the task. */
export async function resolveAssignees(
  sql: TransactionSql,
  task: { projectId: string; kind: TaskKind; language: string },
  emails: string[],
  loc: (string | number)[],
): Promise<{ user_id: string; email: string }[]> {
  if (emails.length === 0) return [];
  const rows = await sql<Candidate[]>`
    select u.id as user_id, u.email, m.role, m.languages
    from users u
      join memberships m on m.user_id = u.id
      join projects p on p.account_id = m.account_id
    where p.id = ${task.projectId} and u.email = any(${emails}::text[])
    -- Locked until the task commits: a role change meanwhile waits, then prunes what it takes away.
    for share of m`;
  const byEmail = new Map(rows.map((r) => [r.email, r]));
  const issues: ValidationIssue[] = [];
  emails.forEach((email, index) => {
    const member = byEmail.get(email);
    if (!member) {
      issues.push({ loc: [...loc, index], msg: `${email} is not a member of this project's account`, type: 'value_error' });
    } else if (!mayWorkOn(member, task.kind, task.language)) {
      const work = task.kind === 'review' ? 'approve values' : 'edit values';
      issues.push({ loc: [...loc, index], msg: `${email} (${member.role}) may not ${work} in ${task.language}, which a ${task.kind} task asks`, type: 'value_error' });
    }
  });
  if (issues.length > 0) throw validationError(issues);
  return emails.map((email) => ({ user_id: byEmail.get(email)!.user_id, email }));
}

/** Replaces a task's assignees with these users. */
export async function setAssignees(sql: TransactionSql, taskId: string, userIds: string[]): Promise<void> {
  await sql`delete from task_assignees where task_id = ${taskId} and not (user_id = any(${userIds}::uuid[]))`;
  if (userIds.length > 0) {
    await sql`insert into task_assignees (task_id, user_id) select ${taskId}, unnest(${userIds}::uuid[]) on conflict do nothing`;
  }
}

/**
 * After a member's role or languages changed (or they left: `member` null), the assignments in the
 * account's projects they may no longer do are removed, in the same transaction as the change.
 */
export async function pruneAssignments(sql: TransactionSql, accountId: string, userId: string, member: { role: Role; languages: string[] | null } | null): Promise<void> {
  if (member === null) {
    await sql`delete from task_assignees a using tasks ta, projects p
      where a.task_id = ta.id and p.id = ta.project_id and p.account_id = ${accountId} and a.user_id = ${userId}`;
    return;
  }
  const mayReview = may(member.role, 'values.approve');
  const limited = member.role !== 'owner' && member.role !== 'developer' && member.languages !== null && member.languages.length > 0;
  await sql`delete from task_assignees a using tasks ta, projects p
    where a.task_id = ta.id and p.id = ta.project_id and p.account_id = ${accountId} and a.user_id = ${userId}
      and ((ta.kind = 'review' and ${!mayReview}) or (${limited} and not (ta.language = any(${member.languages ?? []}::text[]))))`;
}
