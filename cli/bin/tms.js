#!/usr/bin/env node
// The `tms` command. The CLI is written in TypeScript and run through tsx's loader, so a clone
// needs no build step and `npm install -g ./cli` works as it is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
