// The README as a newcomer meets it: its walk-through runs as written against `npm start` on a
// port and data dir that are not the defaults, and stops on the first error; its Layout names what
// the repository holds, and names nothing it does not.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, killLocalServers, ROOT, startLocalServer, type LocalServer } from './local-server-process.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's `## ` sections, by heading. */
const sections = new Map(
  readme.split(/^## /m).slice(1).map((s) => [s.slice(0, s.indexOf('\n')), s] as const),
);
const shellBlocks = (section: string) => [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** The walk-through: the curl section and the import section that continues it. */
function walkThrough(): string {
  const headings = [...sections.keys()].filter((h) => /^A first translation|^Import and export/.test(h));
  expect(headings[0], 'README has "## A first translation"').toMatch(/^A first translation/);
  return headings.flatMap((h) => shellBlocks(sections.get(h)!)).join('\n');
}

function runBash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
    if (!('TMS_ADMIN_TOKEN' in env)) delete childEnv.TMS_ADMIN_TOKEN;
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the README walk-through', () => {
  let dir: string;
  let server: LocalServer;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tms-readme-'));
    port = await freePort();
    server = await startLocalServer({ PORT: String(port), TMS_DATA_DIR: join(dir, 'data') });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    killLocalServers();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs as written under set -euo pipefail with PORT and TMS_DATA_DIR not the defaults', async () => {
    const script = walkThrough();
    // Nothing in it may trip an interactive shell's history expansion (bash: "!x: event not found").
    expect(script.split('\n').filter((line) => !line.startsWith('#') && line.includes('!'))).toEqual([]);
    const cwd = await mkdtemp(join(dir, 'work-'));
    const result = await runBash(script, cwd, { PORT: String(port), TMS_DATA_DIR: join(dir, 'data') });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('{"key":"home.title","group":"home","language":"de","value":"Willkommen","status":"approved"}');
    expect(result.stdout).toMatch(/\b304\n/); // the revalidation's status, printed with -w
    expect(result.stdout).toContain('<string name="home.title">Willkommen</string>');
    expect(result.stdout).toContain('  "home.title": "[Ŵîļļķöṁṁéñ one two t]"');
  }, 90_000);

  it('stops at once, saying why, when the data dir holds no admin token', async () => {
    const empty = await mkdtemp(join(dir, 'empty-'));
    const result = await runBash(walkThrough(), empty, { PORT: String(port), TMS_DATA_DIR: empty });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(empty, 'admin-token'));
    expect(result.stdout).toBe('');
  }, 30_000);

  it('stops at once, saying why, when nothing listens on PORT', async () => {
    const result = await runBash(walkThrough(), dir, { PORT: String(await freePort()), TMS_DATA_DIR: join(dir, 'data') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/curl: \(7\)/);
    expect(result.stderr).not.toMatch(/TypeError|at \[eval\]/);
  }, 30_000);
});

describe('the README layout', () => {
  const block = /^## Layout\n+```\n([\s\S]*?)^```$/m.exec(readme)?.[1] ?? '';
  // Entries start in column 0 (top level) or 2 (inside the entry above); deeper lines continue a description.
  const entries: string[] = [];
  let parent = '';
  for (const line of block.split('\n')) {
    const m = /^( {0,2})(\S+)/.exec(line);
    if (!m) continue;
    if (m[1] === '') entries.push((parent = m[2]!));
    else if (m[1] === '  ') entries.push(parent.replace(/\/?$/, '/') + m[2]);
  }
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

  it('names only paths that exist', () => {
    expect(entries.length).toBeGreaterThan(20);
    for (const entry of entries) expect(existsSync(join(ROOT, entry)), entry).toBe(true);
  });

  it('names every top-level folder, and every folder and file of core/ and functions/ that is not a detail', () => {
    const topLevel = new Set(tracked.filter((p) => p.includes('/')).map((p) => p.split('/')[0]!));
    const listedTop = new Set(entries.map((e) => e.split('/')[0]!));
    for (const name of topLevel) expect(listedTop.has(name), `${name}/ in the layout`).toBe(true);

    const words = new Set(block.split(/[^\w.-]+/));
    const inside = (root: string) =>
      new Set(tracked.filter((p) => p.startsWith(`${root}/`)).map((p) => p.split('/')[1]!).filter((n) => n.includes('.') === false));
    for (const root of ['core', 'functions']) {
      for (const folder of inside(root)) expect(words.has(folder) || words.has(`${folder}/`), `${root}/${folder}/ in the layout`).toBe(true);
    }
    for (const file of tracked.filter((p) => /^functions\/[^/]+\.ts$/.test(p))) {
      expect(entries, `${file} in the layout`).toContain(file);
    }
  });
});

describe('links in the README and docs/', () => {
  it('point at files that exist in a clone (the spec included)', () => {
    const pages = ['README.md', 'CONTRIBUTING.md', ...readdirMd('docs')];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const base = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '.';
        expect(existsSync(join(ROOT, base, target!)), `${page} -> ${target}`).toBe(true);
      }
    }
    expect(readme).toContain('](docs/spec.md)');
  });
});

function readdirMd(folder: string): string[] {
  return execFileSync('git', ['ls-files', `${folder}/*.md`], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}
