// What an operator reads through the admin API: accounts, their projects, a project's API keys
// (never the keys themselves: only hashes are stored, with the last four characters as a hint).
// Lists are paged by (created_at, id) (page-cursor.ts); a missing parent is a 404, as on writes.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import type { Sql } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { Uuid } from '../validation.ts';
import { API_KEY_PREFIXES, type ApiKeyKind } from '../auth/api-key-format.ts';
import { Account, Project } from './schemas.ts';
import type { ApiKeyInfo } from './api-key-schemas.ts';
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage, type PageQuery } from './page-cursor.ts';

export const AccountDetails = v.object({ ...Account.entries, created_at: v.string() });
export type AccountDetails = v.InferOutput<typeof AccountDetails>;
export const ProjectDetails = v.object({ ...Project.entries, created_at: v.string() });
export type ProjectDetails = v.InferOutput<typeof ProjectDetails>;

const nextCursor = v.pipe(v.nullable(v.string()), v.description('Pass as ?cursor= for the next page; null on the last page'));
export const AccountPage = v.object({ accounts: v.array(AccountDetails), next_cursor: nextCursor });
export const ProjectPage = v.object({ projects: v.array(ProjectDetails), next_cursor: nextCursor });

type Deps_ = Pick<Deps, 'sql'>;

const ms = (sql: Sql, column: string) => sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const us = (sql: Sql, column: string) => sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

// Every listing orders by the table's columns, qualified: its output has a `created_at` too (text,
// to the millisecond), which an unqualified ORDER BY would sort by instead.
function after(sql: Sql, page: PageQuery) {
  if (page.cursor === undefined) return sql`true`;
  const { at, id } = decodeCursor(page.cursor);
  // ::text first: a parameter typed timestamptz goes through a JS Date in postgres.js, which keeps
  // milliseconds only, and the page's last row would come again.
  return sql`(created_at, id) > (${at}::text::timestamptz, ${id}::uuid)`;
}

const accountColumns = (sql: Sql) => sql`id, name, plan, daily_call_limit, translation_unit_allowance, ${ms(sql, 'created_at')} as created_at`;
const projectColumns = (sql: Sql) => sql`id, account_id, name, auto_rebuild, fallbacks, source_language, quality_blocking, ${ms(sql, 'created_at')} as created_at`;

export async function listAccounts(deps: Deps_, page: PageQuery) {
  const { sql } = deps;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const rows = await sql<(AccountDetails & { page_at: string })[]>`
    select ${accountColumns(sql)}, ${us(sql, 'created_at')} as page_at
    from accounts where ${after(sql, page)} order by accounts.created_at, accounts.id limit ${limit + 1}`;
  const { items, next_cursor } = toPage(rows, limit);
  return { accounts: items, next_cursor };
}

export async function getAccount(deps: Deps_, accountId: string): Promise<AccountDetails> {
  const { sql } = deps;
  const [row] = await sql<AccountDetails[]>`select ${accountColumns(sql)} from accounts where id = ${accountId}`;
  if (!row) throw notFound('Account not found');
  return row;
}

export async function listProjects(deps: Deps_, accountId: string, page: PageQuery) {
  const { sql } = deps;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const [rows, [account]] = await Promise.all([
    sql<(ProjectDetails & { page_at: string })[]>`
      select ${projectColumns(sql)}, ${us(sql, 'created_at')} as page_at
      from projects where account_id = ${accountId} and ${after(sql, page)} order by projects.created_at, projects.id limit ${limit + 1}`,
    sql`select 1 from accounts where id = ${accountId}`,
  ]);
  if (!account) throw notFound('Account not found');
  const { items, next_cursor } = toPage(rows, limit);
  return { projects: items, next_cursor };
}

export async function getProject(deps: Deps_, projectId: string): Promise<ProjectDetails> {
  const { sql } = deps;
  const [row] = await sql<ProjectDetails[]>`select ${projectColumns(sql)} from projects where id = ${projectId}`;
  if (!row) throw notFound('Project not found');
  return row;
}

