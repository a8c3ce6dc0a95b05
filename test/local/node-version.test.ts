// One supported Node range, stated in package.json's engines and repeated in the README and
// docs/deploy.md; the Lambda runtime in sst.config.ts, the AWS SDK locked in package-lock.json and
// the Node running this suite all fit it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

/** The `^N.x.y` and `>=N.x.y` alternatives of a range, as majors. */
function clauses(range: string): { op: '^' | '>='; major: number }[] {
  return range.split('||').map((part) => {
    const m = /^\s*(\^|>=)(\d+)\.\d+\.\d+\s*$/.exec(part);
    if (!m) throw new Error(`unsupported engines clause: ${part}`);
    return { op: m[1] as '^' | '>=', major: Number(m[2]) };
  });
}
/** Whether a major version satisfies the range. */
const allows = (range: string, major: number) =>
  clauses(range).some((c) => (c.op === '^' ? major === c.major : major >= c.major));
const short = (range: string) => range.replace(/\.0\.0/g, '');
const lambdaRuntime = () => {
  const m = /runtime \?\?= 'nodejs(\d+)\.x'/.exec(read('sst.config.ts'));
  expect(m, 'sst.config.ts sets one Lambda runtime').not.toBeNull();
  return Number(m![1]);
};

describe('the supported Node range', () => {
  it('is stated once in engines, and the README and docs/deploy.md say the same', () => {
    expect(engines).toBe('^20.0.0 || ^22.0.0 || >=24.0.0');
    expect(read('README.md')).toContain(`\`${short(engines)}\``);
    expect(read('docs/deploy.md')).toContain(`\`${short(engines)}\``);
  });

  it('holds the Lambda runtime of sst.config.ts, which docs/deploy.md names, and the Node running the tests', () => {
    const runtime = lambdaRuntime();
    expect(allows(engines, runtime)).toBe(true);
    expect(read('docs/deploy.md')).toContain(`\`nodejs${runtime}.x\``);
    expect(allows(engines, Number(process.versions.node.split('.')[0]))).toBe(true);
    expect(allows(engines, 21)).toBe(false);
  });

  it('is inside what every locked AWS SDK and Smithy package supports', () => {
    const lowest = Math.min(...clauses(engines).map((c) => c.major));
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const sdk = Object.entries(lock.packages).filter(([path]) => /node_modules\/@(aws-sdk|smithy)\//.test(path));
    expect(sdk.length).toBeGreaterThan(10);
    for (const [path, entry] of sdk) {
      const required = entry.engines?.node;
      if (!required) continue;
      const m = /^>=\s*(\d+)(\.\d+){0,2}$/.exec(required.trim());
      expect(m, `${path}: engines ${required}`).not.toBeNull();
      expect(Number(m![1]), `${path} needs node ${required}`).toBeLessThanOrEqual(lowest);
    }
  });

  it('names, in the README and docs/deploy.md, the warning the AWS SDK prints below Node 22', () => {
    // The SDK warns below Node 22 (its releases from January 2027 on need it); both pages say so.
    const lowest = Math.min(...clauses(engines).map((c) => c.major));
    if (lowest >= 22) return;
    for (const page of ['README.md', 'docs/deploy.md']) expect(read(page), page).toContain('NodeVersionSupportWarning');
  });
});
