// Bundles every Lambda entry the way it ships, and fails when one grows past its budget or pulls in
// code it has no business carrying. `npx tsx scripts/bundle.ts` (CI: npm run bundle:check).
//
// How it ships: SST bundles each `handler` of stacks/api.ts and stacks/queue.ts with esbuild, minified
// ESM for Node, with a banner that defines `require` for CommonJS dependencies. This script uses the
// same settings (below, in bundleOne), so sizes and import times here are what Lambda loads. Nothing is external except
// Node's built-ins: the AWS SDK is bundled rather than taken from the Lambda runtime, so that the
// version deployed is the version tested (the runtime's copy changes under us without notice), and
// so that tree shaking keeps only the commands we send. See docs/deploy.md, "Bundles".
//
// Output: dist/lambda/<function>/index.mjs (+ meta.json, esbuild's metafile), dist/lambda/report.json,
// and a table on stdout. Exit 1 on any budget or denylist violation.
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { CATALOGUE, entryFileOf, type Port } from '../functions/catalogue.ts';

type Sdk = 's3' | 'sqs' | 'upstash' | 'cloudfront';

type LambdaFunction = {
  /** The entry file, as stacks/ names it in `handler` (minus the export). */
  entry: string;
  /** The directory this function's code lives in: functions/<dir>/. */
  dir: string;
  /** Cloud SDKs this function uses: it must bundle these, and no others. */
  sdks: Sdk[];
  /** Fail above this many bytes of minified output. */
  budget: number;
};

const KB = 1024;

// The cloud SDK behind each port of functions/catalogue.ts (the database is postgres.js, in every one).
const sdkOfPort: Partial<Record<Port, Sdk>> = { counters: 'upstash', queue: 'sqs', deadLetter: 'sqs', objects: 's3', edge: 'cloudfront' };

// Every function of the catalogue, with the SDKs its ports imply and its budget. What the sizes are
// made of, measured with esbuild 0.28 and @aws-sdk 3.11xx:
// - every HTTP function: hono, hono-openapi + @valibot/to-json-schema (route descriptions),
//   valibot, postgres.js, @upstash/redis (~95 KB) and core: 230-240 KB;
// - health: + the whole API's OpenAPI document (~50 KB): ~275 KB;
// - import / export: + the format libraries (fast-xml-parser, yaml, gettext-parser, csv, the ICU parser);
// - + @aws-sdk/client-sqs: ~+335 KB (smithy core, SigV4, default credential chain, JSON protocol);
// - + @aws-sdk/client-s3: ~+450 KB (the same, + the REST-XML protocol, checksums, S3 endpoints);
// - builder: S3 + SQS (its dead-letter queue) + CloudFront (invalidations), postgres.js and core, no hono.
const functions: Record<string, LambdaFunction> = Object.fromEntries(
  CATALOGUE.map((entry) => [
    entry.name,
    {
      entry: entryFileOf(entry),
      dir: entry.dir,
      sdks: [...new Set(entry.ports.flatMap((port) => sdkOfPort[port] ?? []))],
      budget: entry.budgetKb * KB,
    },
  ]),
);

const sdkPackages: Record<Sdk, string> = {
  s3: '@aws-sdk/client-s3',
  sqs: '@aws-sdk/client-sqs',
  upstash: '@upstash/redis',
  cloudfront: '@aws-sdk/client-cloudfront',
};

