// The browser entries stay small and browser-only: bundled and minified by esbuild, gzipped at
// level 9, each under 5 KB; neither may reach node:* (a browser build resolves no Node module).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const SDK = join(import.meta.dirname, '..', '..', 'sdk');
const LIMIT = 5_120;

async function gzippedSize(entry: string): Promise<number> {
  const result = await build({ entryPoints: [join(SDK, 'src', entry)], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

describe('@tms/sdk in a browser bundle', () => {
  it.each(['index.ts', 'i18next.ts'])('%s is under 5 KB minified and gzipped', async (entry) => {
    const size = await gzippedSize(entry);
    expect(size).toBeGreaterThan(500);
    expect(size, `${entry}: ${size} bytes`).toBeLessThanOrEqual(LIMIT);
  });

  it('the browser entries never reach node:*, and the Node entry is the one that does', async () => {
    const bundle = async (entry: string) =>
      build({ entryPoints: [join(SDK, 'src', entry)], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    await expect(bundle('index.ts')).resolves.toBeTruthy();
    await expect(bundle('i18next.ts')).resolves.toBeTruthy();
    await expect(bundle('node.ts')).rejects.toThrow(/node:fs/);
  });

  it('the bundles hold only sdk/src: nothing from core, no package', async () => {
    for (const entry of ['index.ts', 'i18next.ts', 'node.ts']) {
      const result = await build({ entryPoints: [join(SDK, 'src', entry)], bundle: true, format: 'esm', platform: 'node', write: false, metafile: true, logLevel: 'silent' });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.length).toBeGreaterThan(2);
      for (const input of inputs) expect(input, `${entry} bundles ${input}`).toMatch(/^sdk\/src\/[\w-]+\.ts$/);
    }
  });

  it('has no runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@tms/sdk');
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
  });
});
