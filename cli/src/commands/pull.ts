// `tms pull`: writes every translation's file to its mapped path. A file whose bytes would not change
// is not touched (same bytes, same mtime, no git diff), and the ETag of the local file makes the
// server answer 304 without sending it again. Every changed file is first written to a temporary
// file beside it, and only once all of them are written are they renamed into place: a pull that
// cannot write one file writes none, and an interrupted pull never leaves half a file.
//
// The source language's files are not written unless asked for (--include-source, or --language
// naming it), as Crowdin's CLI does: developers write them, and the server's export holds only
// what it stores, so rewriting them would drop what the server does not keep (Android
// translatable="false" strings, the template ARB's placeholders, Rails lists), and a CI job that
// pushes the source, pulls and runs `git diff --exit-code` could never pass.
import { chmod, mkdir, readFile, readlink, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { canonicalLanguage, LANGUAGE, type FileMapping, type LoadedConfig } from '../config-file.ts';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { etagOf } from '../etag.ts';
import { fileJobs, hasGroups, iosPairs, mayNameGroup, type FileJob } from '../file-jobs.ts';
import { holdsEveryLanguage, needsSource } from '../formats.ts';
import { emptyCatalog, mergeLanguage, readCatalog, refuseOtherSource, writeCatalog, type Catalog } from '../xcstrings-catalog.ts';
import { languagesFor, projectTags, registeredLanguages, serverKeys, type ServerKey } from '../project.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { shown } from '../flags.ts';
import { tagOrigin, tagsOfMappings } from '../tag.ts';

export const PULL_HELP = `tms pull [--language L]... [--status approved|review|draft|all] [--tag T] [--include-source] [--pseudo P] [--json]

Writes each translation's file (default: every language of the project but the source language)
to its mapped path, creating folders, through a temporary file renamed into place. Unchanged files
are left as they are (same bytes, same mtime); the local file's ETag spares the download.
--language L        only this language (repeatable); naming the source language writes its files
--status S          which values: approved (default), review, draft or all
--tag T             only the keys with the tag T (e.g. --tag mobile): the files hold those keys alone;
                    a tag no key of the project has is refused (exit 2), nothing written. A
                    mapping's "tag" in the config does this for its files
--include-source    also write the source language's files (they hold only what the server stores)
--pseudo P          write only the files of the pseudo-language P (en-XA, qps-ploc: a code that is no
                    language of the project), made from the source language's values with every
                    letter accented, lengthened as translations run and between brackets, the
                    placeholders kept: run the app in P to see texts left untranslated, cut or
                    overflowing before any translator has worked; a right-to-left code (ar-XB)
                    forces each word right-to-left instead, to test a mirrored layout
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

const STATUSES = ['approved', 'review', 'draft', 'all'];

/**
 * The pseudo-language --pseudo names, checked: a language code that is no language of the project
 * (its files would be written over that language's), while the source language, whose values it is
 * made from, is one.
 */
async function pseudoLanguage(client: Client, flags: { pseudo?: string; language?: string[]; 'include-source'?: boolean }, source: string): Promise<string | undefined> {
  if (flags.pseudo === undefined) return undefined;
  if (!LANGUAGE.test(flags.pseudo)) throw usageError(`--pseudo ${shown(flags.pseudo)}: not a language code (en-XA, qps-ploc); nothing was written`);
  if (flags.language?.length || flags['include-source']) throw usageError(`--pseudo writes only the pseudo-language's files, made from the source language (${source}): not with --language or --include-source`);
  const code = canonicalLanguage(flags.pseudo);
  const registered = await registeredLanguages(client);
  if (registered.includes(code)) throw usageError(`--pseudo ${code}: a language of this project; a pseudo-language needs a code of its own (en-XA, qps-ploc), or its files would replace ${code}'s; nothing was written`);
  if (!registered.includes(source)) throw usageError(`--pseudo: the source language ${source} (sourceLanguage in the config) is not a language of this project (it has ${registered.join(', ') || 'none'}), and the pseudo-language is made from it`);
  return code;
}

