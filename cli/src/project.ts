// What push, pull and status need from the server besides files: the registered languages, and the
// key list (for --remove-unused and the missing-value counts).
import type { Client } from './client.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { canonicalLanguage, LANGUAGE } from './config-file.ts';
import { isGroupName } from './file-jobs.ts';

/** `tags`: the key's tags (a server from before tags sends none). */
export type ServerKey = { id: string; key: string; group_name: string; tags?: string[] };

export async function registeredLanguages(client: Client): Promise<string[]> {
  return (await projectLanguages(client)).languages;
}

/** The key's project and its languages (one call: GET /v1/languages names the project). */
export async function projectLanguages(client: Client): Promise<{ project: string; languages: string[] }> {
  const list = await client.json<{ project_id: string; languages: { code: string }[] }>('GET', '/v1/languages');
  const languages = list.languages.map((l) => l.code);
  // Codes become parts of file paths: one that is no language code (a server that is not tms, or
  // not the one it claims to be, naming "../../x") would write outside the mapped folders.
  const odd = languages.find((code) => typeof code !== 'string' || !LANGUAGE.test(code));
  if (odd !== undefined) throw new CliError(`the server named ${JSON.stringify(odd)} as a language of the project, which is no language code; nothing was read or written`, EXIT.failed);
  return { project: list.project_id, languages };
}

/**
 * A config that names its project refuses a key of another one before anything is sent or
 * written: a key is one project's, and a CI secret pasted from the wrong project pushed this
 * repository's keys into that project, or pulled its translations over these files, with exit 0.
 */
export async function checkProject(client: Client, config: { project?: string; file: string }, apiKey = ''): Promise<void> {
  if (config.project === undefined) return;
  const project = apiKey.startsWith('delivery_') ? await publishedProject(client) : (await projectLanguages(client)).project;
  if (project !== undefined && project !== config.project) {
    throw new CliError(`the API key is a key of project ${project}, but ${config.file} is for project ${config.project}: use a key of that project (TMS_API_KEY or --api-key)`, EXIT.auth);
  }
}

/**
 * A delivery key's project (it reads cached files only, so not GET /v1/languages): the published
 * manifest names it. Before the first publish there is nothing it can read, and nothing to check.
 */
async function publishedProject(client: Client): Promise<string | undefined> {
  const res = await client.request('GET', '/v1/cached/manifest', { accept: [503] });
  return res.status === 200 ? ((await res.json()) as { project_id: string }).project_id : undefined;
}

export async function serverKeys(client: Client, tag?: string): Promise<ServerKey[]> {
  return (await client.json<{ keys: ServerKey[] }>('GET', `/v1/keys${tag === undefined ? '' : `?${new URLSearchParams({ tag })}`}`)).keys;
}

/**
 * The project's tags (GET /v1/keys/tags), asked before a push or pull with a tag (`asking`: --tag,
 * or the config mapping's tag field) sends anything: a
 * server from before tags ignores the import's and the export's `tag` (unknown query parameters
 * are allowed), so a push would tag nothing and a pull would write every key into the files of an
 * app that wants only some. Such a server answers this path as a key id it cannot find (404) or
 * read (422): refused, nothing sent.
 */
export async function projectTags(client: Client, asking = '--tag'): Promise<string[]> {
  const res = await client.request('GET', '/v1/keys/tags', { accept: [404, 422] });
  const answer = res.status === 200 ? ((await res.json()) as { tags?: unknown }) : null;
  if (!Array.isArray(answer?.tags)) throw new CliError(`${asking}: this server has no key tags (GET /v1/keys/tags is not there): upgrade it, or leave ${asking} out; nothing was sent`, EXIT.failed);
  return (answer.tags as { name: string }[]).map((t) => t.name);
}

/**
 * The languages a command works on: --language flags, else every language the project has. A
 * chosen language the project does not have is refused before any file is sent or written: the
 * server's 404 came at that language's file, after the files before it were imported (or pulled),
 * and a code in another case (DE for de) was a new file beside the right one.
 */
export async function languagesFor(client: Client, chosen: string[] | undefined, say?: { sourceLanguage: string; line(text: string): void }): Promise<string[]> {
  const registered = await registeredLanguages(client);
  // Without languages, push and pull had nothing to do and said nothing, exit 0.
  if (registered.length === 0) throw new CliError('the project has no languages yet: add them (the portal\'s Languages tab, or POST /v1/languages), then run this again', EXIT.failed);
  if (say && !chosen?.length && !registered.includes(say.sourceLanguage)) {
    say.line(`note: ${say.sourceLanguage} (sourceLanguage in the config) is not a language of this project (it has ${registered.join(', ')}): its files are left out; add it to the project`);
  }
  if (!chosen?.length) return registered;
  // --language pt-br is the project's pt-BR: codes are case-insensitive.
  const named = chosen.map(canonicalLanguage);
  for (const [i, language] of named.entries()) {
    if (!registered.includes(language)) throw usageError(`--language ${chosen[i]}: not a language of this project (it has ${registered.join(', ') || 'none'})`);
  }
  return [...new Set(named)];
}

/** The group the server gives a created key (core/files/import-file.ts): the part before the first '.', else Default. */
export function groupOfNewKey(key: string): string {
  const dot = key.indexOf('.');
  const prefix = dot > 0 ? key.slice(0, dot) : '';
  // The server's rule (isGroupName: Unicode letters and digits too), or a dry run places `über.neu` in
  // Default and lists Default's keys for removal instead of über's.
  return prefix && isGroupName(prefix) ? prefix : 'Default';
}
