// Reads everything a build needs from one consistent snapshot: a REPEATABLE READ, read-only
// transaction. The data is turned into response bodies (JSON strings) as it is read, so the
// transaction is short and rows are dropped language by language.
import type { Sql } from '../db/client.ts';
import { iso639_1, languageName } from '../languages/language-code.ts';

export type ManifestEntry = { code: string; name: string; iso: string | null; approved_count: number };

export type LanguageExport = {
  code: string;
  /** The body of the cached whole-language endpoint. */
  json: string;
  /** Group name -> the body of the cached group endpoint (groups with at least one approved value). */
  groups: Map<string, string>;
};

export type Snapshot = {
  /** requested_seq as of the snapshot: every rebuild request up to it is covered by this build. */
  seq: number;
  /** null when another build already covered `minSeq`. */
  manifest: ManifestEntry[];
  languages: LanguageExport[];
};

const BUILD_LOCK = 7_142_002;

/**
 * Returns null when the request is already covered (built_seq >= minSeq). Holds a per-project
 * advisory lock for the transaction, so builds of one project never overlap even across processes.
 */
export async function exportSnapshot(sql: Sql, projectId: string, minSeq: number): Promise<Snapshot | null> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    await tx`select pg_advisory_xact_lock(${BUILD_LOCK}, hashtext(${projectId}))`;
    const [state] = await tx<{ requested_seq: number; built_seq: number }[]>`
      select requested_seq::int, built_seq::int from cache_state where project_id = ${projectId}`;
    if (state && state.built_seq >= minSeq) return null;
    const seq = Math.max(state?.requested_seq ?? 0, minSeq);

    // The manifest as GET /v1/manifest shows it: languages with at least one value of a live key.
    const counts = await tx<{ language: string; approved_count: number }[]>`
      select t.language, (count(*) filter (where t.status = 'approved'))::int as approved_count
      from translations t join translation_keys k on k.id = t.key_id
      where t.project_id = ${projectId} and k.deleted_at is null
      group by t.language order by t.language`;
    const manifest = counts.map((c) => ({
      code: c.language,
      name: languageName(c.language),
      iso: iso639_1(c.language),
      approved_count: c.approved_count,
    }));

    const languages: LanguageExport[] = [];
    for (const { code } of manifest) {
      const rows = await tx<{ key: string; group_name: string; value: string }[]>`
        select k.key, k.group_name, t.value
        from translations t join translation_keys k on k.id = t.key_id
        where t.project_id = ${projectId} and t.language = ${code} and t.status = 'approved' and k.deleted_at is null
        order by k.key`;
      languages.push(toLanguageExport(projectId, code, rows));
    }
    return { seq, manifest, languages };
  });
}

function toLanguageExport(projectId: string, code: string, rows: { key: string; group_name: string; value: string }[]): LanguageExport {
  const all: Record<string, string> = {};
  const byGroup = new Map<string, Record<string, string>>();
  const groupCounts = new Map<string, number>();
  for (const { key, group_name, value } of rows) {
    all[key] = value;
    let group = byGroup.get(group_name);
    if (!group) byGroup.set(group_name, (group = {}));
    group[key] = value;
    groupCounts.set(group_name, (groupCounts.get(group_name) ?? 0) + 1);
  }
  const json = JSON.stringify({ project_id: projectId, language: code, status_filter: 'approved', count: rows.length, translations: all });
  const groups = new Map<string, string>();
  for (const [name, translations] of byGroup) {
    groups.set(
      name,
      JSON.stringify({ project_id: projectId, language: code, group: name, status_filter: 'approved', count: groupCounts.get(name), translations }),
    );
  }
  return { code, json, groups };
}
