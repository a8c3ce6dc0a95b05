// POST /v1/glossary/import: a glossary file (CSV or TBX, files/) merged into the project's
// glossary, all or nothing. A term of the file is matched to the glossary's by its spelling in any
// case: a new one is added; a known one gets what the file gives (its spelling's case, a
// description, a flag, a language's translation). What the file leaves empty stays as it is, and
// nothing is removed: an import brings terms in, it does not mirror the file (docs/decisions.md,
// "Glossary files"). A dry run answers the same and writes nothing. One glossary.imported event
// with the counts, not one per term: a term base of 5,000 terms is one line of Activity.
import { createHash } from 'node:crypto';
import type * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { conflict, validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { FormatError } from '../formats/format-error.ts';
import { fold } from './fold.ts';
import { isTermTaken } from './term-writes.ts';
import { readGlossaryCsv } from './files/glossary-csv.ts';
import { readGlossaryTbx } from './files/glossary-tbx.ts';
import type { FileTerm, GlossaryFile, ProjectLanguages } from './files/glossary-file.ts';
import { ImportGlossaryCommand, TERMS_PER_PROJECT_MAX, type GlossaryImportResult } from './schemas.ts';

type Stored = { id: string; term: string; term_folded: string; description: string; case_sensitive: boolean; translatable: boolean; forbidden: boolean; translations: Record<string, string> };

const READERS = { csv: readGlossaryCsv, tbx: readGlossaryTbx } as const;

function readFile(format: keyof typeof READERS, body: Uint8Array, languages: ProjectLanguages): GlossaryFile {
  let file: GlossaryFile;
  try {
    file = READERS[format](body, languages);
  } catch (error) {
    if (error instanceof FormatError) throw validationError([{ loc: error.loc, msg: error.msg, type: 'format_invalid' }]);
    throw error;
  }
  if (file.issues.length) throw validationError(file.issues);
  return file;
}

/** What the file changes of a stored term: the row's new fields and the translations to write. */
function changesOf(file: FileTerm, stored: Stored) {
  const row = {
    term: file.term,
    description: file.description ?? stored.description,
    case_sensitive: file.caseSensitive ?? stored.case_sensitive,
    translatable: file.translatable ?? stored.translatable,
    forbidden: file.forbidden ?? stored.forbidden,
  };
  const rowChanged =
    row.term !== stored.term || row.description !== stored.description || row.case_sensitive !== stored.case_sensitive || row.translatable !== stored.translatable || row.forbidden !== stored.forbidden;
  const translations = [...file.translations].filter(([code, text]) => stored.translations[code] !== text);
  return { row, rowChanged, translations };
}

type ImportDeps = Pick<Deps, 'sql' | 'events' | 'tx'>;

/**
 * What an import would do, and a digest of the stored terms it compared the file with (their ids,
 * spellings, descriptions, flags and translations): two previews with one digest and one result
 * would write the same. The counts alone cannot say so: a translation a colleague changed from X to
 * Y while the file says Z is one translation written either way.
 */
export type GlossaryImportPreview = { result: GlossaryImportResult; digest: string };

export const importGlossary = useCase(ImportGlossaryCommand, (deps: ImportDeps, input) => runImport(deps, input));

/** A dry run with the digest of what it compared: the portal's preview. */
export const previewGlossaryImport = useCase(ImportGlossaryCommand, async (deps: ImportDeps, input): Promise<GlossaryImportPreview> => {
  let preview: GlossaryImportPreview | undefined;
  await runImport(deps, { ...input, dryRun: true }, (p) => {
    preview = p;
  });
  return preview!;
});

/**
 * The import, handing what it is about to do to `beforeWrite` once it has decided, with the terms
 * it compared locked, and before it writes: the portal's Apply throws from it when that is not what
 * its preview showed, so the check and the write come from one read.
 */
export const importGlossaryAsPreviewed = (deps: ImportDeps, input: v.InferInput<typeof ImportGlossaryCommand>, beforeWrite: (preview: GlossaryImportPreview) => void): Promise<GlossaryImportResult> =>
  useCase(ImportGlossaryCommand, (d: ImportDeps, parsed) => runImport(d, { ...parsed, dryRun: false }, beforeWrite))(deps, input);

async function runImport(deps: ImportDeps, input: v.InferOutput<typeof ImportGlossaryCommand>, beforeWrite?: (preview: GlossaryImportPreview) => void): Promise<GlossaryImportResult> {
  const { projectId, actor, format, dryRun } = input;
  return transaction(deps, async (tx) => {
    // The project's row first, as a term's create and a language's removal take it: no term of the
    // same spelling is added, and no language removed, between this read and the writes below. What
    // is read is a statement of its own, sent with the lock: in READ COMMITTED a statement sees what
    // was committed when it started, and one that waited for the lock would read the languages and
    // the count from before the removal or the create it waited for.
    const read = tx.sql<{ source_language: string; codes: string[]; terms: number }[]>`
      select p.source_language,
             coalesce((select array_agg(l.code order by l.code) from project_languages l where l.project_id = p.id), '{}') as codes,
             (select count(*)::int from glossary_terms g where g.project_id = p.id) as terms
      from projects p where p.id = ${projectId}`;
    const [project] = dryRun ? await read : (await Promise.all([tx.sql`select 1 from projects where id = ${projectId} for no key update`, read]))[1];
    const languages: ProjectLanguages = { source: project!.source_language, codes: project!.codes };
    const file = readFile(format, input.body, languages);
    const folded = file.terms.map((t) => fold(t.term));
    const stored = new Map(
      (
        await tx.sql<Stored[]>`
          select t.id, t.term, t.term_folded, t.description, t.case_sensitive, t.translatable, t.forbidden,
                 coalesce((select jsonb_object_agg(x.language, x.text) from glossary_term_translations x where x.term_id = t.id), '{}'::jsonb) as translations
          from glossary_terms t where t.project_id = ${projectId} and t.term_folded = any (${folded}::text[])
          order by t.term_folded collate "C"
          ${dryRun ? tx.sql`` : tx.sql`for no key update of t`}`
      ).map((s) => [s.term_folded, s]),
    );
    // Locked (a real import): a colleague's change of one of these terms waits for this import, and
    // is not undone by the rows written below from this read.
    const created: FileTerm[] = [];
    const updatedRows: { id: string; term: string; description: string; case_sensitive: boolean; translatable: boolean; forbidden: boolean }[] = [];

    /** [term id or the index of a created term, language, text]. */
    const translations: { term: string | number; language: string; text: string }[] = [];
    let unchanged = 0;
    for (const [i, term] of file.terms.entries()) {
      const known = stored.get(folded[i]!);
      if (!known) {
        translations.push(...[...term.translations].map(([language, text]) => ({ term: created.length, language, text })));
        created.push(term);
        continue;
      }
      const change = changesOf(term, known);
      translations.push(...change.translations.map(([language, text]) => ({ term: known.id, language, text })));
      // A term whose translations alone change is updated too: its row is written as it is, for its updated_at.
      if (change.rowChanged || change.translations.length > 0) updatedRows.push({ id: known.id, ...change.row });
      else unchanged++;
    }
    if (project!.terms + created.length > TERMS_PER_PROJECT_MAX) {
      throw validationError([{
        loc: ['body'],
        msg: `the file adds ${created.length.toLocaleString('en-US')} terms to the glossary's ${project!.terms.toLocaleString('en-US')}: over ${TERMS_PER_PROJECT_MAX.toLocaleString('en-US')}, the most a project keeps`,
        type: 'too_many',
      }]);
    }
    const result: GlossaryImportResult = {
      project_id: projectId,
      format,
      dry_run: dryRun,
      terms_created: created.length,
      terms_updated: updatedRows.length,
      terms_unchanged: unchanged,
      translations_written: translations.length,
      languages: [...new Set(file.terms.flatMap((t) => [...t.translations.keys()]))].sort(),
      warnings: file.warnings,
    };
    beforeWrite?.({ result, digest: digestOf(stored) });
    if (dryRun || (created.length === 0 && updatedRows.length === 0)) return result;

    const ids = new Map<number, string>();
    if (created.length) {
      // Flags go as text: postgres.js serializes a boolean array parameter's text as false (value-writes.ts).
      const rows = await tx.sql<{ id: string; term_folded: string }[]>`
        insert into glossary_terms (project_id, term, term_folded, description, case_sensitive, translatable, forbidden)
        select ${projectId}, x.term, x.folded, x.description, x.case_sensitive, x.translatable, x.forbidden
        from unnest(${created.map((t) => t.term)}::text[], ${created.map((t) => fold(t.term))}::text[], ${created.map((t) => t.description ?? '')}::text[],
                    ${created.map((t) => String(t.caseSensitive ?? false))}::text[]::bool[], ${created.map((t) => String(t.translatable ?? true))}::text[]::bool[],
                    ${created.map((t) => String(t.forbidden ?? false))}::text[]::bool[])
             as x(term, folded, description, case_sensitive, translatable, forbidden)
        returning id, term_folded`;
      const byFolded = new Map(rows.map((r) => [r.term_folded, r.id]));
      created.forEach((t, i) => ids.set(i, byFolded.get(fold(t.term))!));
    }
    if (updatedRows.length) {
      await tx.sql`
        update glossary_terms t set term = x.term, term_folded = x.folded, description = x.description,
               case_sensitive = x.case_sensitive, translatable = x.translatable, forbidden = x.forbidden, updated_at = now()
        from unnest(${updatedRows.map((r) => r.id)}::uuid[], ${updatedRows.map((r) => r.term)}::text[], ${updatedRows.map((r) => fold(r.term))}::text[],
                    ${updatedRows.map((r) => r.description)}::text[], ${updatedRows.map((r) => String(r.case_sensitive))}::text[]::bool[], ${updatedRows.map((r) => String(r.translatable))}::text[]::bool[],
                    ${updatedRows.map((r) => String(r.forbidden))}::text[]::bool[])
             as x(id, term, folded, description, case_sensitive, translatable, forbidden)
        where t.id = x.id and t.project_id = ${projectId}`;
    }
    if (translations.length) {
      const termIds = translations.map((t) => (typeof t.term === 'number' ? ids.get(t.term)! : t.term));
      await tx.sql`
        insert into glossary_term_translations (term_id, project_id, language, text, text_folded)
        select x.term_id, ${projectId}, x.language, x.text, x.folded
        from unnest(${termIds}::uuid[], ${translations.map((t) => t.language)}::text[], ${translations.map((t) => t.text)}::text[], ${translations.map((t) => fold(t.text))}::text[])
             as x(term_id, language, text, folded)
        on conflict (term_id, language) do update set text = excluded.text, text_folded = excluded.text_folded`;
    }
    tx.record({
      type: 'glossary.imported',
      projectId,
      actor,
      entity: { type: 'project', id: projectId },
      after: { format, terms_created: result.terms_created, terms_updated: result.terms_updated, translations_written: result.translations_written },
    });
    return result;
  }).catch((error: unknown) => {
    // A term renamed (PATCH, which does not take the project's row) to a spelling of the file meanwhile.
    if (isTermTaken(error)) throw conflict('A term of the file was added to the glossary while it was imported: import it again');
    throw error;
  });
}

function digestOf(stored: ReadonlyMap<string, Stored>): string {
  const rows = [...stored.values()].map((s) => [s.id, s.term, s.description, s.case_sensitive, s.translatable, s.forbidden, Object.entries(s.translations).sort(([a], [b]) => (a < b ? -1 : 1))]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('base64url');
}
