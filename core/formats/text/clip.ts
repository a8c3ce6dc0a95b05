// Text shortened for display (a description in the activity log, a key named in a warning) is cut
// between characters as a reader sees them: a cut inside a surrogate pair leaves half an emoji, which
// a UTF-8 page shows as U+FFFD and JSON.stringify writes as the escape text "\ud83d"; a cut between
// a letter and its accent, or inside a flag or a ZWJ family, shows a different character.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` as it is when it has at most `max` UTF-16 units, else its longest run of whole graphemes under `max` and "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > max - 1) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}…`;
}
