// The max_length check's measure (docs/quality.md): how long a value is against its key's character
// limit. Characters are graphemes (visibleLength: an emoji with its skin tone, an accented letter
// written with a combining mark, a flag count once), counted as written, placeholders included: tms
// cannot know what an app puts in `{name}`, and the count then matches the one a translator sees
// under the box. A plural or select shows one branch at a time, so its longest branch counts, in
// place of the whole construct (nested ones likewise).
import { parse, isPluralElement, isSelectElement, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CHOICE_HEAD } from './icu.ts';
import { visibleLength } from './text-edges.ts';

export function shownLength(text: string): number {
  if (!CHOICE_HEAD.test(text)) return visibleLength(text);
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { ignoreTag: true, requiresOtherClause: true, captureLocation: true });
  } catch {
    // Not valid ICU (the icu_syntax check says so): measured as written.
    return visibleLength(text);
  }
  return longest(text, elements, 0, text.length);
}

/** The length of text[from, to) with each plural or select in it replaced by its longest branch. */
function longest(text: string, elements: readonly MessageFormatElement[], from: number, to: number): number {
  let n = 0;
  let at = from;
  for (const el of elements) {
    if (!isPluralElement(el) && !isSelectElement(el)) continue;
    const { start, end } = el.location!;
    n += visibleLength(text.slice(at, start.offset));
    let best = 0;
    for (const option of Object.values(el.options)) {
      // An option's location spans its braces: the branch's text is inside them.
      const o = option.location!;
      best = Math.max(best, longest(text, option.value, o.start.offset + 1, o.end.offset - 1));
    }
    n += best;
    at = end.offset;
  }
  return n + visibleLength(text.slice(at, to));
}
