// The filesystem store on a disk that fills up while a build writes a file in place (`fresh` puts:
// no temporary file, no rename). The write used to leave its truncated file behind, holding space
// until a later build's collection, an hour later at the earliest. The disk limit is a child
// process's file size limit (`ulimit -f`): Node ignores SIGXFSZ, so a write past it fails with
// EFBIG part-way, as one on a full disk fails with ENOSPC.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the filesystem store when a write fails part-way', () => {
  it('a fresh put that fails leaves no partial file; the same put with room goes through', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tms-fs-full-'));
    const script = [
      "import { createFsObjectStore } from './core/adapters/object-store-fs.ts';",
      `const store = createFsObjectStore(${JSON.stringify(dir)});`,
      "const key = 'projects/p/builds/20261130T220000000Z-0badf00d/languages/de.json';",
      'const size = Number(process.argv.at(-1));',
      'let outcome;',
      "try { await store.put(key, Buffer.alloc(size, 97), { fresh: true }); outcome = 'written'; } catch (e) { outcome = e.code; }",
      "console.log(JSON.stringify({ outcome, keys: await store.list('projects/') }));",
    ].join('\n');
    // 100 blocks of 1 KiB (bash's ulimit -f unit): 200,000 bytes do not fit, 50,000 do.
    const run = (size: number) => {
      const child = spawnSync('bash', ['-c', 'ulimit -f 100 && exec "$0" --import tsx --input-type=module -e "$1" -- "$2"', process.execPath, script, String(size)], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { outcome: string; keys: string[] };
    };
    expect(run(200_000)).toEqual({ outcome: 'EFBIG', keys: [] });
    expect(run(50_000)).toEqual({ outcome: 'written', keys: ['projects/p/builds/20261130T220000000Z-0badf00d/languages/de.json'] });
  }, 120_000);
});