/** Never in any Lambda: local-only runtimes and adapters, test and build tooling, the all-groups list. */
const deniedEverywhere: { pattern: RegExp; why: string }[] = [
  { pattern: pkg('@electric-sql/pglite'), why: 'embedded Postgres is local-only' },
  { pattern: pkg('@electric-sql/pglite-socket'), why: 'embedded Postgres is local-only' },
  { pattern: pkg('ioredis'), why: 'Redis over TCP is self-hosted only; Lambda uses Upstash REST' },
  { pattern: pkg('@hono/node-server'), why: 'the local server' },
  { pattern: pkg('s3rver'), why: 'test emulator' },
  { pattern: pkg('vitest'), why: 'test tooling' },
  { pattern: pkg('esbuild'), why: 'build tooling' },
  { pattern: pkg('tsx'), why: 'build tooling' },
  { pattern: pkg('typescript'), why: 'build tooling' },
  // sst/resource is the small link reader; anything else of the sst package is the CLI and platform.
  { pattern: /(^|\/)node_modules\/sst\/(?!dist\/resource\/)/, why: 'only sst/resource belongs in a function' },
  { pattern: /^(test|bench|scripts|stacks)\//, why: 'not application code' },
  { pattern: /^functions\/(local|migrate|route-groups)\.ts$/, why: 'local server / migrate command / every route group' },
  { pattern: /^core\/(create-runtime|db\/embedded|db\/migrate|db\/open-database)\.ts$/, why: 'long-running runtime, embedded database, migrations' },
  {
    pattern: /^core\/adapters\/(counter-store|cache-adapters|counter-store-redis|object-store-fs|rebuild-queue-postgres)\.ts$/,
    why: 'adapter selectors import every adapter; the fs store and the Postgres queue\'s worker are not for Lambda',
  },
];

function pkg(name: string): RegExp {
  return new RegExp(`(^|/)node_modules/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);
}

/** The rules for one function: the global ones, other route groups, SDKs it does not use. */
function denylist(name: string, fn: LambdaFunction): { pattern: RegExp; why: string }[] {
  const rules = [...deniedEverywhere];
  for (const [otherName, other] of Object.entries(functions)) {
    if (other.dir !== fn.dir) {
      rules.push({ pattern: new RegExp(`^functions/${other.dir}/`), why: `code of the ${otherName} function` });
    }
  }
  for (const sdk of Object.keys(sdkPackages) as Sdk[]) {
    if (!fn.sdks.includes(sdk)) rules.push({ pattern: pkg(sdkPackages[sdk]), why: `${name} does not use ${sdkPackages[sdk]}` });
  }
  if (name !== 'health') {
    rules.push({ pattern: /^functions\/lambda\/openapi\.json$/, why: 'only the health function serves the OpenAPI document' });
  }
  if (name === 'builder') {
    rules.push({ pattern: pkg('hono'), why: 'the builder serves no HTTP' });
    rules.push({ pattern: pkg('hono-openapi'), why: 'the builder serves no HTTP' });
    rules.push({ pattern: /^functions\/(http|lambda\/http-handler)/, why: 'the builder serves no HTTP' });
  }
  return rules;
}

// The banner SST puts on ESM bundles: CommonJS code inside them may call require() for built-ins
// and read __filename / __dirname.
const banner = [
  "import { createRequire as topLevelCreateRequire } from 'module';",
  'const require = topLevelCreateRequire(import.meta.url);',
  'import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"',
  'const __filename = topLevelFileUrlToPath(import.meta.url)',
  'const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))',
].join('\n');

const outRoot = 'dist/lambda';
/** Fresh processes per import-time measurement (median): `--runs=7` for steadier numbers on a busy machine. */
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);

type Report = {
  name: string;
  entry: string;
  bytes: number;
  gzipBytes: number;
  budget: number;
  importMs: number;
  initMs: number;
  topPackages: { name: string; bytes: number }[];
  violations: string[];
};

/** Bytes of output per package (or per first-party directory), largest first. */
function contributions(output: Metafile['outputs'][string]): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path.split('node_modules/').length > 2 ? path.slice(path.lastIndexOf('node_modules/')) : path);
    const name = match ? match[1]! : path.split('/').slice(0, 2).join('/');
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

// Dummy links for measuring init: nothing connects (postgres.js and the AWS clients are lazy).
const measureEnv = {
  SST_RESOURCE_App: JSON.stringify({ name: 'tms', stage: 'bundle-check' }),
  SST_RESOURCE_DatabaseUrl: JSON.stringify({ value: 'postgres://tms@127.0.0.1:1/tms' }),
  SST_RESOURCE_UpstashRedisRestUrl: JSON.stringify({ value: 'https://example.upstash.io' }),
  SST_RESOURCE_UpstashRedisRestToken: JSON.stringify({ value: 'token' }),
  SST_RESOURCE_AdminToken: JSON.stringify({ value: 'admin-token' }),
  SST_RESOURCE_TranslationsBucket: JSON.stringify({ name: 'tms-bucket' }),
  SST_RESOURCE_RebuildQueue: JSON.stringify({ url: 'https://sqs.us-east-1.amazonaws.com/000000000000/rebuild.fifo' }),
  SST_RESOURCE_RebuildDeadLetterQueue: JSON.stringify({ url: 'https://sqs.us-east-1.amazonaws.com/000000000000/dead.fifo' }),
  SST_RESOURCE_EdgeCache: JSON.stringify({ distributionId: 'E000000000000' }),
  AWS_REGION: 'us-east-1',
  LOG_REQUESTS: 'false',
};

/**
 * Median over `runs` fresh Node processes of (a) importing the bundle and (b) that plus the first
 * invocation's setup (config, Deps, app): what a cold start costs before any network round trip.
 */
function measure(file: string, runs = 3): { importMs: number; initMs: number } {
  const script = `
    const t0 = performance.now();
    const mod = await import(${JSON.stringify('./' + file)});
    const t1 = performance.now();
    mod.handler.deps();
    const t2 = performance.now();
    console.log(JSON.stringify({ importMs: t1 - t0, initMs: t2 - t0 }));
    process.exit(0);`;
  const samples: { importMs: number; initMs: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...measureEnv },
    });
    if (child.status !== 0) throw new Error(`importing ${file} failed:\n${child.stderr}`);
    const line = child.stdout.trim().split('\n').pop()!;
    samples.push(JSON.parse(line) as { importMs: number; initMs: number });
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { importMs: median(samples.map((s) => s.importMs)), initMs: median(samples.map((s) => s.initMs)) };
}

async function bundleOne(name: string, fn: LambdaFunction): Promise<Report> {
  const outfile = join(outRoot, name, 'index.mjs');
  // SST's settings for a Node function (pkg/runtime/node/build.go in sst/sst, v3): ESM, platform
  // node, target esnext (Lambda's nodejs22.x runs all of it), `module` before `main` (ESM builds of
  // the AWS SDK: ~160 KB less than its CommonJS build), keepNames, minified unless `minify: false`.
  const result = await build({
    entryPoints: [fn.entry],
    outfile,
    bundle: true,
    minify: true,
    keepNames: true,
    format: 'esm',
    platform: 'node',
    target: 'esnext',
    mainFields: ['module', 'main'],
    banner: { js: banner },
    metafile: true,
    logLevel: 'warning',
  });
  const metafile = result.metafile;
  await writeFile(join(outRoot, name, 'meta.json'), JSON.stringify(metafile));
  const output = metafile.outputs[outfile];
  if (!output) throw new Error(`no output ${outfile} in the metafile`);
  const code = (await import('node:fs')).readFileSync(outfile);
  const violations: string[] = [];
  const rules = denylist(name, fn);
  for (const input of Object.keys(output.inputs)) {
    for (const rule of rules) {
      if (rule.pattern.test(input)) violations.push(`${input}: ${rule.why}`);
    }
  }
  // The other direction: a function that lost a port it needs would run on the port's guard.
  for (const sdk of fn.sdks) {
    if (!Object.keys(output.inputs).some((input) => pkg(sdkPackages[sdk]).test(input))) {
      violations.push(`${sdkPackages[sdk]} is missing: ${name} needs it (is its port still passed by the entry?)`);
    }
  }
  if (code.length > fn.budget) violations.push(`${code.length} bytes is over the budget of ${fn.budget} bytes`);
  const timing = violations.length === 0 ? measure(outfile, runs) : { importMs: NaN, initMs: NaN };
  return {
    name,
    entry: fn.entry,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    budget: fn.budget,
    ...timing,
    topPackages: contributions(output).slice(0, 8),
    violations: dedupe(violations),
  };
}

function dedupe(lines: string[]): string[] {
  // One line per package or directory is enough to act on.
  const seen = new Map<string, string>();
  for (const line of lines) {
    const [path = '', why = ''] = line.split(': ');
    const key = (/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? path) + why;
    if (!seen.has(key)) seen.set(key, line);
  }
  return [...seen.values()];
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

async function main() {
  await rm(outRoot, { recursive: true, force: true });
  await mkdir(outRoot, { recursive: true });
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const reports: Report[] = [];
  for (const [name, fn] of Object.entries(functions)) {
    if (only.length && !only.includes(name)) continue;
    await mkdir(dirname(join(outRoot, name, 'index.mjs')), { recursive: true });
    reports.push(await bundleOne(name, fn));
  }
  await writeFile(join(outRoot, 'report.json'), JSON.stringify({ node: process.version, runs, functions: reports }, null, 2) + '\n');

  const rows = reports.map((r) => [
    r.name,
    kb(r.bytes),
    kb(r.gzipBytes),
    kb(r.budget),
    `${Math.round((100 * r.bytes) / r.budget)}%`,
    Number.isNaN(r.importMs) ? '-' : `${r.importMs.toFixed(0)} ms`,
    Number.isNaN(r.initMs) ? '-' : `${r.initMs.toFixed(0)} ms`,
    r.topPackages.slice(0, 4).map((p) => `${p.name} ${kb(p.bytes)}`).join(', '),
  ]);
  const header = ['function', 'minified', 'gzip', 'budget', 'used', 'import', 'import+init', 'largest parts'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\nnode ${process.version}; times are the median of ${runs} fresh processes. Report: ${outRoot}/report.json`);

  const failed = reports.filter((r) => r.violations.length > 0);
  for (const r of failed) {
    console.error(`\n${r.name} (${r.entry}):`);
    for (const v of r.violations) console.error(`  ${v}`);
  }
  if (failed.length) {
    console.error(`\nBundle check failed for ${failed.map((r) => r.name).join(', ')}.`);
    process.exit(1);
  }
  console.log('Bundle check passed.');
}

await main();