export async function pull(ctx: Context, config: LoadedConfig, client: Client, flags: { language?: string[]; status?: string; 'include-source'?: boolean; tag?: string; pseudo?: string }) {
  const status = flags.status ?? 'approved';
  if (!STATUSES.includes(status)) throw usageError(`--status must be one of ${STATUSES.join(', ')}`);
  const chosen = Boolean(flags.language?.length);
  const source = config.sourceLanguage;
  const includeSource = Boolean(flags['include-source']);
  const pseudo = await pseudoLanguage(client, flags, source);
  // A pseudo-language's files go where the config puts that language's; the server makes them from the source's values.
  let languages = pseudo !== undefined ? [pseudo] : await languagesFor(client, flags.language, { sourceLanguage: config.sourceLanguage, line: ctx.out.line });
  // Each mapping's tag: --tag, else the mapping's own (one project, several apps).
  const tags = tagsOfMappings(config.files, flags.tag, config.file);
  await refuseUnknownTags(client, tags, flags.tag !== undefined);
  if (chosen && includeSource && !languages.includes(source)) languages = [...languages, source];
  // Named with --language, the source language is asked for explicitly.
  const withSource = chosen || includeSource;
  // A `{group}` mapping writes one file per group that has keys (GET /v1/groups); with a tag, per
  // group that has keys with the tag (the others' files would be empty). Asked once per tag.
  const groupsOfTag = new Map<string | undefined, Promise<string[]>>();
  const groupsFor = (tag: string | undefined) =>
    groupsOfTag.get(tag) ??
    groupsOfTag.set(tag, tag === undefined ? client.json<{ groups: string[] }>('GET', '/v1/groups').then((r) => r.groups) : serverKeys(client, tag).then(groupsOf)).get(tag)!;
  const groups = new Map<FileMapping, string[]>();
  for (const [index, mapping] of config.files.entries()) if (hasGroups(mapping)) groups.set(mapping, await groupsFor(tags[index]));
  // Group names become parts of file paths, as language codes do (checked in project.ts).
  const odd = [...groups.values()].flat().find((group) => typeof group !== 'string' || !mayNameGroup(group));
  if (odd !== undefined) throw new CliError(`the server named ${JSON.stringify(odd)} as a group, which is no group name; nothing was written`, EXIT.failed);
  const all = fileJobs(config, languages, (mapping) => groups.get(mapping) ?? []);
  const jobs = withSource ? all : all.filter((job) => job.language !== source);
  const reason = `source language: pulled only with --include-source or --language ${source}`;
  const skipped = withSource ? [] : all.filter((job) => job.language === source).map(({ path, language, mapping }) => ({ path, language, format: mapping.format, reason }));

  refuseCaseTwins(jobs);
  // Every file is downloaded, and every place checked, before the first is written: a pull that
  // fails (a folder where a file goes, a refusal or a lost server at the third file) writes nothing,
  // where it once left the files before it rewritten.
  for (const job of jobs) await checkWritable(config.root, job.path);
  const split = pluralSplit(all);
  const downloads = await ctx.out.progress(
    'pulling',
    jobs.map((job) => async () => {
      const { mapping, language, path, group } = job;
      const tag = tags[job.index];
      const target = resolve(config.root, path);
      const local = await readFile(target).catch(() => null);
      const query = new URLSearchParams({ format: mapping.format, status });
      if (group !== undefined) query.set('namespace', group);
      if (tag !== undefined) query.set('tag', tag);
      const plurals = split.get(job);
      if (plurals !== undefined) query.set('plurals', plurals);
      if (needsSource(mapping.format)) query.set('source', config.sourceLanguage);
      if (pseudo !== undefined) query.set('pseudo', pseudo);
      // A String Catalog's ETag is of all its languages: each language's text is downloaded and merged.
      const catalog = holdsEveryLanguage(mapping.format);
      const res = await client.request('GET', `/v1/export/${encodeURIComponent(pseudo === undefined ? language : source)}?${query}`, {
        headers: local && !catalog ? { 'If-None-Match': etagOf(local) } : {},
      });
      const bytes = res.status === 304 ? null : new Uint8Array(await res.arrayBuffer());
      return { mapping, language, path, target, local, bytes, downloaded: res.status !== 304, tag };
    }),
  );
  const { downloads: perFile, catalogs } = splitCatalogs(downloads);
  // The server's keys, for a catalog merged without a tag: which of the file's texts it withdrew.
  const onServer = catalogs.some((d) => d.tag === undefined) ? new Set((await serverKeys(client)).map((k) => k.key)) : undefined;
  const catalogStates = mergeCatalogs(catalogs, { language: pseudo, sourceLanguage: source, onServer });
  // Unchanged bytes are not written: same mtime, nothing for git.
  const changed = new Set(perFile.filter(({ local, bytes }) => bytes !== null && !(local && Buffer.compare(local, bytes) === 0)));
  const staged = await Promise.all([
    ...[...changed].map(({ path, target, bytes }) => stage(path, target, bytes!)),
    ...catalogStates.files.map(({ path, target, bytes }) => stage(path, target, bytes)),
  ]);
  await writeAll(sharedFilesOnce(staged));
  const results = [];
  for (const download of downloads) {
    const { mapping, language, path, local, downloaded, tag } = download;
    const state = catalogStates.states.get(download) ?? (!changed.has(download) ? 'unchanged' : local ? 'written' : 'created');
    ctx.out.line(`${path} (${language}, ${mapping.format}): ${state}`);
    // downloaded: false when the server answered 304 to the local file's ETag.
    results.push({ path, language, format: mapping.format, ...(tag === undefined ? {} : { tag }), state, downloaded });
  }
  for (const f of skipped) ctx.out.line(`${f.path} (${f.language}, ${f.format}): skipped (${f.reason})`);
  ctx.out.result({ status, ...(flags.tag === undefined ? {} : { tag: flags.tag }), ...(pseudo === undefined ? {} : { pseudo: { language: pseudo, from: source } }), files: results, skipped });
  return 0;
}

