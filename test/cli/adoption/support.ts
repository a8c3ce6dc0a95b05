// Adoption scenarios: a team's existing files, as its tools write them, pushed into a fresh project (en, then de), pulled back into
// a clean directory, and pushed again. Not a test file itself (vitest picks *.test.ts only).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runTms, writeFiles, type Run } from '../support/run-tms.ts';
import { serveTestApp, type ServedApp } from '../support/served-app.ts';
import type { TestProject } from '../../support/test-app.ts';

export type Mapping = { path: string; format: string; languagePaths?: Record<string, string> };

export type Scenario = {
  project: TestProject;
  repo: string;
  clean: string;
  pushEn: Run;
  pushDe: Run;
  pull: Run;
  /** The pulled files (path relative to the clean directory), as bytes. */
  pulled: Record<string, Buffer>;
  /** The second push, from the clean directory, of what was pulled (default conflict policies). */
  push2: Run;
  /** The same again as a dry run with --conflict overwrite: shows what files would change. */
  push2Overwrite: Run;
};

const dirs: string[] = [];

export async function tempDir(prefix = 'tms-review-'): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export async function cleanup(app?: ServedApp) {
  await app?.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
}

export { serveTestApp };

export async function freshProject(app: ServedApp): Promise<TestProject> {
  const p = await app.t.newProject('team');
  for (const code of ['en', 'de']) expect((await app.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

export function parseJson(run: Run): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
}

/** The counts of a push --json that would change something on the server. */
export function changes(run: Run) {
  const doc = parseJson(run);
  return (doc.files as any[]).map((f) => ({
    path: f.path,
    language: f.language,
    keys_created: f.keys_created,
    values_created: f.values_created,
    values_updated: f.values_updated,
    values_kept: f.values_kept,
    descriptions_updated: f.descriptions_updated,
  }));
}

export async function scenario(app: ServedApp, mappings: Mapping[], files: Record<string, string | Buffer>): Promise<Scenario> {
  const project = await freshProject(app);
  const config = { server: app.base, sourceLanguage: 'en', files: mappings };
  const repo = await tempDir();
  for (const [path, body] of Object.entries(files)) {
    await writeFiles(repo, { [path]: '' });
    await writeFile(join(repo, path), body);
  }
  await writeFile(join(repo, 'tms.config.json'), JSON.stringify(config, null, 2));
  const tms = (args: string[], cwd: string) => runTms(args, { cwd, apiKey: project.apiKey });
  const pushEn = await tms(['push', '--language', 'en', '--json'], repo);
  const pushDe = await tms(['push', '--language', 'de', '--json'], repo);
  const clean = await tempDir();
  await writeFile(join(clean, 'tms.config.json'), JSON.stringify(config, null, 2));
  const pull = await tms(['pull', '--include-source', '--json'], clean);
  const pulled: Record<string, Buffer> = {};
  if (pull.code === 0) {
    for (const f of parseJson(pull).files as { path: string }[]) {
      const rel = f.path.startsWith(clean) ? f.path.slice(clean.length + 1) : f.path;
      pulled[rel] = await readFile(join(clean, rel));
    }
  }
  const push2Overwrite = await tms(['push', '--json', '--dry-run', '--conflict', 'overwrite'], clean);
  const push2 = await tms(['push', '--json'], clean);
  return { project, repo, clean, pushEn, pushDe, pull, pulled, push2, push2Overwrite };
}

/** Export of one language straight from the server (status=all). */
export async function exportFile(app: ServedApp, p: TestProject, language: string, format: string, extra = ''): Promise<string> {
  const res = await app.t.call(p.apiKey, 'GET', `/v1/export/${language}?format=${format}&status=all${extra}`);
  return `${res.status}\n${await res.text()}`;
}

export async function keys(app: ServedApp, p: TestProject): Promise<{ key: string; description: string | null }[]> {
  const res = await app.t.call(p.apiKey, 'GET', '/v1/keys?limit=200');
  return ((await res.json()) as any).keys;
}

export async function values(app: ServedApp, p: TestProject, language: string): Promise<Record<string, string>> {
  const res = await app.t.call(p.apiKey, 'GET', `/v1/translations/${language}?status=all`);
  const body = (await res.json()) as any;
  return Object.fromEntries(Object.entries(body.translations as Record<string, { value: string }>).map(([k, v]) => [k, v.value]));
}

/** A readable report of one scenario, for the test log. */
export function report(s: Scenario, originals: Record<string, string | Buffer>): string {
  const out: string[] = [];
  out.push(`push en: exit ${s.pushEn.code} ${s.pushEn.code ? s.pushEn.stderr + s.pushEn.stdout : JSON.stringify(changes(s.pushEn).map((f) => f), null, 0)}`);
  if (s.pushEn.code === 0) out.push(`  warnings en: ${JSON.stringify(parseJson(s.pushEn).files.map((f: any) => f.warnings))}`);
  out.push(`push de: exit ${s.pushDe.code} ${s.pushDe.code ? s.pushDe.stderr + s.pushDe.stdout : JSON.stringify(changes(s.pushDe))}`);
  if (s.pushDe.code === 0) out.push(`  warnings de: ${JSON.stringify(parseJson(s.pushDe).files.map((f: any) => f.warnings))}`);
  out.push(`pull: exit ${s.pull.code} ${s.pull.code ? s.pull.stderr : ''}`);
  for (const [path, body] of Object.entries(s.pulled)) {
    out.push(`===== pulled ${path} (same as original: ${originals[path] !== undefined && Buffer.from(originals[path]!).equals(body)})`);
    out.push(body.toString('utf8'));
  }
  out.push(`push2 (default): exit ${s.push2.code} ${s.push2.code ? s.push2.stderr + s.push2.stdout : JSON.stringify(changes(s.push2))}`);
  out.push(`push2 (overwrite dry): exit ${s.push2Overwrite.code} ${s.push2Overwrite.code ? s.push2Overwrite.stderr + s.push2Overwrite.stdout : JSON.stringify(changes(s.push2Overwrite))}`);
  return out.join('\n');
}

export function noChange(run: Run) {
  expect(run.code, run.stderr + run.stdout).toBe(0);
  for (const f of changes(run)) {
    expect({ ...f }, `second push of ${f.path}`).toEqual({ ...f, keys_created: 0, values_created: 0, values_updated: 0, values_kept: 0, descriptions_updated: 0 });
  }
}
