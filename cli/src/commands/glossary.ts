// `tms glossary pull <file>` and `tms glossary push <file>`: the project's glossary as one file, CSV
// (a spreadsheet's, or a Lokalise or Tolgee glossary export) or TBX (a term base's), through
// GET /v1/glossary/export and POST /v1/glossary/import. The format comes from the file's extension,
// or --format. Everything that can be checked here (the file argument, the format, the file to push)
// is checked before any request: a usage error sends nothing.
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { shown } from '../flags.ts';
import { rows as csvRows } from '../file-keys/csv.ts';
import { utf8 } from '../file-keys/text.ts';
import { checkWritable, stage, writeAll } from './pull.ts';

const COMMON = 'Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota';

export const GLOSSARY_PULL_HELP = `tms glossary pull <file> [--format csv|tbx] [--json]

Writes the project's whole glossary to <file> (GET /v1/glossary/export), through a temporary file
renamed into place: a pull that fails leaves the file as it was. An unchanged file is not touched.
--format F       csv or tbx; by default the file's extension says (.csv, .tbx). A --format that
                 disagrees with the extension is refused (exit 2)
${COMMON}`;

export const GLOSSARY_PUSH_HELP = `tms glossary push <file> [--format csv|tbx] [--dry-run] [--json]

Imports <file> into the project's glossary (POST /v1/glossary/import), all or nothing: new terms are
added, known ones (the same spelling in any case) take what the file gives; an empty cell changes
nothing and no term is removed. Prints the terms added, changed and unchanged, the translations
written and each warning; a file the server cannot take is exit 1 with its lines
("glossary.csv line 12: ..."), nothing imported.
CSV: a header row with term (or the source language's code), description, translatable,
case_sensitive, forbidden and a column per language
(term,description,translatable,case_sensitive,forbidden,de).
--format F       csv or tbx; by default the file's extension says (.csv, .tbx)
--dry-run        say what the import would do; change nothing
${COMMON}`;

export const GLOSSARY_HELP = `tms glossary: the project's glossary as a file (CSV or TBX)

  tms glossary pull <file>   write the glossary to <file> (glossary.csv, glossary.tbx)
  tms glossary push <file>   import <file> into the glossary (--dry-run: change nothing)

${GLOSSARY_PULL_HELP}

${GLOSSARY_PUSH_HELP}`;

export type GlossaryFormat = 'csv' | 'tbx';
const FORMATS: readonly GlossaryFormat[] = ['csv', 'tbx'];
const EXTENSIONS: Record<string, GlossaryFormat> = { '.csv': 'csv', '.tbx': 'tbx' };
/** What the export answers for each format (its Content-Type, before any "; charset"). */
const MEDIA_TYPES: Record<GlossaryFormat, string> = { csv: 'text/csv', tbx: 'application/x-tbx+xml' };
/** The server's limit for a glossary file (functions/glossary/routes.ts). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The file a glossary command works on: as the user wrote it (for messages), where it is, its format. */
export type GlossaryTarget = { path: string; target: string; format: GlossaryFormat };
/** A push's file, read before anything is sent. */
export type GlossaryUpload = GlossaryTarget & { body: Buffer };

/** The one file argument. */
function fileArgument(command: string, positionals: string[]): string {
  if (positionals.length === 0) throw usageError(`name the file: tms glossary ${command} glossary.csv (or a .tbx file)`);
  if (positionals.length > 1) throw usageError(`one file, not ${positionals.length} (${positionals.map(shown).join(', ')}): tms glossary ${command} <file>`);
  const path = positionals[0]!;
  if (path === '' || path.includes('\0')) throw usageError(`${shown(path)} is no file name: tms glossary ${command} <file>`);
  return path;
}

/** The format: --format, else the file's extension; the two must agree when both say one. */
export function formatOf(path: string, flag: string | undefined): GlossaryFormat {
  if (flag !== undefined && !FORMATS.includes(flag as GlossaryFormat)) throw usageError(`--format ${shown(flag)}: csv or tbx`);
  const extension = extname(path).toLowerCase();
  const named = EXTENSIONS[extension];
  if (flag !== undefined && named !== undefined && flag !== named) {
    throw usageError(`--format ${flag}, but ${path} is named as a ${named} file (${extension}): give the file a .${flag} name, or leave --format out`);
  }
  const format = (flag as GlossaryFormat | undefined) ?? named;
  if (format === undefined) {
    throw usageError(`${path}: the format cannot be told from ${extension === '' ? 'a name without an extension' : `the extension ${shown(extension)}`}: name it .csv or .tbx, or give --format csv or --format tbx`);
  }
  return format;
}

