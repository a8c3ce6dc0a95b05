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
  '22007': { msg: 'Invalid date or time', type: 'invalid_datetime' },
  '22008': { msg: 'Date or time out of range', type: 'datetime_out_of_range' },
};

export const READ_ONLY_MESSAGE =
  'The database accepts no writes at the moment: it is read-only (the embedded database turns read-only while its disk is nearly full). Nothing was written; reads still work.';
export const DISK_FULL_MESSAGE = 'The database is out of disk space. Nothing was written; reads still work.';

export const KEY_AND_GROUP_TOO_LONG =
  'the key and its group name are too long together: at most about 2,600 bytes of UTF-8 between them (a character takes 1 to 4 bytes; 500 characters of 4 bytes plus a long group name pass it)';

/** Postgres refusing a key and group name too long together for the (project, group, key) index. */
export const isKeyAndGroupTooLong = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === '54000' && /translation_keys_live_group_idx/.test((error as Error).message);

/**
 * The 422 for it, at the field the request sent: `key` for a new key (the default mapping below),
 * `new_name` for a group rename, `group_name` for a key moved to another group.
 */
export const keyAndGroupTooLong = (loc: (string | number)[]) => validationError([{ loc, msg: KEY_AND_GROUP_TOO_LONG, type: 'too_long' }]);

/** Turns a Postgres or connection error into an AppError; anything else is returned unchanged. */
export function toDomainError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (isConnectionError(error)) return new AppError('dependency', 'The database is unreachable', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const input = INPUT_ERRORS[code];
  if (input) return validationError([{ loc: [], ...input }]);
  if (code === '23505') return new AppError('conflict', 'Conflict with an existing resource', { cause: error });
  if (code === '54000') {
    // A key and its group name are indexed together (project, group, key), and a btree entry holds
    // at most 2,704 bytes: both at their limits in characters of 4 UTF-8 bytes (CJK Extension B,
    // emoji) pass it. Valid by section 2 yet unstorable: a 422 that says which limit, not a 413.
    if (isKeyAndGroupTooLong(error)) return keyAndGroupTooLong(['body', 'key']);
    return new AppError('too_large', 'Input too large', { cause: error });
  }
  // The embedded database turns read-only when its disk is nearly full (core/db/disk-guard.ts); a
  // real Postgres can be read-only too (a standby, default_transaction_read_only). Either way the
  // write was refused whole, and reads still work.
  if (code === '25006') return new AppError('writes_refused', READ_ONLY_MESSAGE, { cause: error });
  if (code === '53100') return new AppError('writes_refused', DISK_FULL_MESSAGE, { cause: error });
  return error;
}
