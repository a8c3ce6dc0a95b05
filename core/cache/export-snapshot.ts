// Reads everything a build needs from one consistent snapshot: a REPEATABLE READ, read-only
// transaction. Postgres returns the response bodies' translations objects as JSON text, so no rows
// are held in memory, and the builder takes that text as the bytes that arrived (raw columns): a
// body is copied once, into its envelope, and never decoded into a string. Languages are handed
// over one at a time as they are read; the transaction waits only for the hand-over itself, never for
// compression or the object store (core/cache/language-spool.ts): on the embedded database it holds
// the one connection that every request needs.
import type { Sql, TransactionSql } from '../db/client.ts';
import { readManifest } from '../manifest/read-manifest.ts';
import type { ManifestLanguage } from '../manifest/schemas.ts';
import { envelopeBytes, translationsObject } from '../translations/translations-json.ts';

/** A language's whole body and its group bodies (groups with at least one value in the body), as UTF-8. */
export type Bodies = { json: Uint8Array; groups: Map<string, Uint8Array> };

export type LanguageExport = Bodies & {
  code: string;
  /**
   * For a language with a fallback chain: `json` and `groups` above hold every key, missing values
   * taken from the chain in order; `raw` holds its own values only, `explain` the default bodies
   * with a `sources` map (key -> the language its value came from, for the keys filled in).
   */
  fallback?: { chain: string[]; raw: Bodies; explain: Bodies };
};

export type Snapshot = {
  /** requested_seq as of the snapshot: every rebuild request up to it is covered by this build. */
  seq: number;
  /** The languages of GET /v1/manifest as of the snapshot. */
  manifest: ManifestLanguage[];
  /** Every language registered as of the snapshot (those of the manifest and those with no value yet). */
  registered: string[];
};

const BUILD_LOCK = 7_142_002;

/**
 * Returns null when the request is already covered (built_seq >= minSeq). Holds a per-project
 * advisory lock for the transaction, so builds of one project never overlap even across processes.
 * `onLanguage` gets each language of the manifest in turn, and the next is read once its call has
 * resolved: it must not wait for anything slow (the object store), since the transaction is open.
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

    // The manifest exactly as GET /v1/manifest shows it, as of the snapshot, and the chains.
    const { languages: manifest } = await readManifest({ sql: tx }, { projectId });
    const [project] = await tx<{ fallbacks: Record<string, string[]> }[]>`select fallbacks from projects where id = ${projectId}`;
    const chains = project?.fallbacks ?? {};
    const registered = (await tx<{ code: string }[]>`select code from project_languages where project_id = ${projectId}`).map((r) => r.code).sort();

    // The bodies as the live approved reads make them (core/translations/translations-json.ts).
    // One pass per language: grouping sets aggregate each group and the whole language from the
    // same rows, so each row is joined and turned into JSON once, not once per body. Keys are
    // reached only through their primary key, as the live read finds them: linear without statistics.
    // group_name is never null in the table, so the null group is the grouping set of the whole language.
    for (const { code } of manifest) {
      const approved = tx`t.status = 'approved'`;
      const rows = rawRows(await tx`
        select k.group_name, count(*)::int as count, ${translationsObject(tx, 'value', approved)} as translations
        from translations t join translation_keys k on k.id = t.key_id
        where t.project_id = ${projectId} and t.language = ${code}
          and k.deleted_at is null and t.status = 'approved'
        group by grouping sets ((k.group_name), ())`.raw());
      const groups = new Map<string, Uint8Array>();
      let json = envelopeBytes(bodyFields(projectId, code, null, ZERO), EMPTY);
      for (const [group, count, translations] of rows) {
        const fields = bodyFields(projectId, code, group, count);
        if (fields.group === undefined) json = envelopeBytes(fields, translations);
        else groups.set(fields.group, envelopeBytes(fields, translations));
      }
      rows.length = 0;
      const chain = Object.hasOwn(chains, code) ? chains[code]! : [];
      const own: Bodies = { json, groups };
      let exported: LanguageExport = { code, ...own };
      if (chain.length) {
        const { resolved, explain } = await withFallbacks(tx, projectId, code, chain);
        exported = { code, ...resolved, fallback: { chain, raw: own, explain } };
      }
      await onLanguage(exported);
    }
    return { seq, manifest, registered };
  });
}

/** A raw row of a body query: columns as Postgres sent them (text format), null for SQL null. */
type RawRow = [group: Buffer | null, count: Buffer, translations: Buffer, ...rest: Buffer[]];
const EMPTY = Buffer.from('{}');
const ZERO = Buffer.from('0');
const CLOSE = Buffer.from('}');
const text = (bytes: Buffer) => bytes.toString('utf8');
/** postgres.js types raw rows loosely (every column a Buffer); ours name their columns. */
const rawRows = (rows: readonly unknown[]) => rows as RawRow[];

/** The envelope's fields, in the live reads' order; the row of the whole language has no group. */
function bodyFields(projectId: string, code: string, group: Buffer | null, count: Buffer) {
  return {
    project_id: projectId,
    language: code,
    ...(group === null ? {} : { group: text(group) }),
    status_filter: 'approved',
    count: Number(text(count)),
  };
}

/**
 * A language's bodies with its chain applied, by Postgres in one pass like the raw read: for each
 * live key, the approved value of the first language of [code, ...chain] that has one. `sources`
 * names the language of every value that is not the language's own.
 */
async function withFallbacks(tx: TransactionSql, projectId: string, code: string, chain: string[]): Promise<{ resolved: Bodies; explain: Bodies }> {
  const order = [code, ...chain];
  const rows = rawRows(await tx`
    select k.group_name, count(*)::int as count,
           ${translationsObject(tx, 'value', tx`true`)} as translations,
           coalesce('{' || string_agg(to_json(k.key)::text || ':' || to_json(t.language)::text, ',' order by k.key collate "C")
             filter (where t.language <> ${code}) || '}', '{}') as sources
    from (
      select distinct on (t.key_id) t.key_id, t.value, t.language, t.status
      from translations t
      where t.project_id = ${projectId} and t.language = any(${order}) and t.status = 'approved'
      order by t.key_id, array_position(${order}::text[], t.language)
    ) t join translation_keys k on k.id = t.key_id
    where k.deleted_at is null
    group by grouping sets ((k.group_name), ())`.raw());
  // The explain body: the default body's fields, then the chain and where each filled value came from.
  const chainPart = Buffer.from(`,"fallbacks":${JSON.stringify(chain)},"sources":`);
  const explained = (body: Buffer, sources: Uint8Array) => Buffer.concat([body.subarray(0, -1), chainPart, sources, CLOSE]);
  const none = envelopeBytes(bodyFields(projectId, code, null, ZERO), EMPTY);
  const resolved: Bodies = { json: none, groups: new Map() };
  const explain: Bodies = { json: explained(none, EMPTY), groups: new Map() };
  for (const [group, count, translations, sources] of rows) {
    const fields = bodyFields(projectId, code, group, count);
    const body = envelopeBytes(fields, translations);
    if (fields.group === undefined) {
      resolved.json = body;
      explain.json = explained(body, sources!);
    } else {
      resolved.groups.set(fields.group, body);
      explain.groups.set(fields.group, explained(body, sources!));
    }
  }
  return { resolved, explain };
}