/** `tms glossary pull`'s checks before any request: the argument, the format, a place the file can go. */
export async function glossaryPullTarget(cwd: string, positionals: string[], flags: { format?: string }): Promise<GlossaryTarget> {
  const path = fileArgument('pull', positionals);
  const format = formatOf(path, flags.format);
  await checkWritable(cwd, path);
  return { path, target: resolve(cwd, path), format };
}

/** `tms glossary push`'s checks before any request: the argument, the format, and the file, read. */
export async function glossaryPushUpload(cwd: string, positionals: string[], flags: { format?: string }): Promise<GlossaryUpload> {
  const path = fileArgument('push', positionals);
  const format = formatOf(path, flags.format);
  const target = resolve(cwd, path);
  const kind = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw usageError(`${path} not found (paths are relative to the current folder)`);
    throw new CliError(`cannot read ${path}: ${error.message}`, EXIT.failed);
  });
  if (kind.isDirectory()) throw usageError(`${path} is a folder: name the glossary file`);
  // Said here, not as the server's 413 after 10 MiB went over the wire.
  if (kind.size > MAX_FILE_BYTES) throw new CliError(`${path} is ${mebibytes(kind.size)}; the server takes glossary files up to 10 MiB`, EXIT.failed);
  const body = await readFile(target).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${path}: ${error.message}`, EXIT.failed);
  });
  return { path, target, format, body };
}

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The terms an export file holds, counted in the file itself (not asked separately: the glossary
 * may change between two requests). CSV: its records after the header, read as RFC 4180 (a quoted
 * description may hold line breaks). TBX: its entries (an entry's text is escaped, so it never
 * reads as one). null when the file cannot be read as such.
 */
export function termsIn(format: GlossaryFormat, bytes: Uint8Array): number | null {
  let text: string;
  try {
    text = utf8(bytes);
  } catch {
    return null;
  }
  if (format === 'tbx') return (text.match(/<(termEntry|conceptEntry)[\s>/]/g) ?? []).length;
  try {
    return Math.max(0, csvRows(text, ',').length - 1);
  } catch {
    return null;
  }
}

type Issue = { loc?: unknown; msg?: unknown };

/** A server older than the glossary's files answers the route as a term id it cannot read (422 at path.term_id), or not at all (404). */
const NO_FILE_ROUTES = (route: string) =>
  `this server has no glossary files (${route} is not there): upgrade it to pull and push glossary files`;

async function detailOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { detail?: unknown }).detail ?? text;
  } catch {
    return text;
  }
}

const isPathIssue = (detail: unknown) => Array.isArray(detail) && detail.some((i: Issue) => Array.isArray(i?.loc) && i.loc[0] === 'path');

export async function glossaryPull(ctx: Context, client: Client, file: GlossaryTarget) {
  const { path, target, format } = file;
  const route = `/v1/glossary/export?${new URLSearchParams({ format })}`;
  const res = await client.request('GET', route, { accept: [404, 422] });
  if (res.status === 404 || res.status === 422) {
    const detail = await detailOf(res);
    if (res.status === 404 || isPathIssue(detail)) throw new CliError(`${NO_FILE_ROUTES('GET /v1/glossary/export')}; nothing was written`, EXIT.failed);
    throw new CliError(`GET ${route}: refused (422): ${typeof detail === 'string' ? detail : JSON.stringify(detail)}; nothing was written`, EXIT.failed);
  }
  // A proxy's page or a portal's fallback answered 200 is no glossary: it is not written over the file.
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== MEDIA_TYPES[format]) {
    await res.arrayBuffer().catch(() => undefined);
    throw new CliError(`GET ${route}: the server answered ${type === '' ? 'no Content-Type' : shown(type)}, not a ${format} file (${MEDIA_TYPES[format]}); nothing was written`, EXIT.failed);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const terms = termsIn(format, bytes);
  const local = await readFile(target).catch(() => null);
  const state = local && Buffer.compare(local, bytes) === 0 ? 'unchanged' : local ? 'written' : 'created';
  // Through a temporary beside the file, renamed into place (as `tms pull` writes), keeping a link a link and the file's mode.
  if (state !== 'unchanged') await writeAll([await stage(path, target, bytes)]);
  const count = terms === null ? '' : plural(terms, 'term');
  ctx.out.line(state === 'unchanged' ? `${path}: unchanged${count ? ` (${count})` : ''}` : `${path}: ${count ? `${count} ` : ''}written`);
  ctx.out.result({ path, format, terms, state });
  return 0;
}

/** The server's answer to an import (core/glossary/schemas.ts, GlossaryImportResult). */
export type GlossaryImportAnswer = {
  project_id: string;
  format: GlossaryFormat;
  dry_run: boolean;
  terms_created: number;
  terms_updated: number;
  terms_unchanged: number;
  translations_written: number;
  languages: string[];
  warnings: string[];
};

/** One refusal of the file, located: "glossary.csv line 12: ..." (a line where the server names one). */
function located(path: string, issue: Issue): { line?: number; message: string } {
  const loc = Array.isArray(issue.loc) ? (issue.loc as unknown[]) : [];
  const msg = typeof issue.msg === 'string' ? issue.msg : JSON.stringify(issue.msg);
  if (loc[0] === 'body' && loc[1] === 'line' && typeof loc[2] === 'number') return { line: loc[2], message: `${path} line ${loc[2]}: ${msg}` };
  if (loc.length === 0 || (loc.length === 1 && loc[0] === 'body')) return { message: `${path}: ${msg}` };
  return { message: `${path}: ${loc.join('.')}: ${msg}` };
}

export async function glossaryPush(ctx: Context, client: Client, file: GlossaryUpload, flags: { 'dry-run'?: boolean }) {
  const { path, format, body } = file;
  const dryRun = Boolean(flags['dry-run']);
  const route = `/v1/glossary/import?${new URLSearchParams({ format, dry_run: String(dryRun) })}`;
  const res = await client.request('POST', route, { body, headers: { 'Content-Type': MEDIA_TYPES[format] }, accept: [404, 422] }).catch((error: unknown) => {
    // A 409 (a term added meanwhile), a 413, a lost server: the local file is named first.
    if (error instanceof CliError) error.message = `${path}: ${error.message}`;
    throw error;
  });
  if (res.status === 404) {
    await res.arrayBuffer().catch(() => undefined);
    throw new CliError(`${NO_FILE_ROUTES('POST /v1/glossary/import')}; nothing was imported`, EXIT.failed);
  }
  if (res.status === 422) {
    const detail = await detailOf(res);
    if (!Array.isArray(detail)) throw new CliError(`${path}: refused (422): ${typeof detail === 'string' ? detail : JSON.stringify(detail)}; nothing was imported`, EXIT.failed);
    const issues = (detail as Issue[]).map((issue) => located(path, issue));
    const error = new CliError(`${path} was refused (422); nothing was imported:\n${issues.map((i) => `  ${i.message}`).join('\n')}`, EXIT.failed);
    error.done = { path, format, dry_run: dryRun, issues };
    throw error;
  }
  const answer = (await res.json()) as GlossaryImportAnswer;
  const languages = answer.languages.length ? ` (${answer.languages.join(', ')})` : '';
  if (dryRun) {
    ctx.out.line(
      `${path} (dry run): would add ${plural(answer.terms_created, 'term')}, change ${answer.terms_updated}, leave ${answer.terms_unchanged} unchanged; ` +
        `would write ${plural(answer.translations_written, 'translation')}${languages}; nothing was written`,
    );
  } else {
    ctx.out.line(
      `${path}: ${plural(answer.terms_created, 'term')} added, ${answer.terms_updated} changed, ${answer.terms_unchanged} unchanged; ` +
        `${plural(answer.translations_written, 'translation')} written${languages}`,
    );
  }
  for (const warning of answer.warnings) ctx.out.line(`  warning: ${warning}`);
  ctx.out.result({ path, ...answer });
  return 0;
}
