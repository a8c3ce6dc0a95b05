import type * as v from 'valibot';
import type postgres from 'postgres';
import type { Deps } from '../deps.ts';
import { actorId } from '../actor.ts';
import { assertOutsideTransaction, published } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { keyById, valueById } from '../keys/by-id.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { PutTranslationCommand, type IfMatch, type WrittenTranslation } from './schemas.ts';
import type { Sql } from '../db/client.ts';
import { assertApprovable, blockedValues, references } from '../quality/approval-gate.ts';
import { warningsOf } from '../quality/check-translation.ts';
import { readForbiddenWords } from '../glossary/forbidden-words.ts';
import { ifMatchFailed, ifNoneMatchFailed, matchesIfMatch, unlessVersion, versionGuard } from './if-match.ts';
import type { WrittenRow } from './value-writes.ts';
import { keptSourceRevSql } from './outdated.ts';

/**
 * Creates or overwrites one value in a single statement: the guard (live key of this project,
 * language registered), the upsert and its domain event run together, so concurrent writers of
 * one key and language serialize on the row, the last committed write wins whole, and the event
 * commits with it. One statement is one round trip: this is the API's hottest write. Plain writes
 * (no If-Match) of one project that arrive together share that statement (value-writes.ts).
 *
 * Quality: the same statement reads the key's source value, for the warnings of the answer. An
 * approval in a project with blocking checks (docs/quality.md) writes nothing the first time: the
 * statement answers the source and the checks, the gate judges the value, and only a value it lets
 * through is written by a second statement. Projects without blocking checks keep one round trip.
 */
export const putTranslation = useCase(
  PutTranslationCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'valueWrites' | 'glossaryMemo'>, input): Promise<WrittenTranslation> => {
    assertOutsideTransaction(deps);
    const { projectId, keyId, language, actor } = input;
    let row = await write(deps, input, false);
    // The glossary terms of the source, from the process's memo of the project's glossary at the
    // version the statement read (a statement more only when the glossary changed since), and the
    // project's forbidden words: each only for a project that has them.
    const [find, forbidden] = await Promise.all([
      row.has_glossary && row.source_value && row.glossary_version !== null ? deps.glossaryMemo.finder(deps.sql, projectId, row.glossary_version) : undefined,
      // Narrowed to the forbidden words this value (or, for an approval the gate judges, the value
      // asked for) could hold.
      row.has_forbidden && row.source_language ? readForbiddenWords(deps.sql, projectId, row.source_language, [row.value ?? input.value]) : undefined,
    ]);
    const terms = (row.source_value && find?.(row.source_value)) || [];
    if (row.value === null && row.key_found && row.language_found && input.status === 'approved' && row.quality_blocking?.length) {
      const sources = references([[keyId, { value: row.source_value, maxLength: row.max_length, terms }]], forbidden);
      const settings = { sourceLanguage: row.source_language!, blocking: row.quality_blocking };
      assertApprovable(blockedValues([{ key_id: keyId, language, value: input.value }], sources, settings), () => ['body', 'value']);
      row = await write(deps, input, true);
    }
    if (!row.key_found) throw keyNotFound();
    if (!row.language_found) throw languageNotRegistered(language);
    const previous = row.previous_version === null ? null : Number(row.previous_version);
    // With both conditions, the one the value did not satisfy answers (If-Match is judged first).
    if (row.value === null && input.ifMatch !== undefined && (input.ifNoneMatch === undefined || !matchesIfMatch(input.ifMatch, previous))) {
      throw ifMatchFailed(keyId, language, input.ifMatch, previous);
    }
    if (row.value === null && input.ifNoneMatch !== undefined) {
      throw ifNoneMatchFailed(keyId, language, input.ifNoneMatch, previous);
    }
    if (row.value === null || row.status === null || row.project_id === null) {
      throw languageNotRegistered(language);
    }
    const after = { value: row.value, status: row.status };
    // A write that changed nothing (a retry, a save of the same text) records no event: no History
    // line, no webhook, no rebuild. It answers as the write did.
    if (row.event_id !== null) await published(deps, [
      {
        id: Number(row.event_id),
        type: 'translation.written',
        projectId,
        actor,
        entity: { type: 'translation', id: `${keyId}/${language}` },
        before: row.before,
        after,
      },
    ]);
    const warnings = row.source_language === null ? [] : warningsOf({ text: row.value, language, source: row.source_value, sourceLanguage: row.source_language, maxLength: row.max_length, terms, forbidden });
    return { key_id: keyId, language, value: row.value, status: row.status, project_id: row.project_id, version: Number(row.version), warnings };
  },
);

