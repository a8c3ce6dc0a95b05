// The tms CLI as a user runs it: a child process (`node cli/bin/tms.js`), no terminal, CI=true.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', '..', 'cli', 'bin', 'tms.js');

export type Run = { code: number; stdout: string; stderr: string };

export function runTms(args: string[], options: { cwd: string; apiKey?: string; env?: Record<string, string>; bin?: string }): Promise<Run> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...(options.apiKey ? { TMS_API_KEY: options.apiKey } : {}), ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, [options.bin ?? BIN, ...args], { cwd: options.cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Writes each file (path relative to `root`), creating its folders. */
export async function writeFiles(root: string, files: Record<string, string>) {
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), body);
  }
}
