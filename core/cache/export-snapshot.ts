// Reads everything a build needs from one consistent snapshot: a REPEATABLE READ, read-only
// transaction. Postgres returns the response bodies' translations objects as JSON text, so the
// transaction is short and no rows are held in memory.
import type { Sql } from '../db/client.ts';
import { readManifest } from '../manifest/read-manifest.ts';
import type { ManifestLanguage } from '../manifest/schemas.ts';
import { envelope, translationsObject } from '../translations/translations-json.ts';

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
  /** The languages of GET /v1/manifest as of the snapshot. */
  manifest: ManifestLanguage[];
  languages: LanguageExport[];
};

const BUILD_LOCK = 7_142_002;

/**
 * Returns null when the request is already covered (built_seq >= minSeq). Holds a per-project
 * advisory lock for the transaction, so builds of one project never overlap even across processes.
 */
export async function exportSnapshot(sql: Sql, projectId: string, minSeq: number): Promise<Snapshot | null> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    // A 100,000-key project's snapshot takes seconds; the builder Lambda's own limit is 5 minutes.
    await tx`set local statement_timeout = '5min'`;
    await tx`select pg_advisory_xact_lock(${BUILD_LOCK}, hashtext(${projectId}))`;
    const [state] = await tx<{ requested_seq: number; built_seq: number }[]>`
      select requested_seq::int, built_seq::int from cache_state where project_id = ${projectId}`;
    if (state && state.built_seq >= minSeq) return null;
    const seq = Math.max(state?.requested_seq ?? 0, minSeq);

    // The manifest exactly as GET /v1/manifest shows it, as of the snapshot.
    const { languages: manifest } = await readManifest({ sql: tx }, { projectId });

    // The bodies as the live approved reads make them (core/translations/translations-json.ts):
    // Postgres builds each translations object as text, so no rows are held in memory.
    const languages: LanguageExport[] = [];
    for (const { code } of manifest) {
      const approved = tx`t.status = 'approved'`;
      // Keys only through their primary key, as the live read finds them: linear without statistics.
      const live = tx`
        from translations t join translation_keys k on k.id = t.key_id
        where t.project_id = ${projectId} and t.language = ${code}
          and k.deleted_at is null and t.status = 'approved'`;
      const [all] = await tx<{ count: number; translations: string }[]>`
        select count(*)::int as count, ${translationsObject(tx, 'value', approved)} as translations ${live}`;
      const groups = new Map<string, string>();
      for (const g of await tx<{ group_name: string; count: number; translations: string }[]>`
        select k.group_name, count(*)::int as count, ${translationsObject(tx, 'value', approved)} as translations ${live}
        group by k.group_name`) {
        groups.set(g.group_name, envelope({ project_id: projectId, language: code, group: g.group_name, status_filter: 'approved', count: g.count }, g.translations));
      }
      const json = envelope({ project_id: projectId, language: code, status_filter: 'approved', count: all!.count }, all!.translations);
      languages.push({ code, json, groups });
    }
    return { seq, manifest, languages };
  });
}
