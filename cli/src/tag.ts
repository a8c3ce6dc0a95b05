// Tags as the CLI sends them: --tag, and a config mapping's `tag` (one project, several apps: each
// app's files carry its keys' tag).
import { usageError } from './errors.ts';

/** The longest tag the server takes (core/keys/tags.ts, TAG_MAX_CHARS). */
const TAG_MAX_CHARS = 100;

/** A tag as the server stores it: in NFC, trimmed. */
export const normalTag = (value: string) => value.normalize('NFC').trim();

/**
 * What keeps `value` from being one tag as the server takes it (core/keys/tags.ts), or undefined
 * when it is one. Checked before anything is sent: a push whose tag the server refused stopped at
 * its first file, and a pull's export would answer an empty file for a text that can be no tag.
 */
export function tagProblem(value: string): string | undefined {
  const tag = normalTag(value);
  if (tag === '') return 'a tag is not empty';
  if (tag.includes(',')) return 'one tag, without commas (commas separate tags)';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(tag) || !tag.isWellFormed()) return 'a tag has no control characters';
  if ([...tag].length > TAG_MAX_CHARS) return `a tag is at most ${TAG_MAX_CHARS} characters`;
  return undefined;
}

/**
 * The tag of each mapping's files: --tag, else the mapping's own. A mapping tagged otherwise than
 * --tag says is refused (exit 2, nothing sent): its files are another app's, and pulling the
 * flag's keys into them (or tagging their keys with it) would mix the apps.
 */
export function tagsOfMappings(mappings: readonly { tag?: string }[], flag: string | undefined, file: string): (string | undefined)[] {
  const other = mappings.findIndex((m) => flag !== undefined && m.tag !== undefined && m.tag !== flag);
  if (other !== -1) {
    throw usageError(`--tag ${JSON.stringify(flag)}: files[${other}] of ${file} has the tag ${JSON.stringify(mappings[other]!.tag)}, so its files are not that tag's; leave --tag out (each mapping then uses its own), or give --config a config for that tag`);
  }
  return mappings.map((m) => flag ?? m.tag);
}

/** What a message names as the tags' origin: --tag, else the first tagged mapping's field. */
export const tagOrigin = (tags: readonly (string | undefined)[], flag: string | undefined) =>
  flag !== undefined ? '--tag' : `files[${tags.findIndex((tag) => tag !== undefined)}].tag`;
