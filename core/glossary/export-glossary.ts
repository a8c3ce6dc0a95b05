// GET /v1/glossary/export: the whole glossary as a file (CSV or TBX, files/), terms in the order of
// their spelling, a column (or langSet) per language of the project. A read: no lock, no event.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { termColumns, toTerm, type TermRow } from './term-rows.ts';
import { writeGlossaryCsv } from './files/glossary-csv.ts';
import { writeGlossaryTbx } from './files/glossary-tbx.ts';
import { ExportGlossaryCommand } from './schemas.ts';

export type GlossaryExport = { body: Uint8Array; contentType: string; filename: string; terms: number };

export const exportGlossary = useCase(ExportGlossaryCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<GlossaryExport> => {
  const { projectId, format } = input;
  const [[project], rows] = await Promise.all([
    deps.sql<{ name: string; source_language: string; codes: string[] }[]>`
      select p.name, p.source_language,
             coalesce((select array_agg(l.code order by l.code) from project_languages l where l.project_id = p.id and l.code <> p.source_language), '{}') as codes
      from projects p where p.id = ${projectId}`,
    deps.sql<TermRow[]>`select ${termColumns(deps.sql)} from glossary_terms t where t.project_id = ${projectId} order by t.term_folded collate "C"`,
  ]);
  const terms = rows.map(toTerm);
  // A translation kept for a language the project no longer has as a translation language (it
  // became the source) is not written: the file has no column for it.
  const languages = project!.codes;
  if (format === 'csv') return { body: writeGlossaryCsv(terms, languages), contentType: 'text/csv; charset=utf-8', filename: 'glossary.csv', terms: terms.length };
  return {
    body: writeGlossaryTbx(terms, project!.source_language, languages, `Glossary of ${project!.name} (tms)`),
    contentType: 'application/x-tbx+xml; charset=utf-8',
    filename: 'glossary.tbx',
    terms: terms.length,
  };
});
