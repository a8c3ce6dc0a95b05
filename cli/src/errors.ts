// Exit codes are part of the CLI's contract (docs/cli.md): CI scripts branch on them.
export const EXIT = { ok: 0, failed: 1, usage: 2, quota: 3, auth: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure with the exit code it maps to and a message that says what to do next. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
