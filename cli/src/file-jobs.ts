// The files a command reads or writes: one per mapping and language. Two of them on one path
// would make push import one file twice (as two languages, or two formats) and pull overwrite one
// language's file with another's, so a config that maps two to one file is a wrong value (exit 2):
// refused when the config is read, for the languages the config names (sameFileProblems), and
// again for the project's own languages before anything is sent or written (fileJobs).
import { readdir, stat } from 'node:fs/promises';
import { dirname, posix, resolve } from 'node:path';
import { usageError } from './errors.ts';
import { holdsEveryLanguage } from './formats.ts';
import type { FileMapping, LoadedConfig } from './config-file.ts';

/** `group`: set for a mapping whose path has `{group}` (one file per group: an i18next namespace). */
export type FileJob = { mapping: FileMapping; index: number; language: string; path: string; group?: string };

/** The path template of one language for one mapping (`{group}` left in), relative to the config's directory. */
const templateFor = (mapping: FileMapping, language: string) =>
  (mapping.languagePaths && Object.hasOwn(mapping.languagePaths, language) ? mapping.languagePaths[language] : undefined) ?? mapping.path.replaceAll('{language}', language);

/** The file of one language (and group, for a `{group}` mapping) for one mapping, relative to the config's directory. */
export const pathFor = (mapping: FileMapping, language: string, group?: string) =>
  group === undefined ? templateFor(mapping, language) : templateFor(mapping, language).replaceAll('{group}', group);

export const hasGroups = (mapping: FileMapping) => mapping.path.includes('{group}');

const groupNamed = (pattern: RegExp) => (s: string) => pattern.test(s) && s.trim() === s && s !== '.' && s !== '..';
/** A group name as the server takes it (core/validation.ts): a file named otherwise is not a group's. */
export const isGroupName = groupNamed(/^(?!\p{M})[\p{L}\p{M}\p{Nd} _.-]{1,200}$/u);
/** A name a server's group may have: also numbers other than digits, which older servers took (pull). */
export const mayNameGroup = groupNamed(/^(?!\p{M})[\p{L}\p{M}\p{N} _.-]{1,200}$/u);

/**
 * The files of a `{group}` template that exist, with the group each names: the folders are read
 * segment by segment, `{group}` matching any name (the same one wherever it appears). Names that are
 * not group names are returned apart, to be reported, not pushed.
 */
export async function existingGroupFiles(root: string, template: string): Promise<{ files: { group: string; path: string }[]; notGroups: string[] }> {
  const segments = same(template).split('/');
  const files: { group: string; path: string }[] = [];
  const notGroups: string[] = [];
  async function walk(done: string[], i: number, group: string | undefined): Promise<void> {
    if (i === segments.length) {
      const path = done.join('/');
      const kind = await stat(resolve(root, path)).catch(() => null);
      if (!kind?.isFile()) return;
      if (isGroupName(group!)) files.push({ group: group!, path });
      else notGroups.push(path);
      return;
    }
    const segment = segments[i]!;
    if (!segment.includes('{group}') || group !== undefined) return walk([...done, group === undefined ? segment : segment.replaceAll('{group}', group)], i + 1, group);
    const [first, ...rest] = segment.split('{group}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(`^${first}${rest.map((part, n) => `${n === 0 ? '(.+)' : '\\1'}${part}`).join('')}$`, 'u');
    const names = await readdir(resolve(root, done.join('/') || '.')).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const found = pattern.exec(name)?.[1];
      if (found !== undefined) await walk([...done, name], i + 1, found);
    }
  }
  await walk([], 0, undefined);
  return { files, notGroups };
}

const same = (path: string) => posix.normalize(path.replaceAll('\\', '/'));
// A project's codes as the server writes them (core/languages/language-code.ts): `pt-BR`, `zh-Hant`.
// Android's `values-pt-rBR` is then no language's path (its mixed case is no code the server keeps).
const LANGUAGE_IN_PATH = '([a-z]{2,3}(?:-(?:[A-Z]{2,3}|[A-Z][a-z]{3}))?)';

