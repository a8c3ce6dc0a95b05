// Line numbers for error locations. Parsers record offsets; the line is looked up only when needed,
// with a table of line starts so that locating many nodes stays O(log n) each.

/** Offsets at which each line starts; line 1 starts at 0. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let at = text.indexOf('\n');
  while (at !== -1) {
    starts.push(at + 1);
    at = text.indexOf('\n', at + 1);
  }
  return starts;
}

/** The 1-based line holding `offset`. */
export function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The 1-based line of one offset, for a single error. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
