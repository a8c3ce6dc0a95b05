// A process's memo of whole glossaries, each with the project's glossary version it was read at
// (migration 043): what a PUT of a value needs to find the terms of its key's source text
// (core/translations/put-translation.ts) without a statement of its own. The write's statement
// reads the version; when the memo holds the glossary at that version or a later one, the terms
// are found here. A glossary changed since is read again, whole, once per process and version
// (concurrent writes share the read). Least recently used, bounded by the terms it holds.
import type { Sql } from '../db/client.ts';
import { termFinder } from './find-terms.ts';
import { termColumns, toTerm, type TermRow } from './term-rows.ts';
import type { GlossaryTerm } from './schemas.ts';

export type GlossaryFinder = (text: string) => GlossaryTerm[];

type Entry = { version: bigint; terms: number; find: GlossaryFinder };

export type GlossaryMemo = {
  /**
   * The project's glossary as of `version` or later (`version` as the write's statement read it,
   * a decimal integer): from the memo, or read whole and kept.
   */
  finder(sql: Sql, projectId: string, version: string): Promise<GlossaryFinder>;
  /** Glossaries and terms held (tests, diagnostics). */
  size(): { glossaries: number; terms: number };
};

/** Each glossary costs at least this many terms of the budget: an empty one is an entry too. */
const MIN_COST = 1;

export function createGlossaryMemo(options: { maxTerms: number }): GlossaryMemo {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Entry>();
  const reads = new Map<string, Promise<Entry>>();
  let terms = 0;
  const remove = (projectId: string) => {
    const old = entries.get(projectId);
    if (!old) return;
    entries.delete(projectId);
    terms -= old.terms;
  };
  const keep = (projectId: string, entry: Entry) => {
    const current = entries.get(projectId);
    // A slower read of an older version never replaces a newer one.
    if (current && current.version > entry.version) return;
    remove(projectId);
    if (entry.terms > options.maxTerms) return;
    for (const [oldest] of entries) {
      if (terms + entry.terms <= options.maxTerms) break;
      remove(oldest);
    }
    entries.set(projectId, entry);
    terms += entry.terms;
  };
  const read = async (sql: Sql, projectId: string): Promise<Entry> => {
    // The version and the terms in one statement, so from one snapshot: the entry is exactly the
    // glossary of the version it names. A project with no row is at version 0 (migration 043).
    const rows = await sql<(TermRow & { glossary_version: string })[]>`
      select coalesce((select v.version from project_glossary_versions v where v.project_id = ${projectId}), 0)::text as glossary_version, x.*
      from (select 1) one
      left join lateral (select ${termColumns(sql)} from glossary_terms t where t.project_id = ${projectId} order by t.term_folded collate "C") x on true`;
    const found = rows.filter((r) => r.id !== null).map(toTerm);
    return { version: BigInt(rows[0]!.glossary_version), terms: Math.max(found.length, MIN_COST), find: termFinder(found) };
  };
  return {
    async finder(sql, projectId, version) {
      const wanted = BigInt(version);
      const held = entries.get(projectId);
      if (held && held.version >= wanted) {
        entries.delete(projectId);
        entries.set(projectId, held);
        return held.find;
      }
      // One read at a time per project: the writes that find the memo stale together wait for it,
      // and one that needs a later version than that read saw reads again after it.
      let pending = reads.get(projectId);
      if (!pending) {
        pending = read(sql, projectId).finally(() => reads.delete(projectId));
        reads.set(projectId, pending);
      }
      let entry = await pending;
      if (entry.version < wanted) entry = await read(sql, projectId);
      keep(projectId, entry);
      return entry.find;
    },
    size: () => ({ glossaries: entries.size, terms }),
  };
}
