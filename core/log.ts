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

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A logger that keeps lines in memory, for tests that assert on what was logged. */
export function createMemoryLogger(): Logger & { lines: (LogFields & { level: string; msg: string })[] } {
  const lines: (LogFields & { level: string; msg: string })[] = [];
  const push = (level: string) => (msg: string, fields?: LogFields) => void lines.push({ level, msg, ...fields });
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
