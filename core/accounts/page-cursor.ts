// Keyset pagination for the admin listings: ordered by (created_at, id), a page's cursor is the last
// row's pair. The timestamp travels as Postgres formats it, to the microsecond, so that rows created
// within the same millisecond are neither skipped nor repeated. Opaque to clients (base64url JSON).
import * as v from 'valibot';
import { validationError } from '../errors.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export type Cursor = { at: string; id: string };

const STAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

/** A real instant (not February 30th, not hour 25): Postgres would refuse it with an error, not a 422. */
function isRealInstant(at: string): boolean {
  const m = STAMP.exec(at);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second
  );
}

const CursorShape = v.object({
  at: v.pipe(v.string(), v.check(isRealInstant)),
  id: v.pipe(v.string(), v.uuid()),
});

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

export function decodeCursor(text: string): Cursor {
  try {
    return v.parse(CursorShape, JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw validationError([{ loc: ['query', 'cursor'], msg: 'cursor is not one this API gave out (use next_cursor as it is)', type: 'value_error' }]);
  }
}

/** The page query of every listing: `limit` (1 to 200, default 50) and the previous page's `next_cursor`. */
export const PageQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      v.transform(Number),
      // A number schema after the transform: the OpenAPI document then says integer (as for
      // GET /v1/keys), and a generated client takes limit: 10, not '10'.
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
        v.maxValue(MAX_PAGE_SIZE, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      ),
    ),
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200, 'cursor is not one this API gave out'))),
});
export type PageQuery = v.InferOutput<typeof PageQuery>;

/** Rows carry `page_at` (created_at to the microsecond) and `id`; one more than the limit is asked for. */
export function toPage<R extends { page_at: string; id: string }>(rows: R[], limit: number): { items: Omit<R, 'page_at'>[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return {
    items: kept.map(({ page_at: _at, ...rest }) => rest),
    next_cursor: more && last ? encodeCursor({ at: last.page_at, id: last.id }) : null,
  };
}
