import type { Sql, TransactionSql } from '../db/client.ts';
import { conflict, notFound } from '../errors.ts';

export async function groupExists(sql: Sql | TransactionSql, projectId: string, name: string): Promise<boolean> {
  const [row] = await sql`
    select 1 from translation_keys
    where project_id = ${projectId} and group_name = ${name} and deleted_at is null limit 1`;
  return row !== undefined;
}

export const groupNotFound = (name: string) => notFound(`Group '${name}' not found`);
export const groupTaken = (name: string) => conflict(`Group '${name}' already exists`);
