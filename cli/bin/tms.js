#!/usr/bin/env node
// The `tms` command. The CLI is written in TypeScript and run through tsx's loader, so a clone
// needs no build step and `npm install -g ./cli` works as it is.
import { readFileSync } from 'node:fs';

// --version answers before the TypeScript loader starts: it is what scripts call to check the tool.
if (process.argv[2] === '--version' || process.argv[2] === '-v') {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`tms ${version}\n`);
  process.exit(0);
}
// `tms pull | head -1`: the reader went away. Nothing more is said to it, but the command goes on:
// exiting here left a pull's files unwritten and a failing push's exit code 0. (An unhandled EPIPE
// printed a stack trace and exit 1.)
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    // Later writes are dropped here, not sent to a stream that can only fail them.
    stream.write = () => true;
  });
}
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
