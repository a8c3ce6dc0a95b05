// What the CLI must not give away or assume: a redirect is not followed (fetch sent X-API-Key to
// whatever host it named, and turned a POST into a GET); errors name a secret flag but never print
// its value, nor a server URL's user:password@; and any CI value a CI tool sets ("1", "True", a
// name) means no prompts. Each run is a child process (`node cli/bin/tms.js`), as users run it.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runTms } from './support/run-tms.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A folder with a tms.config.json (TMS_SERVER names the server where a test needs one). */
async function repository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-safety-'));
  dirs.push(dir);
  await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: 'http://127.0.0.1:1', sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] }));
  return dir;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const KEY = 'key_live_' + 'S'.repeat(40);

describe('redirects are not followed', () => {
  it('a 302 to another host: exit 1 naming the address; the other host never receives the API key (GET, and a POST)', async () => {
    // Another host, which records what reaches it.
    const reached: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
    const other = createServer((req, res) => {
      reached.push({ method: req.method, url: req.url, headers: req.headers });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    const otherBase = await listen(other);
    // The configured server: a status read is answered, everything else is sent to the other host.
    const moved = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/v1/cache/status') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ project_id: 'p', ready: false, last_rebuilt_at: null, pending: false }));
        return;
      }
      res.writeHead(req.url === '/v1/cache/rebuild' ? 302 : 301, { Location: `${otherBase}${req.url}` });
      res.end();
    });
    const movedBase = await listen(moved);
    try {
      const dir = await repository();
      const env = { TMS_SERVER: movedBase };
      const status = await runTms(['status'], { cwd: dir, apiKey: KEY, env });
      const publish = await runTms(['publish', '--json'], { cwd: dir, apiKey: KEY, env });
      expect(reached.filter((r) => r.headers['x-api-key'] !== undefined)).toEqual([]);
      expect(reached).toEqual([]);
      expect(status.code, status.stderr).toBe(1);
      expect(status.stderr).toMatch(new RegExp(`: the server redirected to ${otherBase}/v1/\\S+ \\(301\\); set the server URL to that address \\(${otherBase}; the URL comes from TMS_SERVER\\)`));
      expect(publish.code, publish.stderr).toBe(1);
      expect(JSON.parse(publish.stdout)).toMatchObject({
        exit_code: 1,
        error: `POST /v1/cache/rebuild: the server redirected to ${otherBase}/v1/cache/rebuild (302); set the server URL to that address (${otherBase}; the URL comes from TMS_SERVER). Redirects are not followed: they would carry the API key elsewhere`,
      });
    } finally {
      await new Promise<void>((r) => moved.close(() => r()));
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});

describe('secrets stay out of error messages', () => {
  it('--api-key given twice, or with a value that starts with "-": the flag is named, its values are not', async () => {
    const dir = await repository();
    const twice = await runTms(['status', '--json', '--api-key', 'key_live_first', '--api-key', 'key_live_second'], { cwd: dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^tms status: --api-key given twice with different values: give it once\n/);
    const dash = await runTms(['push', '--api-key', '-key_live_dash'], { cwd: dir });
    expect(dash.code).toBe(2);
    expect(dash.stderr).toMatch(/^tms push: --api-key: a value that starts with "-" is taken for an option; write --api-key=VALUE if it is the value\n/);
    for (const run of [twice, dash]) expect(run.stdout + run.stderr).not.toMatch(/key_live_(first|second|dash)/);
    // Other flags' values are still shown: they are what the user needs to see.
    const status = await runTms(['pull', '--status', 'draft', '--status', 'all'], { cwd: dir, apiKey: KEY });
    expect(status.stderr).toMatch(/--status given twice \("draft", "all"\)/);
  });

  it('a server URL refused for its user:password@ (TMS_SERVER, mcp --server) is printed without them', async () => {
    const dir = await repository();
    const url = 'http://deploy:hunter2@127.0.0.1:3000';
    const env = await runTms(['status', '--json'], { cwd: dir, apiKey: KEY, env: { TMS_SERVER: url } });
    const flag = await runTms(['mcp', '--server', url], { cwd: dir, apiKey: KEY });
    for (const [run, name] of [[env, 'TMS_SERVER'], [flag, '--server']] as const) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${name}: an http(s) URL such as "http://127.0.0.1:3000", not "http://***@127.0.0.1:3000" (a URL without user:password@)`);
      expect(run.stdout + run.stderr).not.toContain('hunter2');
      expect(run.stdout + run.stderr).not.toContain('deploy');
    }
  });
});

/** `script` (util-linux) runs a command on a pseudo-terminal: the CLI then sees a terminal. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * `tms init` without flags on a terminal, with CI set to `ci`: its output, once it exits or once it
 * prompts (then it is stopped: a prompt means it took the terminal for a person's).
 */
function initOnTerminal(ci: string): Promise<{ code: number | null; output: string; prompted: boolean }> {
  return mkdtemp(join(tmpdir(), 'tms-tty-')).then(
    (dir) =>
      new Promise((resolve) => {
        dirs.push(dir);
        const child = spawn('script', ['-qec', `'${process.execPath}' '${BIN}' init`, '/dev/null'], {
          cwd: dir,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb', CI: ci },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let output = '';
        let prompted = false;
        const timer = setTimeout(() => child.kill(), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (!prompted && output.includes('tms server URL')) {
            prompted = true;
            child.kill();
          }
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, output, prompted });
        });
      }),
  );
}

describe('CI detection', () => {
  it.skipIf(!hasScript)('CI=1, CI=True, CI=woodpecker: no prompt even on a terminal; CI=false and CI=0: a terminal prompts', async () => {
    const runs = await Promise.all(['1', 'True', 'woodpecker', 'false', '0'].map(initOnTerminal));
    for (const run of runs.slice(0, 3)) {
      expect(run.prompted, run.output).toBe(false);
      expect(run.code, run.output).toBe(2);
      expect(run.output).toContain('(without a terminal, give --server, --source-language and --file)');
    }
    for (const run of runs.slice(3)) expect(run.prompted, run.output).toBe(true);
  });
});