type Download = { mapping: FileMapping; language: string; path: string; target: string; local: Buffer | null; bytes: Uint8Array | null; tag: string | undefined };
type State = 'unchanged' | 'written' | 'created';

/** The downloads of files of one language, and those of String Catalogs (one file, every language). */
function splitCatalogs<D extends Download>(downloads: D[]): { downloads: D[]; catalogs: D[] } {
  return { downloads: downloads.filter((d) => !holdsEveryLanguage(d.mapping.format)), catalogs: downloads.filter((d) => holdsEveryLanguage(d.mapping.format)) };
}

/**
 * Each String Catalog with every pulled language's texts merged into it (./xcstrings-catalog.ts),
 * in the order pulled: the files to write (those whose bytes changed) and each language's state
 * (written when its texts changed the file). A file that is no catalog stops the pull before
 * anything is written. `language`: the pseudo-language the texts are filed under, when pulling one.
 */
function mergeCatalogs<D extends Download>(downloads: D[], options: { language: string | undefined; sourceLanguage: string; onServer: ReadonlySet<string> | undefined }) {
  const states = new Map<D, State>();
  const files: { path: string; target: string; bytes: Uint8Array }[] = [];
  const byTarget = new Map<string, D[]>();
  for (const d of downloads) byTarget.set(d.target, [...(byTarget.get(d.target) ?? []), d]);
  for (const [target, group] of byTarget) {
    const { path, local } = group[0]!;
    const catalog = local ? catalogIn(local, path, `${path}, the repository's file,`) : emptyCatalog(options.sourceLanguage);
    refuseOtherSource(path, catalog.sourceLanguage, options.sourceLanguage);
    let before: Uint8Array | null = local;
    for (const d of group) {
      const language = options.language ?? d.language;
      mergeLanguage(catalog, catalogIn(d.bytes!, path, `the server's ${d.language} export`), language, d.tag === undefined ? options.onServer : undefined);
      const after = writeCatalog(catalog);
      states.set(d, before === null ? 'created' : Buffer.compare(before, after) === 0 ? 'unchanged' : 'written');
      before = after;
    }
    const bytes = writeCatalog(catalog);
    if (!local || Buffer.compare(local, bytes) !== 0) files.push({ path, target, bytes });
  }
  return { states, files };
}

