// What every command gets: where it runs, how it talks to the user, and (for commands that call
// the server) the config and the HTTP client.
import type { Output } from './output.ts';

export type Context = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: Output;
  /** A terminal on both ends: prompts are allowed. */
  interactive: boolean;
};
