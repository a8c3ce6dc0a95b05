// What push, pull and status need from the server besides files: the registered languages, and the
// key list (for --remove-unused and the missing-value counts).
import type { Client } from './client.ts';
import { CliError, EXIT, usageError } from './errors.ts';

export type ServerKey = { id: string; key: string; group_name: string };

export async function registeredLanguages(client: Client): Promise<string[]> {
  const list = await client.json<{ languages: { code: string }[] }>('GET', '/v1/languages');
  return list.languages.map((l) => l.code);
}

export async function serverKeys(client: Client): Promise<ServerKey[]> {
  return (await client.json<{ keys: ServerKey[] }>('GET', '/v1/keys')).keys;
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
  for (const language of chosen) {
    if (!registered.includes(language)) throw usageError(`--language ${language}: not a language of this project (it has ${registered.join(', ') || 'none'})`);
  }
  return chosen;
}

/** The group the server gives a created key (core/files/import-file.ts): the part before the first '.', else Default. */
export function groupOfNewKey(key: string): string {
  const dot = key.indexOf('.');
  const prefix = dot > 0 ? key.slice(0, dot) : '';
  return prefix && /^[A-Za-z0-9_. -]{1,200}$/.test(prefix) && prefix.trim() === prefix ? prefix : 'Default';
}
