// The listing's cursor: opaque to clients (base64url of the last key's name and id), a keyset
// position in the listing's order (the key's name, unique among live keys; the id is carried but
// not compared), so a page costs the same wherever it is, and keys created or deleted meanwhile
// never shift the pages after them.
import * as v from 'valibot';
import { Uuid } from '../validation.ts';

export type KeyPosition = { key: string; id: string };

// A name Postgres could not compare (NUL, lone surrogates) is not a position: 422, never a 500.
const Position = v.tuple([v.pipe(v.string(), v.check((s) => s.isWellFormed() && !s.includes('\u0000'))), Uuid]);

export const encodeCursor = (p: KeyPosition) => Buffer.from(JSON.stringify([p.key, p.id]), 'utf8').toString('base64url');

/** The position a cursor names, or null when it is not one this service made. */
export function decodeCursor(cursor: string): KeyPosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = v.safeParse(Position, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { key: parsed.output[0], id: parsed.output[1] } : null;
  } catch {
    return null;
  }
}

/** For valibot pipes: a cursor this service could have made. */
export const Cursor = v.pipe(
  v.string('cursor must be given once'),
  v.maxLength(4_000, 'cursor is not valid'),
  v.check((s) => decodeCursor(s) !== null, 'cursor is not valid: pass next_cursor from a previous page unchanged'),
);
