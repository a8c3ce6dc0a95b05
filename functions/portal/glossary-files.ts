// The Glossary tab's files (core/glossary/import-glossary.ts, export-glossary.ts): what the portal
// decides around the use-cases, kept out of the routes so that tests can name it. An import is
// previewed (the dry run), then applied with the same bytes; Apply imports only when the import
// still finds what the preview showed.
import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { GlossaryImportResult } from '../../core/glossary/schemas.ts';
import type { GlossaryImportPreview } from '../../core/glossary/import-glossary.ts';
import type { ProjectAccess } from '../../core/users/memberships.ts';
import { may } from '../../core/users/permissions.ts';

export type GlossaryFormat = 'csv' | 'tbx';

/**
 * Whether the member may import a glossary file: glossary.manage, and a membership that covers every
 * language. A file carries translations in any of the project's languages, so a reviewer limited to
 * some would change the others' through it; term by term, the forms keep them to their own.
 */
export const mayImportGlossary = (a: Pick<ProjectAccess, 'role' | 'languages'>): boolean =>
  may(a.role, 'glossary.manage') && (a.role === 'owner' || a.role === 'developer' || !a.languages || a.languages.length === 0);

/** 403 (the portal's page) for a member who may not import a glossary file. */
export function assertMayImportGlossary(a: ProjectAccess): void {
  if (mayImportGlossary(a)) return;
  throw new AppError(
    'forbidden',
    `Your membership is limited to ${(a.languages ?? []).join(', ')}: a glossary file can change every language's translations, so importing one is for members of every language. Add or edit terms one by one instead.`,
  );
}

const formatProblem = (msg: string) => new AppError('validation', msg, { issues: [{ loc: ['format'], msg, type: 'value_error' }] });

/**
 * The file's format: the one chosen, or (the form's "By the file name") the file name's extension,
 * .csv or .tbx; any other name asks for a choice, at the format field.
 */
export function glossaryFormatOf(chosen: string, filename: string): GlossaryFormat {
  if (chosen === 'csv' || chosen === 'tbx') return chosen;
  if (chosen !== '') throw formatProblem('Choose CSV or TBX');
  const extension = /\.([a-z]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  if (extension === 'csv' || extension === 'tbx') return extension;
  throw formatProblem(`Choose the file's format: its name${filename.trim() ? ` (${filename.trim()})` : ''} does not end in .csv or .tbx`);
}

/**
 * What a preview showed, as a hash its Apply sends back: the format, the dry run's counts, languages
 * and warnings, and the digest of the stored terms it compared the file with. Apply imports only when
 * the import finds the same: a term added, changed or removed meanwhile (a translation changed from
 * X to Y while the file says Z too, which no count shows) means nothing is imported, and the new
 * preview is shown instead.
 */
export function glossaryPreviewFingerprint({ result: r, digest }: GlossaryImportPreview): string {
  const shown = [r.format, r.terms_created, r.terms_updated, r.terms_unchanged, r.translations_written, r.languages, r.warnings, digest];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url');
}

/** Apply's import found other than its preview showed: nothing written, and shown as the new preview. */
export class GlossaryPreviewChanged extends Error {
  readonly preview: GlossaryImportPreview;
  constructor(preview: GlossaryImportPreview) {
    super('the glossary import preview changed');
    this.preview = { ...preview, result: { ...preview.result, dry_run: true } };
  }
}

/**
 * A refused file's problems as lines to read ("line 4: the term is empty"): the import's issues are
 * located by the file's line (['body', 'line', N]); a problem of the whole file has no line.
 */
export function fileProblemLines(error: AppError): string[] {
  const issues = error.issues ?? [];
  if (issues.length === 0) return [error.message];
  return issues.map((issue) => {
    const at = issue.loc.indexOf('line');
    const line = at >= 0 ? issue.loc[at + 1] : undefined;
    return typeof line === 'number' ? `line ${line}: ${issue.msg}` : issue.msg;
  });
}