function catalogIn(bytes: Uint8Array, path: string, what: string): Catalog {
  try {
    return readCatalog(bytes);
  } catch (error) {
    throw new CliError(`cannot merge into ${path}: ${what} is not a String Catalog (${(error as Error).message}); nothing was written`, EXIT.failed);
  }
}

/** How many of the project's tags a refusal names. */
const TAGS_NAMED = 20;

/**
 * A tag no key of the project has (a typo: `moblie`) would pull empty files over the app's
 * translations: refused, before anything is written, naming the tags there are. `flag`: the tags
 * are --tag's (else the config mappings' own).
 */
async function refuseUnknownTags(client: Client, tags: (string | undefined)[], flag: boolean): Promise<void> {
  if (tags.every((tag) => tag === undefined)) return;
  const known = await projectTags(client, flag ? '--tag' : tagOrigin(tags, undefined));
  const index = tags.findIndex((tag) => tag !== undefined && !known.includes(tag));
  if (index === -1) return;
  const named = known.length === 0 ? 'it has none' : `its tags: ${known.slice(0, TAGS_NAMED).join(', ')}${known.length > TAGS_NAMED ? ` and ${known.length - TAGS_NAMED} more` : ''}`;
  const tag = JSON.stringify(tags[index]);
  throw usageError(`${flag ? `--tag ${tag}` : `files[${index}].tag ${tag}`}: no key of this project has this tag (${named}); nothing was written${flag ? '' : ' (push the files first: push tags their keys)'}`);
}

