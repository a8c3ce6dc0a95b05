// Copies every row of one tms database into another, empty one: the way from the embedded database
// (`npm start` with no DATABASE_URL) to a PostgreSQL server when a team outgrows one process.
// Both sides are brought to the same migrations first, so the tables match by construction; then
// each table travels as COPY text (portable between Postgres versions: PGlite is 17, a server may be
// 15) in one transaction on the target, which either holds everything afterwards or nothing.
import { pipeline } from 'node:stream/promises';
import type { Sql, TransactionSql } from './client.ts';
import { migrate } from './migrate.ts';

export type CopiedTable = { table: string; rows: number };

/** The target already holds tms data: copying would mix two installations. */
export class TargetNotEmptyError extends Error {
  readonly tables: string[];
  constructor(tables: string[]) {
    super(`the target database already holds tms data (rows in ${tables.join(', ')})`);
    this.tables = tables;
  }
}

/** Tables that are the schema's own bookkeeping, written by migrate() on each side. */
const NOT_COPIED = new Set(['schema_migrations']);

/**
 * Session settings under which COPY's text means the same on both sides: times in UTC, ISO dates,
 * floats to the last digit, bytea as hex. No statement deadline: a large project's table may take a while.
 */
const PORTABLE_TEXT = [
  "set timezone = 'UTC'",
  "set datestyle = 'ISO, YMD'",
  "set intervalstyle = 'postgres'",
  'set extra_float_digits = 3',
  "set bytea_output = 'hex'",
  'set statement_timeout = 0',
] as const;

export async function copyDatabase(options: {
  source: Sql;
  target: Sql;
  /** Told as each table is done. */
  onTable?: (copied: CopiedTable) => void;
}): Promise<{ tables: CopiedTable[]; migrationsApplied: { source: string[]; target: string[] } }> {
  const { source, target } = options;
  const migrationsApplied = { source: await migrate(source), target: await migrate(target) };
  const tables = await tablesInCopyOrder(source);
  // Both sides ran the same migrations; a difference means someone changed a schema by hand.
  const targetTables = new Map((await tablesInCopyOrder(target)).map((t) => [t.name, t.columns.join(', ')]));
  const differing = tables.filter((t) => targetTables.get(t.name) !== t.columns.join(', '));
  if (differing.length > 0) throw new Error(`the target's tables differ from the source's after migrating: ${differing.map((t) => t.name).join(', ')}`);

  const copied: CopiedTable[] = [];
  // The source is read in one snapshot, so tables that refer to each other agree.
  await source.begin('isolation level repeatable read read only', async (from) => {
    for (const setting of PORTABLE_TEXT) await from.unsafe(setting);
    await target.begin(async (to) => {
      for (const setting of PORTABLE_TEXT) await to.unsafe(setting.replace(/^set /, 'set local '));
      // The rows arrive as they were: the triggers that derive rows from others (translation memory,
      // content versions, the webhook outbox, value versions) would write them a second time. Foreign
      // keys are not user triggers and stay checked, which the order below satisfies. The ALTER also
      // locks each table, so the emptiness seen next holds until the commit.
      for (const { name } of tables) await to.unsafe(`alter table ${ident(name)} disable trigger user`);
      const occupied: string[] = [];
      for (const { name } of tables) {
        const [row] = await to.unsafe<{ any: boolean }[]>(`select exists (select 1 from ${ident(name)}) as any`);
        if (row!.any) occupied.push(name);
      }
      if (occupied.length > 0) throw new TargetNotEmptyError(occupied);
      for (const { name, columns } of tables) {
        const list = columns.map(ident).join(', ');
        const writable = await to.unsafe(`copy ${ident(name)} (${list}) from stdin`).writable();
        // A connection lost before the pipe below listens must fail the copy, not the process:
        // pipeline() still sees a stream that has already failed.
        writable.on('error', () => {});
        const readable = await from.unsafe(`copy ${ident(name)} (${list}) to stdout`).readable();
        readable.on('error', () => {});
        await pipeline(readable, writable);
        const [row] = await to.unsafe<{ rows: number }[]>(`select count(*)::int as rows from ${ident(name)}`);
        const done = { table: name, rows: row!.rows };
        copied.push(done);
        options.onTable?.(done);
      }
      for (const { name } of tables) await to.unsafe(`alter table ${ident(name)} enable trigger user`);
      await copySequences(from, to);
    });
  });
  // Fresh statistics for the planner, as after any bulk load (the service also refreshes them after
  // its own bulk writes; a copied database has none yet).
  await target.unsafe('analyze');
  return { tables: copied, migrationsApplied };
}

type Table = { name: string; columns: string[] };

/**
 * The schema's tables, each after the tables its foreign keys point to (a table's references to
 * itself are checked at the end of its COPY, whatever the row order). Columns in the table's order,
 * without generated ones, which each side computes itself.
 */
async function tablesInCopyOrder(sql: Sql | TransactionSql): Promise<Table[]> {
  const rows = await sql<{ name: string; columns: string[]; refers_to: string[] }[]>`
    select c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      array(select distinct r.relname::text from pg_constraint f join pg_class r on r.oid = f.confrelid
            where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as refers_to
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
    order by c.relname`;
  const byName = new Map(rows.filter((r) => !NOT_COPIED.has(r.name)).map((r) => [r.name, r]));
  const ordered: Table[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: string[]) => {
    if (placed.has(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys form a cycle: ${[...path, name].join(' -> ')}`);
    const table = byName.get(name);
    if (!table) return;
    for (const parent of table.refers_to) visit(parent, [...path, name]);
    placed.add(name);
    ordered.push({ name, columns: table.columns });
  };
  for (const name of byName.keys()) visit(name, []);
  return ordered;
}

/** Every sequence goes on from where the source's stood, so that new rows get ids not yet taken. */
async function copySequences(from: TransactionSql, to: TransactionSql): Promise<void> {
  const sequences = await from<{ name: string; last_value: string | null }[]>`
    select sequencename as name, last_value::text from pg_sequences where schemaname = current_schema()`;
  for (const { name, last_value } of sequences) {
    if (last_value === null) continue; // never used: the target's fresh sequence is the same
    await to`select setval(${ident(name)}, ${last_value}::bigint, true)`;
  }
}

/** A quoted SQL identifier (names come from the catalog, not from input, but may need quoting). */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
