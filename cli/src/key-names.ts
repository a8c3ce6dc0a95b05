// Keys named on the command line (`tms screenshots push --key home.title`), found among the
// project's keys. A key is named as the files and push's output name it: by its full name, which
// is unique among the project's live keys (its group is no part of it: `home.title` of a namespace
// file, `sign_in` of a key made in group auth). Names compare in NFC, as the server's do.
import type { Client } from './client.ts';
import { usageError } from './errors.ts';
import { shown } from './flags.ts';
import { serverKeys, type ServerKey } from './project.ts';

/** --key values as given: none empty. Checked before any request. */
export function checkKeyNames(names: string[] | undefined): string[] {
  for (const name of names ?? []) {
    if (name === '') throw usageError('--key is empty: name a key of the project (--key home.title)');
  }
  return names ?? [];
}

/**
 * A hint for a name no key has: the key it likely meant, when the name is a key's group and name
 * joined (`auth.sign_in`, `auth/sign_in` for the key sign_in of group auth, as the portal shows it)
 * or the name in another case.
 */
function likelyMeant(name: string, keys: ServerKey[]): string {
  const grouped = keys.find((k) => name === `${k.group_name}.${k.key}` || name === `${k.group_name}/${k.key}` || name === `${k.group_name}:${k.key}`);
  if (grouped) return ` (the key ${shown(grouped.key)} of group ${grouped.group_name}? keys are named without their group)`;
  const cased = keys.find((k) => k.key.toLowerCase() === name.toLowerCase());
  if (cased) return ` (${shown(cased.key)}? names are compared as written)`;
  return '';
}

/**
 * The keys the names name (GET /v1/keys: every live key), each once, in the order given. A name no
 * key has is a usage error naming every such name, before anything is changed (`unchanged` says so).
 */
export async function keysNamed(client: Client, names: string[], unchanged = '', flagOf: (name: string) => string = () => '--key'): Promise<ServerKey[]> {
  if (names.length === 0) return [];
  const keys = await serverKeys(client);
  const byName = new Map(keys.map((k) => [k.key, k]));
  const found = new Map<string, ServerKey>();
  const unknown: string[] = [];
  for (const name of names) {
    const key = byName.get(name.normalize('NFC'));
    if (key) found.set(key.id, key);
    else if (!unknown.includes(name)) unknown.push(name);
  }
  if (unknown.length > 0) {
    const listed = unknown.map((name) => `${flagOf(name)} ${shown(name)}${likelyMeant(name.normalize('NFC'), keys)}`).join(', ');
    throw usageError(`${listed}: ${unknown.length === 1 ? 'no key of this project has this name' : 'no key of this project has these names'}${unchanged && `; ${unchanged}`}`);
  }
  return [...found.values()];
}
