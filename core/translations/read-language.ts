import type { LiveBody } from './live-memo.ts';
import { liveRead, type LiveReadDeps } from './live-read.ts';
import { notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { ReadLanguageCommand } from './schemas.ts';
import { envelope, translationsObject } from './translations-json.ts';

export const languageHasNoValues = (language: string) =>
  notFound(`Language '${language}' has no translations in this project`);

/**
 * Every live value of one language, keyed by full key name, in one query: the body, serialized.
 * 404 only when the language has no live values at all; a filter that matches none of them gives
 * count 0. Values of languages no longer registered cannot exist: removing a language deletes them.
 *
 * The plan stays linear without statistics: translations are found by (project_id, language) and
 * their keys only through translation_keys' primary key. A key is in the project because its value
 * is (a value's project is its key's, set from the key on every write); a `k.project_id` condition
 * would let an unanalyzed planner scan the project's keys once per value (docs/decisions.md).
 */
export const readLanguage = useCase(ReadLanguageCommand, async (deps: LiveReadDeps, input): Promise<LiveBody> => {
  const { projectId, language, status: filter } = input;
  const { sql } = deps;
  const passes = filter === 'all' ? sql`true` : sql`t.status = ${filter}`;
  return liveRead<{ total: number; count: number; translations: string }>(
    deps,
    projectId,
    `${projectId} language ${language} ${filter}`,
    (fresh) => sql`
      select count(*)::int as total,
             (count(*) filter (where ${passes}))::int as count,
             ${translationsObject(sql, filter === 'all' ? 'value-status-group' : 'value', passes)} as translations
      from translations t join translation_keys k on k.id = t.key_id
      where ${fresh} and t.project_id = ${projectId} and t.language = ${language} and k.deleted_at is null`,
    ([row]) => {
      if (!row || row.total === 0) throw languageHasNoValues(language);
      return envelope({ project_id: projectId, language, status_filter: filter, count: row.count }, row.translations);
    },
  );
});
