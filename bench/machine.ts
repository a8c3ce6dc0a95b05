// The machine a run happened on, for the report header: figures mean little without it.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './server-process.ts';

export type Machine = {
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  database: string;
  counters: string;
  /** Commit of the code measured, and whether the working tree had changes on top of it. */
  code: string;
  loadAverageAtStart: number[];
};

const run = promisify(execFile);

async function osName(): Promise<string> {
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1];
    if (pretty) return `${pretty}, ${osType()} ${release()}`;
  } catch {
    // not Linux, or no os-release
  }
  return `${osType()} ${release()}`;
}

async function codeVersion(): Promise<string> {
  try {
    const { stdout: head } = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT });
    const { stdout: status } = await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT });
    return `${head.trim()}${status.trim() ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function pgliteVersion(): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '?';
  }
}

export async function describeMachine(database: { postgresVersion?: string }): Promise<Machine> {
  const cpuList = cpus();
  return {
    os: await osName(),
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    database: database.postgresVersion
      ? `postgres: ${database.postgresVersion.split(' on ')[0]} (throwaway database, DATABASE_POOL_MAX ${process.env.DATABASE_POOL_MAX ?? '10'}${/[?&]host=\//.test(process.env.DATABASE_URL ?? '') ? ', through its Unix socket' : ''})`
      : `embedded: PGlite ${await pgliteVersion()} inside the service process`,
    counters: process.env.REDIS_URL ? `Redis (REDIS_URL${process.env.REDIS_URL.startsWith('unix:') ? ', through its Unix socket' : ''})` : 'in-process',
    code: await codeVersion(),
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
