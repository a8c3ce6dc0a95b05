import * as v from 'valibot';
import { Uuid } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { labelText } from '../validation.ts';
import { PlanName } from '../accounts/schemas.ts';

export const ROLES = ['owner', 'developer', 'reviewer', 'translator'] as const;
export const Role = v.picklist(ROLES, 'role must be owner, developer, reviewer or translator');
export type Role = v.InferOutput<typeof Role>;

/** Addresses are compared lower-cased and trimmed: one address, one user. */
export const Email = v.pipe(
  v.string('email must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, 'email is too long'),
  v.email('email must be an email address'),
);

// NIST 800-63B: at least 8 characters, no composition rules; long passphrases welcome.
export const Password = v.pipe(
  v.string('password must be a string'),
  v.minLength(8, 'password must have at least 8 characters'),
  v.maxLength(200, 'password must have at most 200 characters'),
);

/** A translator's or reviewer's languages; null (or empty) means every language of the account. */
export const MemberLanguages = v.nullable(v.pipe(v.array(LanguageCode), v.maxLength(200)));

export const SetupCommand = v.object({
  adminToken: v.string(),
  email: Email,
  password: Password,
  accountName: labelText('account name', 200),
  plan: PlanName,
  /** The caller's address, for the failed-auth limit the admin API's token shares; undefined when unknown. */
  address: v.optional(v.string()),
});

export const SignInCommand = v.object({
  email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254)),
  password: v.pipe(v.string(), v.maxLength(200)),
  /** The caller's address, for the per-address attempt limit; undefined when unknown. */
  address: v.optional(v.string()),
});

export const CreateInviteCommand = v.object({
  userId: Uuid,
  accountId: Uuid,
  role: Role,
  languages: v.optional(MemberLanguages, null),
});

/** The admin API's invitation: JSON `{ role?, languages? }` (role owner when not given). */
export const AdminInviteInput = v.strictObject({
  role: v.optional(Role, 'owner'),
  languages: v.optional(MemberLanguages, null),
});

export const AdminInviteCommand = v.object({ accountId: Uuid, ...AdminInviteInput.entries });

/** An invitation as the admin API answers it: the token once, and the portal path it opens. */
export const CreatedAdminInvite = v.object({
  id: Uuid,
  token: v.string(),
  path: v.string(),
  role: Role,
  languages: v.nullable(v.array(v.string())),
  expires_at: v.string(),
});

export const AcceptInviteCommand = v.object({
  token: v.pipe(v.string(), v.maxLength(200)),
  email: Email,
  password: Password,
  /** The caller's address, for the per-address attempt limit (shared with sign-in); undefined when unknown. */
  address: v.optional(v.string()),
});

export type SessionUser = { id: string; email: string };
export type Membership = { account_id: string; account_name: string; plan: string; role: Role; languages: string[] | null };
