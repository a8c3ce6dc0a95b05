// The database boundary: what Postgres (or the connection to it) says becomes a domain error here,
// once, for every caller. Core validates first; these are the safety net for what slips through.
import { AppError, validationError } from '../errors.ts';

/** Errors that mean the database could not be reached (as opposed to a query it refused). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('ECONN') ||
      code === 'ETIMEDOUT' ||
      code === 'EPIPE' ||
      code === 'ENOTFOUND' ||
      code === 'CONNECT_TIMEOUT' ||
      code === 'CONNECTION_CLOSED' ||
      code === 'CONNECTION_ENDED' ||
      code === 'CONNECTION_DESTROYED' ||
      code === '57P01' || // admin_shutdown
      code === '57P03') // cannot_connect_now
  );
}

const INPUT_ERRORS: Record<string, { msg: string; type: string }> = {
  '22P02': { msg: 'Invalid input syntax', type: 'invalid_syntax' },
  '22001': { msg: 'Value too long', type: 'too_long' },
  '22021': { msg: 'Invalid character in input', type: 'invalid_character' },
};

export const READ_ONLY_MESSAGE =
  'The database accepts no writes at the moment: it is read-only (the embedded database turns read-only while its disk is nearly full). Nothing was written; reads still work.';
export const DISK_FULL_MESSAGE = 'The database is out of disk space. Nothing was written; reads still work.';

/** Turns a Postgres or connection error into an AppError; anything else is returned unchanged. */
export function toDomainError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (isConnectionError(error)) return new AppError('dependency', 'The database is unreachable', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const input = INPUT_ERRORS[code];
  if (input) return validationError([{ loc: [], ...input }]);
  if (code === '23505') return new AppError('conflict', 'Conflict with an existing resource', { cause: error });
  if (code === '54000') return new AppError('too_large', 'Input too large', { cause: error });
  // The embedded database turns read-only when its disk is nearly full (core/db/disk-guard.ts); a
  // real Postgres can be read-only too (a standby, default_transaction_read_only). Either way the
  // write was refused whole, and reads still work.
  if (code === '25006') return new AppError('writes_refused', READ_ONLY_MESSAGE, { cause: error });
  if (code === '53100') return new AppError('writes_refused', DISK_FULL_MESSAGE, { cause: error });
  return error;
}
