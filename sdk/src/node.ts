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
  const file = (key: string) => join(dir, `${encodeURIComponent(key)}.json`);
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