/** The statement; `gated`: the quality gate has let this approval through (or it is not one). */
async function write(deps: Pick<Deps, 'sql' | 'valueWrites'>, input: v.InferOutput<typeof PutTranslationCommand>, gated: boolean): Promise<WrittenRow> {
  const { projectId, keyId, language, actor } = input;
  try {
    if (input.ifMatch !== undefined) return await writeIfMatch(deps.sql, input, input.ifMatch, gated);
    if (input.ifNoneMatch !== undefined) return await writeIfNoneMatch(deps.sql, input, input.ifNoneMatch, gated);
    const item = { projectId, keyId, language, value: input.value, status: input.status, gated, actorType: actor.type, actorId: actorId(actor) };
    return await deps.valueWrites.write(deps.sql, item);
  } catch (error) {
    // The guard read a snapshot: a language removed (or a project deleted) between that snapshot
    // and the foreign-key check surfaces as 23503. For the caller that is simply "not there".
    const e = error as { code?: unknown; constraint_name?: unknown } | null;
    if (e?.code === '23503') {
      throw String(e.constraint_name ?? '').includes('language') ? languageNotRegistered(language) : keyNotFound();
    }
    throw error;
  }
}

/**
 * The source text a conditional write records its value as written against (core/translations/
 * outdated.ts): the one the writer's page showed (the portal's editor), else the one committed now.
 */
const basedOn = (sql: Sql, input: v.InferOutput<typeof PutTranslationCommand>) =>
  input.sourceRev === undefined ? sql`(select source_rev from quality)` : sql`${input.sourceRev}::bigint`;

/**
 * A write under If-Match: only an update, which re-checks the version on the row it locked (a write
 * committed meanwhile moved it), and a value deleted meanwhile is not created again. An If-None-Match
 * sent with it is judged there too (RFC 9110 13.2.2 evaluates it after an If-Match that held).
 */
function writeIfMatch(sql: Sql, input: v.InferOutput<typeof PutTranslationCommand>, ifMatch: IfMatch, gated: boolean): Promise<WrittenRow> {
  return conditionalWrite(sql, input, gated, (open) => sql`
      update translations t set value = ${input.value}::text, status = ${input.status}::text, updated_at = now(),
        source_rev = ${keptSourceRevSql(sql, 't', sql`${input.value}::text`, basedOn(sql, input))}
      from live_key, registered left join previous on true
      where t.key_id = live_key.id and t.language = registered.code
        and ${versionGuard(sql, ifMatch, sql`t.version`)} and ${unlessVersion(sql, input.ifNoneMatch, sql`t.version`)} and ${open}
      returning t.project_id, t.value, t.status, t.version`);
}

/**
 * A write under If-None-Match (RFC 9110 13.1.2): `*` creates the value only if it does not exist yet
 * (the create-only write of an editor who saw no value); a list of tags writes unless the value is
 * at one of those versions. Either way the condition is judged on the row the insert conflicts
 * with, which it locks: a value created or changed meanwhile is never overwritten.
 */