/** The groups of some keys, each once, sorted as GET /v1/groups sorts them. */
function groupsOf(keys: ServerKey[]): string[] {
  return [...new Set(keys.map((k) => k.group_name))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Groups whose names differ only in case or Unicode normalization (`Home` and `home`) name files
 * that macOS and Windows keep as one: the second would overwrite the first there, and a repository
 * holding both cannot be checked out on them. Refused everywhere, before anything is written, as a
 * team's repository is shared across systems.
 */
function refuseCaseTwins(jobs: FileJob[]) {
  const seen = new Map<string, string>();
  for (const { path } of jobs) {
    const folded = path.normalize('NFC').toLowerCase();
    const first = seen.get(folded);
    if (first !== undefined && first !== path) {
      throw new CliError(
        `${first} and ${path} differ only in case: macOS and Windows keep them as one file, so one would overwrite the other. ` +
          'Rename one of the two groups (or keys) on the server; nothing was written.',
        EXIT.failed,
      );
    }
    seen.set(folded, path);
  }
}

/**
 * Each file of an iOS pair (a .strings and a .stringsdict mapped for one language and group in one
 * folder: iosPairs) gets its share of the keys (the export's plurals=only and plurals=none), as
 * Xcode expects; a .strings file without a .stringsdict beside it (another target's, an app
 * extension's) still gets every key, and so does a lone .stringsdict.
 */
function pluralSplit(jobs: FileJob[]): Map<FileJob, 'only' | 'none'> {
  const split = new Map<FileJob, 'only' | 'none'>();
  for (const job of iosPairs(jobs).keys()) split.set(job, job.mapping.format === 'ios-stringsdict' ? 'only' : 'none');
  return split;
}

/** A file can go at `path`: it is not a folder, and the nearest existing folder above it is one. */
export async function checkWritable(root: string, path: string): Promise<void> {
  const target = resolve(root, path);
  const kind = await stat(target).catch(() => null);
  if (kind && !kind.isFile()) throw new CliError(`cannot write ${path}: ${kind.isDirectory() ? 'it is a folder' : 'it is not a regular file'}`, EXIT.failed);
  for (let above = dirname(target); ; above = dirname(above)) {
    const found = await stat(above).catch(() => null);
    if (found) {
      if (!found.isDirectory()) throw new CliError(`cannot write ${path}: ${relative(root, above) || above} is not a folder`, EXIT.failed);
      return;
    }
    if (dirname(above) === above) return;
  }
}

/** A file to write: `real` is where its bytes go, `temporary` the file beside it they go to first. */
export type Staged = { path: string; real: string; temporary: string; bytes: Uint8Array; mode: number | undefined };

/**
 * Where a file's bytes go, and the mode it keeps. A symlinked file is written through its link:
 * renaming a temporary file over the link would replace the link with a copy. The link is followed
 * by hand, not with realpath, so that a link to a file not yet there is followed too.
 */
export async function stage(path: string, target: string, bytes: Uint8Array): Promise<Staged> {
  let real = target;
  for (let hops = 0; ; hops++) {
    if (hops === 40) throw pullError(`cannot write ${path}: too many levels of symbolic links; nothing was written`, []);
    const link = await readlink(real).catch(() => null);
    if (link === null) break;
    real = resolve(dirname(real), link);
  }
  // A 0640 file stays 0640: a new file would get the umask's mode.
  const mode = await stat(real).then((s) => s.mode & 0o7777, () => undefined);
  return { path, real, temporary: `${real}.tms-${process.pid}.tmp`, bytes, mode };
}

/**
 * Writes every file's temporary, then renames them all into place. A temporary that cannot be
 * written (a read-only folder, a full disk) stops the pull with none of the files changed: the
 * temporaries and the folders made for them are removed. A rename that fails after others succeeded
 * cannot be undone (the files before it are already replaced): the error then names them.
 */
export async function writeAll(files: Staged[]): Promise<void> {
  const started: Staged[] = [];
  const madeFolders: string[] = [];
  for (const file of files) {
    try {
      const folder = dirname(file.real);
      const made = await mkdir(folder, { recursive: true });
      for (let f = folder; made !== undefined; f = dirname(f)) {
        madeFolders.push(f);
        if (f === made || dirname(f) === f) break;
      }
      // Counted before the write: a temporary cut short (a full disk) is removed too.
      started.push(file);
      // Created with the kept mode (the umask can only narrow it), then given it exactly.
      await writeFile(file.temporary, file.bytes, file.mode === undefined ? {} : { mode: file.mode });
      if (file.mode !== undefined) await chmod(file.temporary, file.mode);
    } catch (error) {
      await Promise.all(started.map(removeTemporary));
      // Deepest first; a folder something else was put in meanwhile stays.
      for (const f of madeFolders.sort((a, b) => b.length - a.length)) await rmdir(f).catch(() => {});
      throw pullError(`cannot write ${file.path}: ${(error as Error).message}; nothing was written`, []);
    }
  }
  for (const [i, file] of files.entries()) {
    try {
      await rename(file.temporary, file.real);
    } catch (error) {
      await Promise.all(files.slice(i).map(removeTemporary));
      const before = files.slice(0, i).map((f) => f.path);
      const said = before.length ? `the files before it were written (${before.join(', ')}); the others were not` : 'nothing was written';
      throw pullError(`cannot write ${file.path}: ${(error as Error).message}; ${said}`, before);
    }
  }
}

/**
 * Files that links make one (de-AT.json a link to de.json): written once when their contents agree;
 * when they differ, either would overwrite the other, so nothing is written.
 */
function sharedFilesOnce(files: Staged[]): Staged[] {
  const seen = new Map<string, Staged>();
  for (const file of files) {
    const first = seen.get(file.real);
    if (first === undefined) seen.set(file.real, file);
    else if (Buffer.compare(first.bytes, file.bytes) !== 0) {
      throw pullError(`cannot write ${file.path}: it is the same file as ${first.path} (through a symbolic link), and their contents differ; nothing was written`, []);
    }
  }
  return [...seen.values()];
}

/** Removes a temporary, if there is one: the error that stopped the pull is the one to report. */
const removeTemporary = (file: Staged) => rm(file.temporary, { force: true }).catch(() => undefined);

/** A failed write, with the files already written for --json's error document (`written`). */
function pullError(message: string, written: string[]): CliError {
  const error = new CliError(message, EXIT.failed);
  error.done = { written };
  return error;
}
