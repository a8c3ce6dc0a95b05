// ObjectStore on a local directory, for self-hosting without S3.
//
// Layout: <root>/objects/<key> holds one object, <root>/tmp/ holds writes in progress. Each object
// file is a one-line JSON header (etag, content type and encoding) followed by the raw bytes.
// Header and bytes share one file so that a single rename publishes both together: a reader sees
// the old object or the new one, never new bytes with an old etag or a half-written body.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { GetResult, ObjectStore } from '../ports/object-store.ts';

type Header = { etag: string; contentType?: string; contentEncoding?: string };

export function createFsObjectStore(rootDir: string): ObjectStore {
  const objectsDir = join(resolve(rootDir), 'objects');
  // Inside the root so that rename() never crosses a filesystem boundary.
  const tempDir = join(resolve(rootDir), 'tmp');
  const pathOf = (key: string) => join(objectsDir, ...assertSafeKey(key));
  let tempDirMade = false;

  return {
    async put(key, body, options = {}) {
      const file = pathOf(key);
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      const header: Header = {
        etag,
        contentType: options.contentType,
        contentEncoding: options.contentEncoding,
      };
      const bytes = Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), body]);
      // A fresh key has no reader yet: written in place, which halves the system calls of a build
      // (no temp file, no rename). 'wx' refuses to touch an existing file: then the safe path.
      if (options.fresh) {
        for (let attempt = 1; attempt <= 3; attempt++) {
          let handle: FileHandle;
          try {
            handle = await open(file, 'wx');
          } catch (err) {
            if (errorCode(err) === 'EEXIST') break;
            if (errorCode(err) !== 'ENOENT') throw err;
            await mkdir(dirname(file), { recursive: true }).catch((e: unknown) => {
              if (errorCode(e) !== 'ENOENT') throw e;
            });
            continue;
          }
          // The file is this write's own ('wx' made it): a write that fails partway (a full disk)
          // removes it, or a truncated file would hold the space until a later build collected it.
          try {
            await handle.writeFile(bytes);
            await handle.close();
          } catch (err) {
            await handle.close().catch(() => {});
            await rm(file, { force: true }).catch(() => {});
            throw err;
          }
          return { etag };
        }
      }
      const temp = join(tempDir, `${randomUUID()}.tmp`);
      if (!tempDirMade) {
        await mkdir(tempDir, { recursive: true });
        tempDirMade = true;
      }
      // No fsync: this is a cache that a rebuild recreates, and readers only need atomicity. A write
      // that fails partway (a full disk) leaves no temporary file behind: nothing else removes them.
      await writeFile(temp, bytes).catch(async (err: unknown) => {
        await rm(temp, { force: true });
        throw err;
      });
      // The rename is tried first: a build writes thousands of files into a few directories, and a
      // recursive mkdir before each (a system call per path level, on the thread pool that also
      // compresses) cost more than the writes. ENOENT means the directory is missing: never made,
      // or pruned by a concurrent delete (even between our mkdir and rename): make it and retry.
      for (let attempt = 1; ; attempt++) {
        try {
          await rename(temp, file);
          return { etag };
        } catch (err) {
          if (errorCode(err) === 'ENOENT' && attempt < 20) {
            await mkdir(dirname(file), { recursive: true }).catch((e: unknown) => {
              if (errorCode(e) !== 'ENOENT') throw e;
            });
            continue;
          }
          await rm(temp, { force: true });
          throw err;
        }
      }
    },

    async get(key, options = {}): Promise<GetResult> {
      let file: Buffer;
      try {
        file = await readFile(pathOf(key));
      } catch (err) {
        // EISDIR/ENOTDIR: the key is a directory of other keys, or lies under another key's file.
        if (['ENOENT', 'EISDIR', 'ENOTDIR'].includes(errorCode(err) ?? '')) return { kind: 'missing' };
        throw err;
      }
      const newline = file.indexOf(10); // JSON.stringify escapes newlines, so the first one ends the header
      const header = JSON.parse(file.subarray(0, newline).toString('utf8')) as Header;
      if (options.ifNoneMatch === header.etag) return { kind: 'not-modified', etag: header.etag };
      return {
        kind: 'found',
        object: {
          body: new Uint8Array(file.buffer, file.byteOffset + newline + 1, file.length - newline - 1),
          etag: header.etag,
          contentType: header.contentType,
          contentEncoding: header.contentEncoding,
        },
      };
    },

    async list(prefix) {
      // Walk only the deepest directory the prefix pins down, then filter on the rest of it.
      const dirPart = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      const segments = dirPart === '' ? [] : assertSafeKey(dirPart.slice(0, -1));
      const keys = await walk(join(objectsDir, ...segments), dirPart);
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },

    async delete(keys) {
      const parents = new Set<string>();
      await Promise.all(
        keys.map(async (key) => {
          const file = pathOf(key);
          try {
            await unlink(file);
          } catch (err) {
            if (['ENOENT', 'EISDIR', 'ENOTDIR'].includes(errorCode(err) ?? '')) return;
            throw err;
          }
          parents.add(dirname(file));
        }),
      );
      // Prune emptied directories, or every deleted build would leave its folder behind: each one
      // once, deepest first, after all the unlinks (not one failed rmdir per deleted file).
      const pending = new Set<string>();
      for (const dir of parents) for (let d = dir; d !== objectsDir && d.startsWith(objectsDir); d = dirname(d)) pending.add(d);
      const deepestFirst = [...pending].sort((a, b) => b.split('/').length - a.split('/').length);
      const notEmpty = new Set<string>();
      for (const dir of deepestFirst) {
        if (notEmpty.has(dir)) continue;
        try {
          await rmdir(dir);
        } catch {
          // Not empty (or already gone): its ancestors are not empty either.
          for (let d = dirname(dir); d !== objectsDir && d.startsWith(objectsDir); d = dirname(d)) notEmpty.add(d);
        }
      }
    },
  };
}

/** Splits a key into path segments, refusing anything that could name a file outside the store. */
function assertSafeKey(key: string): string[] {
  const segments = key.split('/');
  // Empty segments reject absolute keys, trailing slashes and 'a//b' (which would alias 'a/b').
  const unsafe =
    key.includes('\\') || key.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..');
  if (unsafe) throw new Error(`Unsafe object key for the filesystem store: ${JSON.stringify(key)}`);
  return segments;
}

async function walk(dir: string, keyPrefix: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    // The prefix names no directory, or a concurrent delete just pruned it.
    if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return [];
    throw err;
  }
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name), `${keyPrefix}${entry.name}/`) : [`${keyPrefix}${entry.name}`],
    ),
  );
  return nested.flat();
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
