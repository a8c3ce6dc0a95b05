// @tms/sdk/node: everything in @tms/sdk, and a storage that keeps the last good files in a
// directory, so a server or a CLI restarted while tms is unreachable still has its translations.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageLike } from './types.ts';

export * from './index.ts';

/** Temporary files are numbered per process, not per storage: two storages on one dir never share one. */
let writes = 0;

/** One file per stored entry under `dir` (created when first written); writes are atomic renames. */
export function fileStorage(dir: string): StorageLike {
  // Names differ by more than case: on macOS and Windows the folder is case-insensitive, and the
  // groups "Home" and "home" would share one file (offline, one served for the other). An upper-case
  // letter is written as its %XX (encodeURIComponent never writes a letter so), so names without one
  // stay as they were.
  const file = (key: string) => join(dir, `${encodeURIComponent(key).replace(/%[0-9A-F]{2}|[A-Z]/g, (m) => (m.length === 1 ? `%${m.charCodeAt(0).toString(16).toUpperCase()}` : m))}.json`);
  // The name the SDK gave a file before (releases up to 2026-11-25): upper-case letters as they are.
  const formerFile = (key: string) => join(dir, `${encodeURIComponent(key)}.json`);
  return {
    async getItem(key) {
      const current = await readIfThere(file(key));
      if (current !== null) return current;
      // An app updated from an SDK that named files the former way, starting offline, still has
      // its pt-BR and its "Settings" group: the file is read under its former name, then renamed.
      const former = formerFile(key);
      if (former === file(key)) return null;
      const text = await readIfThere(former);
      if (text === null || !writtenFor(text, key)) return null;
      await rename(former, file(key)).catch(() => {});
      return text;
    },
    async setItem(key, value) {
      await mkdir(dir, { recursive: true });
      // A reader (or a crash) never sees half a file: write aside, then rename over.
      const temporary = `${file(key)}.${process.pid}.${writes++}.tmp`;
      await writeFile(temporary, value);
      await rename(temporary, file(key));
    },
  };
}

async function readIfThere(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
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
