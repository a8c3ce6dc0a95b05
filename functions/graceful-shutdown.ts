// How `npm start` stops on SIGTERM (a deploy, docker stop) or Ctrl-C: it stops accepting, lets the
// requests in flight and the running builds finish, says what it waits for, and exits within
// SHUTDOWN_TIMEOUT_MS. A second signal exits at once: what it leaves is safe, since a rebuild
// request is durable in the database and a build interrupted half-way publishes nothing (the next
// start, or another replica, builds it again).
import type { Server } from 'node:http';
import type { Runtime } from '../core/create-runtime.ts';
import type { Logger } from '../core/log.ts';

export type ShutdownOptions = {
  server: Server;
  runtime: Pick<Runtime, 'close' | 'rebuilds'>;
  log: Logger;
  timeoutMs: number;
  /** What a person at the terminal reads (the JSON log says the same for collectors). */
  say: (line: string) => void;
  exit: (code: number) => void;
};

export function installGracefulShutdown(options: ShutdownOptions): void {
  const { server, runtime, log, timeoutMs, say, exit } = options;
  let inFlight = 0;
  let stopping = false;
  server.on('request', (_req, res) => {
    inFlight++;
    // A request that came in on a kept-alive connection while stopping: its connection ends with it.
    if (stopping) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight--;
      // Its connection is idle once this response is out: close it, so that server.close() ends.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });

  const stop = async (signal: string) => {
    if (stopping) {
      log.warn('exiting now', { signal });
      say('  Exiting now. Rebuilds not finished are picked up again on the next start.');
      // Best effort and bounded: give this process's claims back, so that another replica need
      // not wait for them to lapse. A process that cannot do it quickly just goes.
      const released = runtime.rebuilds?.abandon().catch(() => {});
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 250))]);
      exit(1);
      return;
    }
    stopping = true;
    const started = performance.now();
    const builds = runtime.rebuilds?.building() ?? 0;
    log.info('shutting down', { signal, requests_in_flight: inFlight, builds_running: builds, timeout_ms: timeoutMs });
    const waitingFor = [inFlight && `${inFlight} request${inFlight === 1 ? '' : 's'}`, builds && `${builds} build${builds === 1 ? '' : 's'}`].filter(Boolean);
    say(
      waitingFor.length
        ? `\n  Shutting down: waiting for ${waitingFor.join(' and ')} to finish (at most ${Math.ceil(timeoutMs / 1000)} s). Press Ctrl-C again to exit now.`
        : '\n  Shutting down.',
    );
    const timer = setTimeout(() => {
      log.error('shutdown timed out', { timeout_ms: timeoutMs, requests_in_flight: inFlight, builds_running: runtime.rebuilds?.building() ?? 0 });
      say('  Shutdown timed out: exiting. Rebuilds not finished are picked up again on the next start.');
      exit(1);
    }, timeoutMs);
    try {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // No new builds from now; the running ones finish. Then requests, then the database.
      await Promise.all([closed, runtime.rebuilds?.drain()]);
      await runtime.close();
      clearTimeout(timer);
      log.info('shut down', { ms: Math.round(performance.now() - started) });
      exit(0);
    } catch (error) {
      clearTimeout(timer);
      log.error('shutdown failed', { error: String(error) });
      exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
