/**
 * A request the server refused or could not answer, with nothing stored to serve instead.
 * `status` is 0 when the server could not be reached at all.
 */
export class TmsError extends Error {
  readonly status: number;
  /** The error envelope's `detail`, when the server sent one. */
  readonly detail: unknown;
  /** Seconds the server asked to wait (429's Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(message: string, status: number, detail?: unknown, retryAfter?: number) {
    super(message);
    this.name = 'TmsError';
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}
