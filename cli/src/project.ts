// What push, pull and status need from the server besides files: the registered languages, and the
// key list (for --remove-unused and the missing-value counts).
import type { Client } from './client.ts';

export type ServerKey = { id: string; key: string; group_name: string };

export async function registeredLanguages(client: Client): Promise<string[]> {
  const list = await client.json<{ languages: { code: string }[] }>('GET', '/v1/languages');
  return list.languages.map((l) => l.code);
}

export async function serverKeys(client: Client): Promise<ServerKey[]> {
  return (await client.json<{ keys: ServerKey[] }>('GET', '/v1/keys')).keys;
}

/** The languages a command works on: --language flags, else every language the project has. */
export async function languagesFor(client: Client, chosen: string[] | undefined): Promise<string[]> {
  return chosen?.length ? chosen : registeredLanguages(client);
}

/** The group the server gives a created key (core/files/import-file.ts): the part before the first '.', else Default. */
export function groupOfNewKey(key: string): string {
  const dot = key.indexOf('.');
  const prefix = dot > 0 ? key.slice(0, dot) : '';
  return prefix && /^[A-Za-z0-9_. -]{1,200}$/.test(prefix) && prefix.trim() === prefix ? prefix : 'Default';
}
