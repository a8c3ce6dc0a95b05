// What a reader hands back must be storable (core/validation.ts refuses the same): no NUL and no
// unpaired surrogate. Escapes (JSON \ud800, iOS \U0000, XML &#xD800;) can produce either even
// from a well-encoded file, so each reader checks the strings it decoded.
import { FormatError, type FormatLoc } from '../format-error.ts';

export function checkStorable(text: string, loc: FormatLoc, what: string): string {
  if (text.includes('\u0000')) throw new FormatError(loc, `${what} contains a NUL character`);
  if (!text.isWellFormed()) throw new FormatError(loc, `${what} contains an unpaired surrogate`);
  return text;
}
