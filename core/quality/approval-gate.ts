// Quality checks at the moments a value is written: the warnings a write answers with, and the
// project setting `quality_blocking` that turns chosen checks into a refusal of approval (a 422
// naming each value and check, nothing written). Every approving path (PUT, bulk status, import,
// the portal through the same use-cases) asks the same gate. docs/quality.md.
import type { Sql, TransactionSql } from '../db/client.ts';
import { validationError, type ValidationIssue } from '../errors.ts';
import { warningsOf, type GlossaryTermUse, type QualityCheck, type QualityWarning } from './check-translation.ts';
import { termsInTexts } from '../glossary/terms-in-texts.ts';
import { readForbiddenWords, type ForbiddenWords } from '../glossary/forbidden-words.ts';

type AnySql = Sql | TransactionSql;

export type QualitySettings = { sourceLanguage: string; blocking: readonly QualityCheck[] };

/** One value to judge: its key (and the key's name when known, for messages), language and text. */
export type JudgedValue = { key_id: string; key?: string | undefined; language: string; value: string };

/** A blocking warning of one value. */
export type BlockedValue = JudgedValue & { warning: QualityWarning };

export async function qualitySettings(sql: AnySql, projectId: string): Promise<QualitySettings | null> {
  const [row] = await sql<{ source_language: string; quality_blocking: QualityCheck[] }[]>`
    select source_language, quality_blocking from projects where id = ${projectId}`;
  return row ? { sourceLanguage: row.source_language, blocking: row.quality_blocking } : null;
}

/** What a key's values are judged against: its source-language text (null: none), its character limit and the glossary terms its source holds. */
export type KeyReference = { value: string | null; maxLength: number | null; terms?: readonly GlossaryTermUse[] };

/**
 * The references of the keys judged, by key id, and the project's forbidden words, which judge every
 * value whatever its key: a value of a key an import is about to create has no reference, and its
 * forbidden words are still judged (found by review: an import of new keys skipped them).
 */
export type References = ReadonlyMap<string, KeyReference> & { readonly forbidden?: ForbiddenWords | undefined };

/** References of `refs`, with the project's forbidden words. */
export const references = (refs: Iterable<readonly [string, KeyReference]>, forbidden: ForbiddenWords | undefined): References => Object.assign(new Map(refs), { forbidden });

/** A key's reference as read: its id, its source-language text (null: none) and its character limit. */
export type SourceRow = { key_id: string; value: string | null; max_length: number | null };

/**
 * The references of some keys (key id -> source text and limit), keys and values by their primary
 * keys (the fenced lateral keeps a planner without statistics from scanning the language's values:
 * docs/decisions.md, "No cliff without statistics"). A key of another project (or none) has no
 * entry, and its values are judged as if it had neither.
 */
export async function sourceValues(sql: AnySql, projectId: string, sourceLanguage: string, keyIds: readonly string[]): Promise<References> {
  const rows =
    keyIds.length === 0
      ? []
      : await sql<SourceRow[]>`
          select k.id as key_id, t.value, k.max_length
          from translation_keys k
          left join lateral (select value from translations where key_id = k.id and language = ${sourceLanguage} offset 0) t on true
          where k.id = any(${[...new Set(keyIds)]}::uuid[]) and k.project_id = ${projectId}`;
  return referencesOf(sql, projectId, sourceLanguage, rows);
}

/**
 * The references of keys whose source texts and limits the caller has read itself (an import reads
 * them with its keys' stored values, in the same statement): the glossary terms each source holds,
 * and the project's forbidden words.
 */
export async function referencesOf(sql: AnySql, projectId: string, sourceLanguage: string, rows: readonly SourceRow[]): Promise<References> {
  const [forbidden, terms] = await Promise.all([
    readForbiddenWords(sql, projectId, sourceLanguage),
    termsInTexts(sql, projectId, rows.map((r) => r.value)),
  ]);
  return references(rows.map((r) => [r.key_id, { value: r.value, maxLength: r.max_length, terms: r.value === null ? [] : (terms.get(r.value) ?? []) }] as const), forbidden);
}

/** The values' warnings from the project's blocking checks; [] when none blocks (or none is chosen). */
export function blockedValues(values: readonly JudgedValue[], sources: References, settings: QualitySettings): BlockedValue[] {
  if (settings.blocking.length === 0) return [];
  const blocking = new Set(settings.blocking);
  return values.flatMap((value) =>
    warningsOf(judged(value, sources, settings.sourceLanguage))
      .filter((w) => blocking.has(w.check))
      .map((warning) => ({ ...value, warning })),
  );
}

/** The checks' input for one value, with its key's reference. */
export function judged(value: { key_id: string; language: string; value: string }, sources: References, sourceLanguage: string) {
  const ref = sources.get(value.key_id);
  return { text: value.value, language: value.language, source: ref?.value ?? null, sourceLanguage, maxLength: ref?.maxLength ?? null, terms: ref?.terms, forbidden: sources.forbidden };
}

/** Most issues one refusal lists; the message says how many there were. */
const MAX_ISSUES = 100;

/**
 * The 422 for approvals a blocking check refused. `at` says where each value was in the request
 * (the body's `value`, an index of a list, a line of a file).
 */
export function approvalBlocked(blocked: readonly BlockedValue[], at: (value: BlockedValue) => (string | number)[]): ValidationIssue[] {
  const issues = blocked.slice(0, MAX_ISSUES).map((b) => ({
    loc: at(b),
    msg: `${b.key ?? b.key_id} (${b.language}) cannot be approved: ${b.warning.message} (quality check ${b.warning.check} blocks approval in this project)`,
    type: `quality.${b.warning.check}`,
  }));
  if (blocked.length > MAX_ISSUES) {
    issues.push({ loc: ['body'], msg: `${blocked.length - MAX_ISSUES} more values cannot be approved for the same reasons`, type: 'quality.more' });
  }
  return issues;
}

/** Throws the 422 when any value is blocked; nothing has been written when it does. */
export function assertApprovable(blocked: readonly BlockedValue[], at: (value: BlockedValue) => (string | number)[]): void {
  if (blocked.length > 0) throw validationError(approvalBlocked(blocked, at));
}
