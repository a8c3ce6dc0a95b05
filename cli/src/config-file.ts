// tms.config.json: the server, the project's source language and where each language's file lives.
// The API key is never stored here: it comes from TMS_API_KEY or --api-key.
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { FORMAT_IDS, holdsEveryLanguage } from './formats.ts';
import { usageError } from './errors.ts';
import { sameFileProblems } from './file-jobs.ts';
import { normalTag, tagProblem } from './tag.ts';

export const CONFIG_FILE = 'tms.config.json';

/**
 * `languagePaths`: exact paths for some languages (Android's source strings live in values/).
 * `tag`: the tag of these files' keys (one project, several apps): push tags every key of them,
 * pull writes only the keys with it, --remove-unused removes only keys with it.
 */
export type FileMapping = { path: string; format: string; languagePaths?: Record<string, string>; tag?: string };
/** `project`: the project's id; a key of another project is then refused (exit 4) before anything is sent. */
export type CliConfig = { server: string; sourceLanguage: string; files: FileMapping[]; project?: string };
const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A config as read: `file` is its path, `root` its directory, which the file paths are relative to. */
export type LoadedConfig = CliConfig & { file: string; root: string };

export const LANGUAGE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,4})?$/;

/**
 * A language code as the server keeps it (core/languages/language-code.ts): BCP 47 codes are
 * case-insensitive, and the server writes them primary lower, region upper, script title case. A
 * config's "EN" or "pt-br" means the project's en and pt-BR; compared as written, pull took "EN"
 * for another language than the project's en and rewrote its source files.
 */
export function canonicalLanguage(code: string): string {
  if (!LANGUAGE.test(code)) return code;
  const [primary, sub] = code.split('-') as [string, string?];
  if (sub === undefined) return primary.toLowerCase();
  return `${primary.toLowerCase()}-${sub.length === 4 ? sub[0]!.toUpperCase() + sub.slice(1).toLowerCase() : sub.toUpperCase()}`;
}

/** A config written on Windows (`public\\locales\\{language}.json`) names the same files with slashes. */
export const withSlashes = (path: string) => path.replaceAll('\\', '/');

/**
 * The server's URL, from the config file, TMS_SERVER or `tms mcp --server`: the same rule for each.
 * It must parse (`http://[` or a port over 65535 made every request fail as "cannot reach"), and
 * carry no user:password@ (fetch refuses it) and no query or #fragment (request paths are appended
 * to it, so they would land inside them); a path prefix (a proxy's /tms) is fine.
 */
export function isServerUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s?#]+$/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.hostname !== '' && url.username === '' && url.password === '';
}