function writeIfNoneMatch(sql: Sql, input: v.InferOutput<typeof PutTranslationCommand>, ifNoneMatch: IfMatch, gated: boolean): Promise<WrittenRow> {
  return conditionalWrite(sql, input, gated, (open) => sql`
      insert into translations as t (key_id, project_id, language, value, status, source_rev)
      select live_key.id, live_key.project_id, registered.code, ${input.value}::text, ${input.status}::text, ${basedOn(sql, input)}
      from live_key, registered left join previous on true
      where ${open}
      on conflict (key_id, language) do update set value = excluded.value, status = excluded.status, updated_at = now(),
        source_rev = ${keptSourceRevSql(sql, 't', sql`excluded.value`, sql`excluded.source_rev`)}
        where not ${versionGuard(sql, ifNoneMatch, sql`t.version`)}
      returning t.project_id, t.value, t.status, t.version`);
}

/**
 * One conditional write's statement: the guard (a live key of the project, its language registered),
 * the value before, `written` (the condition's own insert or update, given `open`: false for an
 * approval the project's blocking checks have not judged yet) and its domain event.
 */
async function conditionalWrite(
  sql: Sql,
  input: v.InferOutput<typeof PutTranslationCommand>,
  gated: boolean,
  written: (open: postgres.Fragment) => postgres.Fragment,
): Promise<WrittenRow> {
  const { projectId, keyId, language, actor } = input;
  const open = input.status !== 'approved' || gated ? sql`true` : sql`(select cardinality(quality_blocking) = 0 from quality)`;
  // Key and values by their primary keys, then checked against the project (core/keys/by-id.ts).
  // quality: the key's source value as it was before this statement, the warnings' reference.
  // The update goes by primary key only: live_key has checked the key against the project, and a
  // value always belongs to its key's project (a project condition here invites the project scan).
  // previous: the value before, locked. A plain read is of the statement's snapshot: a write
  // committed while this one waited for the row would be missing from History, its `before` the
  // text that write replaced. A locking read waits, then reads the row as that write left it. The
  // writes join it so that it is read before them (read after, the row is this statement's own
  // update, which a locking read skips).
  // No comments inside the SQL: pg_stat_activity shows only the first 1 KiB of a statement.
  const [row] = await sql<WrittenRow[]>`
    with quality as (
      select p.source_language, p.quality_blocking,
             (select s.value from ${valueById(sql, keyId, sql`p.source_language`)} s where s.project_id = ${projectId}) as source_value,
             coalesce((select s.text_rev from ${valueById(sql, keyId, sql`p.source_language`)} s where s.project_id = ${projectId}), 0) as source_rev,
             exists (select 1 from glossary_terms g where g.project_id = p.id) as has_glossary,
             coalesce((select gv.version from project_glossary_versions gv where gv.project_id = p.id), 0)::text as glossary_version,
             exists (select 1 from glossary_terms g where g.project_id = p.id and g.forbidden) as has_forbidden
      from projects p where p.id = ${projectId}
    ), live_key as (
      select k.id, k.project_id, k.max_length from ${keyById(sql, keyId)} k where k.project_id = ${projectId} and k.deleted_at is null
    ), registered as (
      select code from project_languages where project_id = ${projectId} and code = ${language}
    ), previous as (
      select jsonb_build_object('value', t.value, 'status', t.status) as before, t.version
      from (select * from translations where key_id = ${keyId} and language = ${language} offset 0 for no key update) t where t.project_id = ${projectId}
    ), written as (${written(open)}
    ), event as (
      insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, before, after)
      select 'translation.written', written.project_id, ${actor.type}, ${actorId(actor)}, 'translation',
             ${`${keyId}/${language}`}, (select before from previous),
             jsonb_build_object('value', written.value, 'status', written.status)
      from written
      where (select before from previous) is distinct from jsonb_build_object('value', written.value, 'status', written.status)
      returning id
    )
    select exists (select 1 from live_key) as key_found,
           exists (select 1 from registered) as language_found,
           written.project_id, written.value, written.status,
           (select id from event) as event_id, (select before from previous) as before,
           written.version::text as version, (select version from previous)::text as previous_version,
           quality.source_language, quality.quality_blocking, quality.source_value,
           (select max_length from live_key) as max_length, quality.has_glossary, quality.glossary_version, quality.has_forbidden
    from (select 1) as one left join written on true left join quality on true`;
  return row!;
}