type ApiKeyRow = Omit<ApiKeyInfo, 'key_hint'> & { last_four: string | null };

const apiKeyColumns = (sql: Sql) => sql`
  id, project_id, name, kind, last_four, allowed_origins, allowed_languages, ${ms(sql, 'created_at')} as created_at,
  ${ms(sql, 'last_used_at')} as last_used_at, ${ms(sql, 'revoked_at')} as revoked_at`;

const toInfo = ({ last_four, ...row }: ApiKeyRow): ApiKeyInfo => ({
  ...row,
  key_hint: last_four === null ? null : `${API_KEY_PREFIXES[row.kind as ApiKeyKind]}…${last_four}`,
});

export async function listApiKeys(deps: Deps_, projectId: string, page: PageQuery) {
  const { sql } = deps;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const [rows, [project]] = await Promise.all([
    sql<(ApiKeyRow & { page_at: string })[]>`
      select ${apiKeyColumns(sql)}, ${us(sql, 'created_at')} as page_at
      from api_keys where project_id = ${projectId} and ${after(sql, page)} order by api_keys.created_at, api_keys.id limit ${limit + 1}`,
    sql`select 1 from projects where id = ${projectId}`,
  ]);
  if (!project) throw notFound('Project not found');
  const { items, next_cursor } = toPage(rows, limit);
  return { api_keys: items.map(toInfo), next_cursor };
}

/** The portal's API keys tab: active keys (oldest first), then the latest revoked ones. */
export type ApiKeysTab = { keys: ApiKeyInfo[]; activeNotShown: number; revokedNotShown: number };

/** Active keys the tab shows at most (far more than a project uses: the rest are counted). */
export const TAB_ACTIVE_KEYS = 200;
/** Revoked keys the tab shows, the most recently revoked: enough to see a revocation took. */
export const TAB_REVOKED_KEYS = 20;

/**
 * The keys the portal's tab lists: every active key up to TAB_ACTIVE_KEYS, then the
 * TAB_REVOKED_KEYS most recently revoked, and how many of each are not shown. Revoked keys are
 * kept for ever (who used what, last_used_at): a project that rotates its keys collects them, and
 * the tab rendered every one (the admin API pages through all of them).
 */
export async function apiKeysForTab(deps: Deps_, projectId: string): Promise<ApiKeysTab> {
  const { sql } = deps;
  const [active, revoked, [counts]] = await Promise.all([
    sql<ApiKeyRow[]>`
      select ${apiKeyColumns(sql)} from api_keys where project_id = ${projectId} and revoked_at is null
      order by api_keys.created_at, api_keys.id limit ${TAB_ACTIVE_KEYS}`,
    sql<ApiKeyRow[]>`
      select ${apiKeyColumns(sql)} from api_keys where project_id = ${projectId} and revoked_at is not null
      order by api_keys.revoked_at desc, api_keys.id limit ${TAB_REVOKED_KEYS}`,
    sql<{ active: number; revoked: number }[]>`
      select count(*) filter (where revoked_at is null)::int as active, count(*) filter (where revoked_at is not null)::int as revoked
      from api_keys where project_id = ${projectId}`,
  ]);
  return {
    keys: [...active, ...revoked].map(toInfo),
    activeNotShown: Math.max(0, counts!.active - active.length),
    revokedNotShown: Math.max(0, counts!.revoked - revoked.length),
  };
}

export async function getApiKey(deps: Deps_, apiKeyId: string): Promise<ApiKeyInfo> {
  const { sql } = deps;
  const [row] = await sql<ApiKeyRow[]>`select ${apiKeyColumns(sql)} from api_keys where id = ${apiKeyId}`;
  if (!row) throw notFound('API key not found');
  return toInfo(row);
}

export const ApiKeyIdParam = v.object({ api_key_id: Uuid });
