// The files a command reads or writes: one per mapping and language. Two of them on one path
// would make push import one file twice (as two languages, or two formats) and pull overwrite one
// language's file with another's, so a config that maps two to one file is a wrong value (exit 2):
// refused when the config is read, for the languages the config names (sameFileProblems), and
// again for the project's own languages before anything is sent or written (fileJobs).
import { posix, resolve } from 'node:path';
import { usageError } from './errors.ts';
import type { FileMapping, LoadedConfig } from './config-file.ts';

export type FileJob = { mapping: FileMapping; index: number; language: string; path: string };

/** The file of one language for one mapping, relative to the config's directory. */
export const pathFor = (mapping: FileMapping, language: string) =>
  (mapping.languagePaths && Object.hasOwn(mapping.languagePaths, language) ? mapping.languagePaths[language] : undefined) ?? mapping.path.replaceAll('{language}', language);

const same = (path: string) => posix.normalize(path.replaceAll('\\', '/'));
const LANGUAGE_IN_PATH = '([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?)';

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

/** Every mapping's file for each language, in config order; two on one file stop the command (exit 2). */
export function fileJobs(config: LoadedConfig, languages: readonly string[]): FileJob[] {
  const jobs = config.files.flatMap((mapping, index) => languages.map((language) => ({ mapping, index, language, path: pathFor(mapping, language) })));
  const byFile = new Map<string, FileJob>();
  for (const job of jobs) {
    const target = resolve(config.root, job.path);
    const other = byFile.get(target);
    if (other) {
      throw usageError(
        `${config.file} maps two files to ${job.path}: files[${other.index}] for ${other.language} and files[${job.index}] for ${job.language}. Give each language and mapping its own file (languagePaths).`,
      );
    }
    byFile.set(target, job);
  }
  return jobs;
}
