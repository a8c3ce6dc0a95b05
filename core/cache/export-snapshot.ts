// Reads everything a build needs from one consistent snapshot: a REPEATABLE READ, read-only
// transaction. Postgres returns the response bodies' translations objects as JSON text, so no rows
// are held in memory. Languages are handed over one at a time while the next is read: the caller
// compresses and uploads one language while Postgres aggregates the next, and at most two
// languages' bodies are alive at once (a 100,000-key x 10-language build held all of them).
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
};

const BUILD_LOCK = 7_142_002;

/**
 * Returns null when the request is already covered (built_seq >= minSeq). Holds a per-project
 * advisory lock for the transaction, so builds of one project never overlap even across processes.
 * `onLanguage` gets each language of the manifest in turn; the next is read while it runs, and the
 * snapshot resolves once the last one's call has.
 */
export async function exportSnapshot(
  sql: Sql,
  projectId: string,
  minSeq: number,
  onLanguage: (language: LanguageExport) => Promise<void>,
): Promise<Snapshot | null> {
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

    // The bodies as the live approved reads make them (core/translations/translations-json.ts).
    // One pass per language: grouping sets aggregate each group and the whole language from the
    // same rows, so each row is joined and turned into JSON once, not once per body. Keys are
    // reached only through their primary key, as the live read finds them: linear without statistics.
    let handing: Promise<void> = Promise.resolve();
    try {
      for (const { code } of manifest) {
        const approved = tx`t.status = 'approved'`;
        const rows = await tx<{ group_name: string | null; whole: boolean; count: number; translations: string }[]>`
          select k.group_name, grouping(k.group_name) = 1 as whole, count(*)::int as count,
                 ${translationsObject(tx, 'value', approved)} as translations
          from translations t join translation_keys k on k.id = t.key_id
          where t.project_id = ${projectId} and t.language = ${code}
            and k.deleted_at is null and t.status = 'approved'
          group by grouping sets ((k.group_name), ())`;
        const groups = new Map<string, string>();
        let json = envelope({ project_id: projectId, language: code, status_filter: 'approved', count: 0 }, '{}');
        for (const row of rows) {
          if (row.whole) json = envelope({ project_id: projectId, language: code, status_filter: 'approved', count: row.count }, row.translations);
          else groups.set(row.group_name!, envelope({ project_id: projectId, language: code, group: row.group_name!, status_filter: 'approved', count: row.count }, row.translations));
        }
        rows.length = 0;
        // One language in the caller's hands at a time: the one read just now waits for it.
        await handing;
        handing = onLanguage({ code, json, groups });
        // Handled now (the error is rethrown by the awaits above and below), so that a failure
        // while the next language is read is not an unhandled rejection.
        handing.catch(() => {});
      }
      await handing;
    } finally {
      // Never leave a call running after the transaction ends (a failed read, a failed upload).
      await handing.catch(() => {});
    }
    return { seq, manifest };
  });
}
