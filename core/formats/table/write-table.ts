// The table csv and xlsx write. Plain: key, group, description, value (TABLE_COLUMNS), one row per
// entry by key. With a source language (`source=en` on the export, not the exported language):
// key, group, description, en, de — the source text beside the translation, as translators and
// Lokalise's and Crowdin's spreadsheet exports have it, and every key with a source text gets a
// row, its translation cell empty where it has none yet. Such a sheet imports back into `de` from
// its `de` column, its empty cells skipped as not translated yet (read-table.ts).
import type { Entry, SerializeContext } from '../types.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { TABLE_COLUMNS } from './read-table.ts';

/** A column: its header text and what it holds (a language column holds a value). */
export type TableColumn = { name: string; holds: 'key' | 'group' | 'description' | 'value' };
export type Table = { columns: TableColumn[]; rows: { key: string; cells: string[] }[] };

export function writeTable(entries: readonly Entry[], ctx: SerializeContext): Table {
  const sorted = sortedEntries(entries);
  const source = ctx.source !== undefined && ctx.source.language !== ctx.language ? ctx.source : undefined;
  if (source === undefined) {
    return {
      columns: TABLE_COLUMNS.map((name) => ({ name, holds: name })),
      rows: sorted.map((e) => ({ key: e.key, cells: [e.key, e.group ?? '', e.description ?? '', e.value] })),
    };
  }
  const own = new Map(sorted.map((e) => [e.key, e]));
  // The source-only keys' group and description come from their source entry, when the export has it.
  const sourceEntries = new Map((source.entries ?? []).map((e) => [e.key, e]));
  const keys = [...new Set([...own.keys(), ...source.values.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    columns: [
      { name: 'key', holds: 'key' },
      { name: 'group', holds: 'group' },
      { name: 'description', holds: 'description' },
      { name: source.language, holds: 'value' },
      { name: ctx.language, holds: 'value' },
    ],
    rows: keys.map((key) => {
      const e = own.get(key) ?? sourceEntries.get(key);
      return { key, cells: [key, e?.group ?? '', e?.description ?? '', source.values.get(key) ?? '', own.get(key)?.value ?? ''] };
    }),
  };
}
