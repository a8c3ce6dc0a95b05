// One supported Node range, stated in package.json's engines and repeated in the README and
// docs/deploy.md; the Lambda runtime in sst.config.ts and the Node running this suite are in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

/** Whether a major version satisfies a range made of `^N.x.y` and `>=N.x.y` alternatives. */
function allows(range: string, major: number): boolean {
  return range.split('||').some((part) => {
    const m = /^\s*(\^|>=)(\d+)\.\d+\.\d+\s*$/.exec(part);
    if (!m) throw new Error(`unsupported engines clause: ${part}`);
    return m[1] === '^' ? major === Number(m[2]) : major >= Number(m[2]);
  });
}
const short = (range: string) => range.replace(/\.0\.0/g, '');

describe('the supported Node range', () => {
  it('is stated once in engines, and the README and docs/deploy.md say the same', () => {
    expect(engines).toBe('^20.0.0 || ^22.0.0 || >=24.0.0');
    expect(read('README.md')).toContain(`\`${short(engines)}\``);
    expect(read('docs/deploy.md')).toContain(`\`${short(engines)}\``);
  });

  it('holds the Lambda runtime of sst.config.ts and the Node running the tests', () => {
    const runtime = /runtime \?\?= 'nodejs(\d+)\.x'/.exec(read('sst.config.ts'));
    expect(runtime).not.toBeNull();
    expect(allows(engines, Number(runtime![1]))).toBe(true);
    expect(allows(engines, Number(process.versions.node.split('.')[0]))).toBe(true);
    expect(allows(engines, 21)).toBe(false);
  });
});
