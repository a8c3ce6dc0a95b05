// Parent side of bench/ceiling-server.ts: one child for the whole run, told over IPC which
// response to replay before each scenario's ceiling measurement.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { CeilingResponse } from './ceiling-server.ts';
import type { RawResponse } from './http.ts';
import { REPO_ROOT } from './server-process.ts';

export type Ceiling = {
  url: string;
  pid: number;
  serve(response: RawResponse, options?: { ifNoneMatch?: string }): Promise<void>;
  stop(): Promise<void>;
};

// node:http writes these itself, per response or per connection; replaying the service's copies
// would send a stale Date and duplicate connection management.
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export async function startCeiling(): Promise<Ceiling> {
  const child: ChildProcess = fork(join(REPO_ROOT, 'bench', 'ceiling-server.ts'), [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (type: string, timeoutMs: number) =>
    new Promise<{ type: string; url?: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ceiling server: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message: { type: string; url?: string }) => {
        if (message.type !== type) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
    });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };

  try {
    const { url } = await next('listening', 30_000);
    return {
      url: url!,
      pid: child.pid!,
      async serve(response, options = {}) {
        const message: CeilingResponse = {
          status: response.status,
          headers: response.rawHeaders.filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())),
          bodyBase64: response.body.toString('base64'),
          ...(options.ifNoneMatch !== undefined ? { ifNoneMatch: options.ifNoneMatch } : {}),
        };
        const serving = next('serving', 10_000);
        child.send({ type: 'serve', response: message });
        await serving;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
