// What each role may do: the one table the portal asks before every action (docs/portal.md shows it,
// test/portal/permissions.test.ts pins every cell through HTTP). A translator's or reviewer's
// membership can further be limited to some languages (`mayEditLanguage`).
import { AppError } from '../errors.ts';
import type { Role } from './schemas.ts';

export const PERMISSIONS = {
  /** See the project, its keys and values. */
  'project.view': ['owner', 'developer', 'reviewer', 'translator'],
  /** Write a value as draft or review. */
  'values.edit': ['owner', 'developer', 'reviewer', 'translator'],
  /** Write a value as approved. */
  'values.approve': ['owner', 'developer', 'reviewer'],
  /**
   * Delete anyone's comment on a value (a member deletes their own whatever their role). Adding one
   * is for whoever may edit the value's language (`mayEditLanguage`), as a value write is.
   */
  'comments.moderate': ['owner', 'developer'],
  /**
   * Add, change and delete the project's glossary terms (everyone sees them). Reviewers too: the
   * agreed words of a language are a language lead's to keep, as in Lokalise and Crowdin.
   */
  'glossary.manage': ['owner', 'developer', 'reviewer'],
  /**
   * Upload, rename and delete the project's screenshots; link keys to them and mark where each is
   * (everyone sees them). Reviewers too, as for the glossary: showing where a text appears is part
   * of checking it; translators read them.
   */
  'screenshots.manage': ['owner', 'developer', 'reviewer'],
  /**
   * Create, change, close (done, canceled), open again and delete the project's tasks (everyone
   * sees them; an assignee marks their own task done without it). Reviewers too, as for the
   * glossary: handing out a language's translation and review work is a language lead's to organize;
   * a reviewer limited to some languages manages only those languages' tasks.
   */
  'tasks.manage': ['owner', 'developer', 'reviewer'],
  /** Create, describe, delete keys; rename and delete groups. */
  'keys.manage': ['owner', 'developer'],
  /** Add and remove the project's languages. */
  'languages.manage': ['owner', 'developer'],
  /** Create and revoke the project's API keys. */
  'api_keys.manage': ['owner', 'developer'],
  /** Import files (with a dry-run preview) and export them. */
  'files.transfer': ['owner', 'developer'],
  /** Queue a cache rebuild; turn auto-rebuild on or off. */
  'project.publish': ['owner', 'developer'],
  /** Create a project in the account (within the plan's limits). */
  'projects.create': ['owner'],
  /** Invite members, change roles, remove members. */
  'members.manage': ['owner'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const may = (role: Role, permission: Permission): boolean => (PERMISSIONS[permission] as readonly Role[]).includes(role);

export function assertMay(role: Role, permission: Permission): void {
  if (!may(role, permission)) throw new AppError('forbidden', `Your role (${role}) does not allow this`);
}

/** Language limits apply to translators and reviewers; owners and developers edit every language. */
export function mayEditLanguage(membership: { role: Role; languages: string[] | null }, language: string): boolean {
  if (membership.role === 'owner' || membership.role === 'developer') return true;
  return !membership.languages || membership.languages.length === 0 || membership.languages.includes(language);
}
