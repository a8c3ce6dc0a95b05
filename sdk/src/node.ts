// @tms/sdk/node: everything in @tms/sdk, and a storage that keeps the last good files in a
// directory, so a server or a CLI restarted while tms is unreachable still has its translations.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageLike } from './types.ts';

export * from './index.ts';

/** Temporary files are numbered per process, not per storage: two storages on one dir never share one. */
let writes = 0;

/**
 * The longest file name kept readable, in bytes (before `.json`): a group name may be 200 letters of
 * any script, 9 bytes each once percent-encoded, and most disks allow 255 bytes a name, the
 * temporary file's `.<pid>.<n>.tmp` included.
 */
const READABLE = 200;

/** One file per stored entry under `dir` (created when first written); writes are atomic renames. */
export function fileStorage(dir: string): StorageLike {
  // Names differ by more than case: on macOS and Windows the folder is case-insensitive, and the
  // groups "Home" and "home" would share one file (offline, one served for the other). An upper-case
  // letter is written as its %XX (encodeURIComponent never writes a letter so), so names without one
  // stay as they were.
  const readable = (key: string) => encodeURIComponent(key).replace(/%[0-9A-F]{2}|[A-Z]/g, (m) => (m.length === 1 ? `%${m.charCodeAt(0).toString(16).toUpperCase()}` : m));
  // A longer name is cut to its first 150 bytes (never inside a %XX), then `+` (which
  // encodeURIComponent never writes) and 32 hex digits of the SHA-256 of the whole name. Such a file
  // starts with a line naming its entry (the name as JSON), checked when read: two names that share
  // a file name can never be served one for the other.
  const hashed = (key: string) => readable(key).length > READABLE;
  const file = (key: string) => {
    const name = readable(key);
    if (name.length <= READABLE) return join(dir, `${name}.json`);
    return join(dir, `${name.slice(0, 150).replace(/%[0-9A-F]?$/, '')}+${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  };
  // The names the SDK gave a file before: releases up to 2026-11-25 wrote upper-case letters as
  // they are, later ones every name readable however long (a long one could not be written, or not
  // with its temporary file's suffix; one of 201 to about 225 bytes was).
  // With the upper-case letter as it is, on a case-insensitive disk the file is also another name's:
  // it is taken only if written for this one (`writtenFor`).
  const formerFiles = (key: string): [string, boolean][] => {
    const [readableName, asItIs] = [join(dir, `${readable(key)}.json`), join(dir, `${encodeURIComponent(key)}.json`)];
    return readableName === asItIs ? [[asItIs, true]] : [[readableName, false], [asItIs, true]];
  };
  async function write(key: string, value: string) {
    await mkdir(dir, { recursive: true });
    // A reader (or a crash) never sees half a file: write aside, then rename over.
    const temporary = `${file(key)}.${process.pid}.${writes++}.tmp`;
    await writeFile(temporary, hashed(key) ? `${JSON.stringify(key)}\n${value}` : value);
    await rename(temporary, file(key));
  }
  return {
    async getItem(key) {
      const path = file(key);
      const current = await readIfThere(path);
      if (current !== null) return hashed(key) ? ownEntry(current, key) : current;
      // An app updated from an SDK that named files another way, starting offline, still has its
      // pt-BR and its "Settings" group: the file is read under its former name, then kept under the
      // current one.
      for (const [former, check] of formerFiles(key)) {
        if (former === path) continue;
        const text = await readIfThere(former);
        if (text === null || (check && !writtenFor(text, key))) continue;
        // Under a shortened name the file starts with its entry's name: written anew, not renamed.
        await (hashed(key) ? write(key, text).then(() => rm(former, { force: true })) : rename(former, path)).catch(() => {});
        return text;
      }
      return null;
    },
    setItem: write,
  };
}

/** The entry of a file under a shortened name, if the line it starts with names `key`; else nothing. */
function ownEntry(text: string, key: string): string | null {
  const line = text.indexOf('\n');
  try {
    return line > 0 && JSON.parse(text.slice(0, line)) === key ? text.slice(line + 1) : null;
  } catch {
    return null;
  }
}

async function readIfThere(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    // ENAMETOOLONG: a former name too long for the disk, so never written.
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENAMETOOLONG') return null;
    throw error;
  }
}

/**
 * Whether a file under a former name holds this key's entry. On a case-insensitive disk the former
 * name of "Home" is also that of "home" (the reason names changed), so the entry is taken only when
 * the URL it records (an SDK entry's `u`) ends with this key's language and group, letter for letter.
 */
function writtenFor(text: string, key: string): boolean {
  const named = key.slice(key.indexOf(':', key.indexOf(':') + 1) + 1);
  try {
    const { u } = JSON.parse(text) as { u?: unknown };
    return typeof u === 'string' && decodeURIComponent(u.split('?')[0]!).endsWith(`/${named}`);
  } catch {
    return false;
  }
}
