import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's, and many
    // laptops' containers) that is one file at a time, while a file spends much of its time waiting
    // on a database, a child process or a browser. Two workers there took three folders of it (cli,
    // webhooks, keys) from 214 to 158 s, and the whole embedded suite ran in 12.5 minutes
    // (2026-11-30); more cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
