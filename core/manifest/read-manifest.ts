import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { iso639_1, languageName } from '../languages/language-code.ts';
import * as v from 'valibot';
import { InProject } from '../commands.ts';
import type { LiveBody } from '../translations/live-memo.ts';
import { liveRead, type LiveReadDeps } from '../translations/live-read.ts';
import { useCase } from '../use-case.ts';
import type { Manifest } from './schemas.ts';

const ReadManifestCommand = v.object({ ...InProject });

type Row = { code: string | null; approved_count: number };

/**
 * Languages with at least one value of a live key (any status), each with the number of live keys
 * whose value is approved. The project's live keys are found by project_id and their values only
 * through the values' primary key (key_id, language): linear in the project's size with or without
 * statistics (docs/decisions.md). Values of unregistered languages cannot exist.
 */
const manifestRows = (sql: Sql | TransactionSql, projectId: string, gate: postgres.Fragment) => sql`
  select t.language as code, (count(*) filter (where t.status = 'approved'))::int as approved_count
  from translation_keys k join translations t on t.key_id = k.id
  where ${gate} and k.project_id = ${projectId} and k.deleted_at is null
  group by t.language`;

/** Ordered by code in code-point order ("pt" before "pt-BR"), as `collate "C"` orders them. */
function manifestOf(projectId: string, rows: readonly Row[]): Manifest {
  const languages = rows.filter((r): r is Row & { code: string } => r.code !== null);
  languages.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return {
    project_id: projectId,
    languages: languages.map((r) => ({ code: r.code, name: languageName(r.code), iso: iso639_1(r.code), approved_count: r.approved_count })),
  };
}

/**
 * The manifest as data. The builder calls it inside its snapshot transaction, so the cached
 * manifest is this one, as of then.
 */
export const readManifest = useCase(ReadManifestCommand, async (deps: { sql: Sql | TransactionSql }, { projectId }): Promise<Manifest> =>
  manifestOf(projectId, await deps.sql<Row[]>`${manifestRows(deps.sql, projectId, deps.sql`true`)}`),
);

/** GET /v1/manifest: the body, from the live-read memo while the project's content is unchanged. */
export const readLiveManifest = useCase(ReadManifestCommand, async (deps: LiveReadDeps, { projectId }): Promise<LiveBody> =>
  liveRead<Row>(deps, projectId, `${projectId} manifest`, (fresh) => manifestRows(deps.sql, projectId, fresh), (rows) =>
    JSON.stringify(manifestOf(projectId, rows)),
  ),
);
