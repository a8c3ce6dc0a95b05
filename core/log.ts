// Structured logging: one JSON object per line on stdout/stderr. Core receives a Logger through
// Deps so that tests can silence or capture it; nothing here reads the environment.

export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function createJsonLogger(write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/**
 * A background loop's failures, said once per kind: a poll that fails the same way every second or
 * two (the database gone, or read-only on a full disk) logs its first failure and then only a
 * different one, and one line when it works again with how many failures it kept quiet about.
 */
export function failureLog(log: Logger, failedMsg: string, recoveredMsg: string): { failed(error: unknown): void; succeeded(): void } {
  let last: string | undefined;
  let failures = 0;
  return {
    failed(error) {
      failures++;
      const text = String(error);
      if (text === last) return;
      last = text;
      log.warn(failedMsg, { error: text });
    },
    succeeded() {
      if (last === undefined) return;
      log.info(recoveredMsg, { failures });
      last = undefined;
      failures = 0;
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A logger that keeps lines in memory, for tests that assert on what was logged. */
export function createMemoryLogger(): Logger & { lines: (LogFields & { level: string; msg: string })[] } {
  const lines: (LogFields & { level: string; msg: string })[] = [];
  const push = (level: string) => (msg: string, fields?: LogFields) => void lines.push({ level, msg, ...fields });
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
