// tms key names cannot hold control characters (core/validation.ts: they break paths, files and
// logs). In gettext PO and Apple .strings the key is often the source text itself, line breaks
// and tabs included: such an entry is something the format holds and tms cannot store, so the
// reader skips it with a warning naming it, and the rest of the file is imported. (NUL is not
// skipped: a NUL anywhere refuses the file, as in every format.)
import { clip } from '../text/clip.ts';

const CONTROL = /[\u0001-\u001f\u007f]/;
/** How many skipped keys a warning names; it counts them all. */
const NAMED = 10;

export type SkippedKey = { key: string; line: number };

export const hasControlCharacters = (key: string) => !key.includes('\u0000') && CONTROL.test(key);

/** The warning for the skipped keys (none when there are none); `one` and `many` name the entries ("message", "messages"). */
export function controlCharacterWarnings(skipped: readonly SkippedKey[], one: string, many: string): string[] {
  if (skipped.length === 0) return [];
  const shown = skipped.slice(0, NAMED).map((s) => `${JSON.stringify(clip(s.key, 61))} (line ${s.line})`);
  const more = skipped.length > NAMED ? ` and ${skipped.length - NAMED} more` : '';
  const count = skipped.length === 1 ? `1 ${one} was` : `${skipped.length} ${many} were`;
  return [`${count} skipped because tms keys cannot contain line breaks, tabs or other control characters: ${shown.join(', ')}${more}`];
}