/** The language for which `template` gives `path`, if one does. */
function languageOf(template: string, path: string): string | undefined {
  const [first, ...rest] = same(template).split('{language}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`^${first}${rest.map((part, i) => `${i === 0 ? LANGUAGE_IN_PATH : '\\1'}${part}`).join('')}$`);
  return pattern.exec(same(path))?.[1];
}

/** Two mappings, or a mapping and a languagePaths entry, that name one file: one line per clash. */
export function sameFileProblems(files: readonly FileMapping[]): string[] {
  const problems: string[] = [];
  const fixed = files.flatMap((f, i) => Object.entries(f.languagePaths ?? {}).map(([language, path]) => ({ i, language, path, field: `files[${i}].languagePaths.${language}` })));
  files.forEach((f, j) => {
    const earlier = files.findIndex((g, i) => i < j && same(g.path) === same(f.path));
    if (earlier !== -1) problems.push(`files[${j}].path: the same file as files[${earlier}].path ("${f.path}"): give each mapping its own path`);
  });
  fixed.forEach((b, n) => {
    const a = fixed.slice(0, n).find((a) => same(a.path) === same(b.path));
    if (a) problems.push(`${b.field}: the same file as ${a.field} ("${b.path}")`);
    files.forEach((f, j) => {
      const language = languageOf(f.path, b.path);
      if (language === undefined || (j === b.i && language === b.language) || Object.hasOwn(f.languagePaths ?? {}, language)) return;
      problems.push(`${b.field}: "${b.path}" is also files[${j}].path for ${language}`);
    });
  });
  return problems;
}

/**
 * Every mapping's file for each language, in config order; two on one file stop the command (exit 2).
 * A `{group}` mapping has one file per group that `groupsOf` names for the language (push: the
 * files that exist; pull: the project's groups).
 */
export function fileJobs(config: LoadedConfig, languages: readonly string[], groupsOf?: (mapping: FileMapping, language: string) => readonly string[]): FileJob[] {
  const jobs: FileJob[] = config.files.flatMap((mapping, index) =>
    languages.flatMap((language) =>
      hasGroups(mapping)
        ? (groupsOf?.(mapping, language) ?? []).map((group) => ({ mapping, index, language, group, path: pathFor(mapping, language, group) }))
        : [{ mapping, index, language, path: pathFor(mapping, language) }],
    ),
  );
  const byFile = new Map<string, FileJob>();
  for (const job of jobs) {
    const target = resolve(config.root, job.path);
    const other = byFile.get(target);
    // A String Catalog's languages all live in its one file: the same mapping, not a clash.
    if (other && !(other.index === job.index && holdsEveryLanguage(job.mapping.format))) {
      throw usageError(
        `${config.file} maps two files to ${job.path}: files[${other.index}] for ${other.language} and files[${job.index}] for ${job.language}. Give each language and mapping its own file (languagePaths).`,
      );
    }
    byFile.set(target, job);
  }
  return jobs;
}

/**
 * iOS keeps a language's plurals in Localizable.stringsdict and its other strings in
 * Localizable.strings, side by side in one .lproj folder, and looks a key up in both (the
 * .stringsdict's entry wins). Files pair up when an `ios-strings` and an `ios-stringsdict` mapping
 * give one language (and group) files in one folder; a .strings file without a .stringsdict beside
 * it (another target's, an app extension's) pairs with none, and neither does a lone .stringsdict.
 * Each paired file comes with the other format's files of its folder: pull splits the keys between
 * them, push leaves out of a .strings file the keys its .stringsdict has.
 */
export function iosPairs<J extends FileJob>(jobs: readonly J[]): Map<J, J[]> {
  const place = (job: FileJob) => `${dirname(resolve(job.path))}\u0000${job.language}\u0000${job.group ?? ''}`;
  const byPlace = new Map<string, { strings: J[]; dicts: J[] }>();
  for (const job of jobs) {
    const format = job.mapping.format;
    if (format !== 'ios-strings' && format !== 'ios-stringsdict') continue;
    const here = byPlace.get(place(job)) ?? { strings: [], dicts: [] };
    (format === 'ios-strings' ? here.strings : here.dicts).push(job);
    byPlace.set(place(job), here);
  }
  const pairs = new Map<J, J[]>();
  for (const { strings, dicts } of byPlace.values()) {
    if (strings.length === 0 || dicts.length === 0) continue;
    for (const job of strings) pairs.set(job, dicts);
    for (const job of dicts) pairs.set(job, strings);
  }
  return pairs;
}
