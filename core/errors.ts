// Errors that core raises. They know nothing of HTTP (no statuses, no headers): functions/http/errors.ts
// maps each code to a status and to the spec's `{ "detail": ... }` envelope in one exhaustive switch.
// An error can carry structured data for that mapping (the quota's used/limit/reset_date, a rate
// limit's tally), so that every surface (HTTP, portal, CLI) can say the same thing its own way.

export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

export type AppErrorCode =
  | 'not_found'
  | 'conflict'
  /** A plan limit on projects, keys or languages; data: PlanLimitData. */
  | 'plan_limit'
  /** The monthly translation-unit quota; data: QuotaExceededData. */
  | 'quota_exceeded'
  /** Input refused; issues say where. */
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  /** The daily call quota; data: the caller's tally. */
  | 'rate_limited'
  /** Nothing built yet (cached reads before the first build). */
  | 'not_ready'
  /** Input over a size limit. */
  | 'too_large'
  /** A dependency (the database) cannot be reached. */
  | 'dependency'
  /**
   * The database answers but refuses writes (read-only: the embedded database on a nearly full disk,
   * a standby; or out of disk space): nothing of the write was kept, and reads still work.
   */
  | 'writes_refused'
  /** A third-party service the request relies on (a machine translation provider) failed or refused. */
  | 'upstream'
  /** A conditional write (If-Match, expected versions) found values changed since; data: PreconditionFailedData. */
  | 'precondition_failed';

export type QuotaExceededData = {
  code: 'QUOTA_EXCEEDED';
  used: number;
  limit: number;
  reset_date: string;
  upgrade_url: string;
};

/**
 * An answer core gives a caller, not a fault in our code: so it carries no stack trace. V8 records
 * one for every Error it constructs, async frames included, and from a request's middleware chain
 * that cost 15-19 us per error on this machine, several times the rest of a 404, 401, 422 or 429
 * (docs/decisions.md, "Errors without stack traces"). Nothing reads it: error answers and their logs
 * use the code and the message, and a fault behind an error (a lost database connection) keeps its own
 * stack as the `cause`.
 */
/**
 * What a 401 asks for (RFC 9110 11.6.1: a 401 carries a WWW-Authenticate challenge naming how to
 * authenticate): the API's refusals name the X-API-Key header, the admin API's its Bearer token.
 */
export type AuthChallenge = { challenge: string };

export class AppError<D = unknown> extends Error {
  readonly code: AppErrorCode;
  readonly issues: ValidationIssue[] | undefined;
  readonly data: D | undefined;

  constructor(code: AppErrorCode, message: string, extra: { issues?: ValidationIssue[]; data?: D; cause?: unknown } = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'AppError';
    this.code = code;
    this.issues = extra.issues;
    this.data = extra.data;
  }
}

/** One value a conditional write expected at a version it no longer has (expected: null when it expected none; current: null when it is gone). */
export type VersionConflict = { key_id: string; language: string; expected: number | '*' | null; current: number | null };
export type PreconditionFailedData = { code: 'PRECONDITION_FAILED'; message: string; conflicts: VersionConflict[] };
export const preconditionFailed = (message: string, conflicts: VersionConflict[]) =>
  new AppError<PreconditionFailedData>('precondition_failed', message, { data: { code: 'PRECONDITION_FAILED', message, conflicts } });

export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
/** What a plan_limit error carries, so that every surface can say which limit and by how much. */
export type PlanLimitData = {
  resource: 'projects' | 'keys' | 'languages';
  plan: string;
  limit: number;
  /** How many the project (or, for projects, the account) has now. */
  current: number;
  /** How many the refused write would have added. */
  adding: number;
};
export const planLimit = (message: string, data: PlanLimitData) => new AppError<PlanLimitData>('plan_limit', message, { data });
export const validationError = (issues: ValidationIssue[]) =>
  new AppError('validation', issues.map((i) => i.msg).join('; '), { issues });
export const quotaExceeded = (data: Omit<QuotaExceededData, 'code'>) =>
  new AppError<QuotaExceededData>(
    'quota_exceeded',
    `Monthly translation-unit quota exceeded: ${data.used} used, ${data.limit} allowed until ${data.reset_date}`,
    { data: { code: 'QUOTA_EXCEEDED', ...data } },
  );
