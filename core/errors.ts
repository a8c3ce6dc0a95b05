// Errors that core raises. They know nothing of HTTP: functions/http/errors.ts maps each code to a
// status and to the spec's `{ "detail": ... }` envelope in one exhaustive switch.

export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

export type AppErrorCode =
  | 'not_found' // 404
  | 'conflict' // 409
  | 'plan_limit' // 402, detail string
  | 'validation' // 422, detail array of ValidationIssue
  | 'unauthorized' // 401 "Invalid API key" (or admin token)
  | 'forbidden' // 403
  | 'rate_limited' // 429
  | 'not_ready' // 503 (cached endpoints before the first build)
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'dependency'; // 500 with a generic detail: a dependency (database) is unreachable

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly issues: ValidationIssue[] | undefined;
  /** Extra response headers the HTTP layer must send (Retry-After and friends). */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    extra: { issues?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'AppError';
    this.code = code;
    this.issues = extra.issues;
    this.headers = extra.headers;
  }
}

export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const planLimit = (message: string) => new AppError('plan_limit', message);
export const validationError = (issues: ValidationIssue[]) =>
  new AppError('validation', issues.map((i) => i.msg).join('; '), { issues });