/** The config's problems, each naming the field: empty when it is usable. */
export function configProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['the file must hold a JSON object'];
  const c = value as Record<string, unknown>;
  const problems: string[] = [];
  if ('apiKey' in c || 'api_key' in c) problems.push('apiKey: API keys do not belong in the file; use TMS_API_KEY or --api-key');
  for (const name of Object.keys(c)) if (!['server', 'sourceLanguage', 'files', 'project', 'apiKey', 'api_key'].includes(name)) problems.push(`${name}: unknown field (server, sourceLanguage, files and project are)`);
  if (c.project !== undefined && (typeof c.project !== 'string' || !PROJECT_ID.test(c.project))) problems.push('project: the project\'s id, a UUID (tms status prints it)');
  if (typeof c.server !== 'string' || !isServerUrl(c.server)) problems.push('server: an http(s) URL such as "http://127.0.0.1:3000"');
  if (typeof c.sourceLanguage !== 'string' || !LANGUAGE.test(c.sourceLanguage)) problems.push('sourceLanguage: a language code such as "en"');
  const beforeFiles = problems.length;
  if (!Array.isArray(c.files) || c.files.length === 0) problems.push('files: a non-empty list of {"path": "locales/{language}.json", "format": "json"}');
  else
    c.files.forEach((f: unknown, i) => {
      if (typeof f !== 'object' || f === null || Array.isArray(f)) return void problems.push(`files[${i}]: an object such as {"path": "locales/{language}.json", "format": "json"}`);
      const file = f as Record<string, unknown>;
      // A String Catalog holds every language in one file: its path names none.
      const everyLanguage = typeof file.format === 'string' && holdsEveryLanguage(file.format);
      if (typeof file.path !== 'string' || file.path === '') problems.push(`files[${i}].path: ${everyLanguage ? 'the catalog\'s path, such as "App/Localizable.xcstrings"' : 'a path containing {language}'}`);
      else if (everyLanguage && /\{(language|group)\}/.test(file.path)) problems.push(`files[${i}].path: a ${file.format} file holds every language (and group): a path without {language} or {group}, such as "App/Localizable.xcstrings"`);
      else if (!everyLanguage && !file.path.includes('{language}')) problems.push(`files[${i}].path: a path containing {language}`);
      // No file has a NUL in its name: Node refuses such a path with an error of its own.
      else if (file.path.includes('\0')) problems.push(`files[${i}].path: a path without NUL characters`);
      if (everyLanguage && file.languagePaths !== undefined) problems.push(`files[${i}].languagePaths: a ${file.format} file holds every language; map another file for a language that lives elsewhere`);
      if (typeof file.format !== 'string' || !FORMAT_IDS.includes(file.format)) problems.push(`files[${i}].format: one of ${FORMAT_IDS.join(', ')}`);
      for (const name of Object.keys(file)) if (!['path', 'format', 'languagePaths', 'tag'].includes(name)) problems.push(`files[${i}].${name}: unknown field (path, format, languagePaths and tag are)`);
      if (file.tag !== undefined) {
        const problem = typeof file.tag === 'string' ? tagProblem(file.tag) : 'one tag, as a string such as "mobile"';
        if (problem !== undefined) problems.push(`files[${i}].tag: ${problem}`);
      }
      const overrides = file.languagePaths;
      const grouped = typeof file.path === 'string' && file.path.includes('{group}');
      if (overrides !== undefined) {
        if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) problems.push(`files[${i}].languagePaths: an object such as {"en": "res/values/strings.xml"}`);
        else
          for (const [language, path] of Object.entries(overrides)) {
            const twin = Object.keys(overrides).find((other) => other !== language && canonicalLanguage(other) === canonicalLanguage(language));
            if (!LANGUAGE.test(language) || typeof path !== 'string' || path === '' || path.includes('\0')) problems.push(`files[${i}].languagePaths.${language}: a language code mapped to a path`);
            else if (twin !== undefined) problems.push(`files[${i}].languagePaths.${language}: the same language as ${twin} (codes are case-insensitive): keep one`);
            // One file per group, or one for all: a languagePaths entry is of the same kind as the path.
            else if (path.includes('{group}') !== grouped) problems.push(`files[${i}].languagePaths.${language}: ${grouped ? 'a path containing {group}, as files[' + i + '].path has' : 'a path without {group}, as files[' + i + '].path has none'}`);
          }
      }
    });
  // Only well-formed mappings can be asked which files they name.
  if (problems.length === beforeFiles) problems.push(...sameFileProblems(c.files as FileMapping[]));
  return problems;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The config: --config's file, else the nearest tms.config.json in this folder or one above it (as
 * git finds its repository), so that a command run in src/ works on the repository's files; the
 * paths in it stay relative to its own folder.
 */
async function findConfig(cwd: string): Promise<string> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = resolve(dir, CONFIG_FILE);
    if (await stat(candidate).then(() => true, () => false)) return candidate;
    if (dirname(dir) === dir) return resolve(cwd, CONFIG_FILE);
  }
}

/** Whether a tms.config.json is in `cwd` or a folder above it. */
export async function configFound(cwd: string): Promise<boolean> {
  return stat(await findConfig(cwd)).then(() => true, () => false);
}

export async function loadConfig(cwd: string, path?: string): Promise<LoadedConfig> {
  const file = path === undefined ? await findConfig(cwd) : resolve(cwd, path);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw usageError(`${file} is a folder, not a config file: --config names the file (default ${CONFIG_FILE})`);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw usageError(`${file} not found: run \`tms init\` first`);
    throw usageError(`${file} cannot be read (${code ?? (error as Error).message})`);
  }
  let text: string;
  try {
    // Read as UTF-8 was, a UTF-16 file (PowerShell 5's `>`) or a Latin-1 one became U+FFFD: a
    // puzzling JSON error, or a path with a character nobody typed.
    text = strictUtf8.decode(bytes);
  } catch {
    throw usageError(`${file} is not UTF-8: save it as UTF-8`);
  }
  let value: unknown;
  try {
    // Editors on Windows save UTF-8 with a byte order mark, which JSON.parse refuses.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw usageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const problems = configProblems(value);
  if (problems.length) throw usageError(`${file} is not a usable tms config:\n  ${problems.join('\n  ')}`);
  const c = value as CliConfig;
  // Codes in the server's spelling and paths with slashes, so that every comparison after this one
  // (the source language, a language's own path, two mappings of one file) is exact.
  const files = c.files.map((f) => ({
    path: withSlashes(f.path),
    format: f.format,
    ...(f.languagePaths ? { languagePaths: Object.fromEntries(Object.entries(f.languagePaths).map(([language, p]) => [canonicalLanguage(language), withSlashes(p)])) } : {}),
    ...(f.tag === undefined ? {} : { tag: normalTag(f.tag) }),
  }));
  return { file, root: dirname(file), server: c.server.replace(/\/+$/, ''), sourceLanguage: canonicalLanguage(c.sourceLanguage), ...(c.project ? { project: c.project.toLowerCase() } : {}), files };
}
