import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that need a module graph of their own (Vitest's isolation): the Lambda handlers keep their
// runtime, built from the environment, at module level (one per cold start, as on AWS), and two
// webhook files replace node:dns/promises with vi.mock, which a module already loaded by an earlier
// file in the same worker would not see (and a later file would).
// test/formats/large-files.test.ts times readers: it needs a heap that holds only its own modules
// (in the full suite, sharing a worker whose heap held every earlier file's modules, linear readers
// looked quadratic: a major collection of that heap can cost more than one timed run).
export const ISOLATED = [
  'test/lambda/**/*.test.ts',
  'test/webhooks/attempt-deadline.test.ts',
  'test/webhooks/registration-deadline.test.ts',
  'test/formats/large-files.test.ts',
];

// Workers are the run's (root) setting; the rest each project's. Each project runs the global setup
// once, so each has its migrated template (a few seconds).
// Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's, and many
// laptops' containers) that is one file at a time, while a file spends much of its time waiting
// on a database, a child process or a browser. Two workers there took three folders of it (cli,
// webhooks, keys) from 214 to 158 s (2026-11-30); more cores keep the default.
const maxWorkers = Math.max(2, availableParallelism() - 1);
const shared = { pool: 'forks' as const, testTimeout: 30_000, hookTimeout: 60_000, globalSetup: ['test/support/global-setup.ts'] };

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        // Every other file shares its worker's module graph with the files before it (isolate:
        // false): each file imported the whole service again (hono, the AWS SDK, the OpenAPI
        // schemas, PGlite's WebAssembly), about 3.5 s of a file's 5 on a 2-core machine. Without
        // that, the embedded suite took 17.5 minutes instead of 27 (2026-12-02, docs/decisions.md,
        // "Tests share their module graph"). Each file still gets its own database and app
        // (useTestApp), so no file sees another's data.
        test: { ...shared, name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      { test: { ...shared, name: 'isolated', include: ISOLATED } },
    ],
  },
});
