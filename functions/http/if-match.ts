// If-Match on a value's writes (RFC 9110 13.1.1): "*" or a list of entity tags. A value's ETag is
// its version, as a strong tag ("42"). Comparison is strong: a weak tag (W/"42") or anything that
// is not one of our tags matches nothing, so the write answers 412 instead of guessing.
import type { Context } from 'hono';
import type { IfMatch } from '../../core/translations/schemas.ts';

export const versionEtag = (version: number) => `"${version}"`;

export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '*') return '*';
  const versions: number[] = [];
  for (const tag of text.split(',')) {
    const m = /^"(\d{1,15})"$/.exec(tag.trim());
    if (m) versions.push(Number(m[1]));
  }
  return versions;
}

export const ifMatchOf = (c: Context) => parseIfMatch(c.req.header('if-match'));

/**
 * If-None-Match on a write: "*" (create only) or the tags of versions the write must not overwrite.
 * Its comparison is weak (RFC 9110 13.1.2): W/"42" names version 42 as "42" does.
 */
export function parseIfNoneMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '*') return '*';
  const versions: number[] = [];
  for (const tag of text.split(',')) {
    const m = /^(?:W\/)?"(\d{1,15})"$/.exec(tag.trim());
    if (m) versions.push(Number(m[1]));
  }
  return versions;
}

/** If-Match wins when both are sent (RFC 9110 13.2.2: If-None-Match is then not evaluated). */
export function writeConditions(c: Context): { ifMatch: IfMatch } | { ifNoneMatch: IfMatch } | Record<string, never> {
  const ifMatch = ifMatchOf(c);
  if (ifMatch !== undefined) return { ifMatch };
  const ifNoneMatch = parseIfNoneMatch(c.req.header('if-none-match'));
  return ifNoneMatch === undefined ? {} : { ifNoneMatch };
}
