import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import { preconditionFailed, validationError, type VersionConflict } from '../errors.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { TranslationStatus } from '../translations/schemas.ts';
import type { TransactionSql } from '../db/client.ts';
import { assertApprovable, blockedValues, qualitySettings, sourceValues } from '../quality/approval-gate.ts';
import { BULK_MAX_KEYS, exactlyOneSelection, KeySelectionFields, selectKeys } from './key-selection.ts';
import { keyFilterSql } from './key-filter.ts';

const Version = v.pipe(v.number('version must be a number'), v.integer('version must be an integer'), v.minValue(1));

const BulkStatusFields = {
  ...KeySelectionFields,
  languages: v.pipe(
    v.array(LanguageCode, 'languages must be a list of language codes'),
    v.minLength(1, 'name at least one language'),
    v.maxLength(50, 'name at most 50 languages'),
  ),
  status: TranslationStatus,
  /** The versions the caller saw: any of them changed since (or gone) refuses the whole action (412). */
  expected_versions: v.optional(
    v.pipe(
      v.array(v.strictObject({ key_id: v.pipe(v.string(), v.uuid('must be a UUID')), language: LanguageCode, version: Version })),
      v.maxLength(BULK_MAX_KEYS * 10, `expected_versions may list at most ${BULK_MAX_KEYS * 10} values`),
    ),
  ),
};

export const BulkStatusInput = v.pipe(v.strictObject(BulkStatusFields), exactlyOneSelection());
export const BulkStatusCommand = v.pipe(
  v.object({
    ...WriteInProject,
    ...BulkStatusFields,
    /** Leave approved values alone (a translator's "send to review" in the portal must not un-approve). */
    skipApproved: v.optional(v.boolean(), false),
  }),
  exactlyOneSelection(),
);

export const BulkStatusResult = v.object({
  project_id: v.string(),
  status: TranslationStatus,
  /** Values whose status changed (values already in that status, and keys without a value, are left). */
  changed: v.number(),
  /** The changed values' new versions, for the caller's next If-Match. */
  values: v.array(v.object({ key_id: v.string(), language: v.string(), version: v.number() })),
});
export type BulkStatusResult = v.InferOutput<typeof BulkStatusResult>;

type Current = { key_id: string; language: string; value: string; status: TranslationStatus; version: string };

/**
 * The project's blocking quality checks over the values about to be approved (docs/quality.md): any
 * refused value refuses the whole action, before anything is written. Each refusal points at the
 * key's place in key_ids, or at the filter that selected it.
 */
async function assertTargetsApprovable(sql: TransactionSql, projectId: string, targets: Current[], keys: { id: string; key: string }[], keyIds: string[] | undefined) {
  const settings = await qualitySettings(sql, projectId);
  if (!settings || settings.blocking.length === 0) return;
  const names = new Map(keys.map((k) => [k.id, k.key]));
  const sources = await sourceValues(sql, projectId, settings.sourceLanguage, targets.map((t) => t.key_id));
  const index = new Map((keyIds ?? []).map((id, i) => [id.toLowerCase(), i]));
  assertApprovable(
    blockedValues(targets.map((t) => ({ key_id: t.key_id, key: names.get(t.key_id), language: t.language, value: t.value })), sources, settings),
    (b) => (index.has(b.key_id) ? ['body', 'key_ids', index.get(b.key_id)!] : ['body', 'filter']),
  );
}

/**
 * Sets the status of the selected keys' values in some languages: one transaction, one
 * translation.written event per value changed (as a single PUT records), all or nothing. The values
 * are locked before the expected versions are compared, so nothing can slip in between.
 */
export const bulkSetStatus = useCase(BulkStatusCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<BulkStatusResult> =>
  transaction(deps, async (tx) => {
    const { projectId, status } = input;
    const languages = [...new Set(input.languages)];
    const registered = await tx.sql<{ code: string }[]>`
      select code from project_languages where project_id = ${projectId} and code = any(${languages}::text[])`;
    const unknown = languages.find((l) => !registered.some((r) => r.code === l));
    if (unknown) throw languageNotRegistered(unknown);

    const keys = await selectKeys(tx.sql, projectId, input);
    const keyIds = keys.map((k) => k.id);
    let current: Current[] = keyIds.length
      ? await tx.sql<Current[]>`
          select key_id, language, value, status, version::text as version from translations
          where project_id = ${projectId} and key_id = any(${keyIds}::uuid[]) and language = any(${languages}::text[])
          order by key_id, language for update`
      : [];
    if (input.filter && current.length > 0) {
      // The selection locked the keys, not their values: a write committed before the values' lock
      // (a translator's new draft over a value the filter matched in review) would otherwise be
      // approved unseen. With the values locked, the filter is asked again, and a key it no longer
      // matches is left as if it had never been selected: what is changed is what the filter means now.
      const still = await tx.sql<{ id: string }[]>`
        select k.id from translation_keys k
        where k.project_id = ${projectId} and k.deleted_at is null and k.id = any(${keyIds}::uuid[]) ${keyFilterSql(tx.sql, projectId, input.filter)}`;
      const matching = new Set(still.map((r) => r.id));
      current = current.filter((c) => matching.has(c.key_id));
    }
    const at = new Map(current.map((c) => [`${c.key_id}/${c.language}`, c]));

    if (input.expected_versions?.length) {
      const selected = new Set(keyIds);
      const outside = input.expected_versions.findIndex((e) => !selected.has(e.key_id.toLowerCase()) || !languages.includes(e.language));
      if (outside >= 0) {
        throw validationError([{ loc: ['body', 'expected_versions', outside], msg: 'names a value outside the selected keys and languages', type: 'value_error' }]);
      }
      const conflicts: VersionConflict[] = input.expected_versions.flatMap((e) => {
        const now = at.get(`${e.key_id.toLowerCase()}/${e.language}`);
        const version = now ? Number(now.version) : null;
        return version === e.version ? [] : [{ key_id: e.key_id.toLowerCase(), language: e.language, expected: e.version, current: version }];
      });
      if (conflicts.length > 0) {
        throw preconditionFailed(`${conflicts.length} value${conflicts.length === 1 ? ' has' : 's have'} changed since you read them: nothing was changed`, conflicts);
      }
    }

    const targets = current.filter((c) => c.status !== status && !(input.skipApproved && c.status === 'approved'));
    if (targets.length === 0) return { project_id: projectId, status, changed: 0, values: [] };
    if (status === 'approved') await assertTargetsApprovable(tx.sql, projectId, targets, keys, input.key_ids);
    const written = await tx.sql<{ key_id: string; language: string; version: string }[]>`
      update translations t set status = ${status}, updated_at = now()
      from unnest(${targets.map((c) => c.key_id)}::uuid[], ${targets.map((c) => c.language)}::text[]) as target(key_id, language)
      where t.key_id = target.key_id and t.language = target.language and t.project_id = ${projectId}
      returning t.key_id, t.language, t.version::text as version`;
    for (const c of targets) {
      tx.record({
        type: 'translation.written',
        projectId,
        actor: input.actor,
        entity: { type: 'translation', id: `${c.key_id}/${c.language}` },
        before: { value: c.value, status: c.status },
        after: { value: c.value, status },
      });
    }
    return {
      project_id: projectId,
      status,
      changed: written.length,
      values: written.map((w) => ({ key_id: w.key_id, language: w.language, version: Number(w.version) })).sort((a, b) => (a.key_id + a.language < b.key_id + b.language ? -1 : 1)),
    };
  }),
);
