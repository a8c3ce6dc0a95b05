// "Mark up to date": a reviewer has read a translation again after its source text changed and it
// still says the right thing, so it is not outdated any more (core/translations/outdated.ts). The
// text and status stay as they are (so does the version: what an editor read is still what is
// there); only source_rev moves, to the source text read. Recorded as value.marked_up_to_date, an event of Activity that
// changes nothing served: no rebuild, no webhook, no History entry of the value's texts.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { AppError, preconditionFailed } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import { Uuid } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { keyById } from '../keys/by-id.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { translationNotFound } from './delete-translation.ts';
import { ifMatchFailed, matchesIfMatch } from './if-match.ts';
import { outdatedSql } from './outdated.ts';
import { IfMatch, type StoredTranslation, type TranslationStatus } from './schemas.ts';

export const MarkUpToDateCommand = v.object({
  ...WriteInProject,
  keyId: Uuid,
  language: LanguageCode,
  /** The value's version as the caller read it: a text changed since is not marked unread. */
  ifMatch: v.optional(IfMatch),
  /** The source text's number (text_rev) as the caller read it (0: none): a source changed since is not confirmed unseen. */
  sourceRev: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

type Row = {
  source_language: string;
  key_found: boolean;
  value: string | null;
  status: TranslationStatus | null;
  version: string | null;
  source_rev: string;
  outdated: boolean;
};

export const markUpToDate = useCase(MarkUpToDateCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<StoredTranslation> =>
  transaction(deps, async (tx) => {
    const { projectId, keyId, language } = input;
    // The value is locked, so that its version and source_rev are judged on the row as it stays; the
    // source value is only read: locking it too would take two rows of one key in an order the
    // batched writes (key id, language) do not share.
    const [row] = await tx.sql<Row[]>`
      select p.source_language, k.id is not null as key_found, t.value, t.status, t.version::text as version,
             coalesce(s.text_rev, 0)::text as source_rev, coalesce(${outdatedSql(tx.sql, 't', 's')}, false) as outdated
      from projects p
      left join lateral (select k.id from ${keyById(tx.sql, keyId)} k where k.project_id = p.id and k.deleted_at is null) k on true
      left join lateral (select * from translations where key_id = ${keyId} and language = ${language} offset 0 for no key update) t
        on t.project_id = p.id and k.id is not null
      left join lateral (select * from translations where key_id = ${keyId} and language = p.source_language offset 0) s
        on s.project_id = p.id and k.id is not null
      where p.id = ${projectId}`;
    if (!row?.key_found) throw keyNotFound();
    if (language === row.source_language) {
      throw new AppError('validation', `'${language}' is the project's source language: its values are never outdated`, {
        issues: [{ loc: ['path', 'language'], msg: 'the source language has nothing to be up to date with', type: 'value' }],
      });
    }
    if (row.value === null || row.status === null || row.version === null) {
      if (input.ifMatch !== undefined) throw ifMatchFailed(keyId, language, input.ifMatch, null);
      throw translationNotFound(language);
    }
    const version = Number(row.version);
    if (input.ifMatch !== undefined && !matchesIfMatch(input.ifMatch, version)) throw ifMatchFailed(keyId, language, input.ifMatch, version);
    if (input.sourceRev !== undefined && input.sourceRev !== Number(row.source_rev)) {
      throw preconditionFailed(
        `The source text of this key (${row.source_language}) was changed since you read it: read it again before marking the '${language}' value up to date`,
        [{ key_id: keyId, language: row.source_language, expected: input.sourceRev, current: Number(row.source_rev) }],
      );
    }
    const value = { key_id: keyId, language, value: row.value, status: row.status, project_id: projectId, version, outdated: false };
    // Already up to date: nothing to write or record (a retry answers as the first call did).
    if (!row.outdated) return value;
    // The source text read above, not one read again now: a source committed while this waited for
    // the value's lock is newer than what the caller confirmed, and the value stays outdated against it.
    await tx.sql`update translations set source_rev = ${row.source_rev}::bigint where key_id = ${keyId} and language = ${language}`;
    tx.record({
      type: 'value.marked_up_to_date',
      projectId,
      actor: input.actor,
      entity: { type: 'translation', id: `${keyId}/${language}` },
      after: { value: row.value, status: row.status },
    });
    return value;
  }),
);
