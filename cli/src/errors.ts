// Exit codes are part of the CLI's contract (docs/cli.md): CI scripts branch on them.
export const EXIT = { ok: 0, failed: 1, usage: 2, quota: 3, auth: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A failure with the exit code it maps to and a message that says what to do next. `done` is what
 * the command had already done when it failed (push: the files already imported), printed with
 * --json beside the error, so that CI can see a half-applied push.
 */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  done?: Record<string, unknown>;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
