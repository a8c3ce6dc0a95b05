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
  return {
    async getItem(key) {
      try {
        return await readFile(file(key), 'utf8');
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return null;
        throw error;
      }
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
