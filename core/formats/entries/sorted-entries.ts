// Writers start here: entries in UTF-16 code unit order of their keys (JavaScript's `<`, not
// localeCompare, so the order never depends on the host's locale; it is code point order except
// that characters past U+FFFF sort before U+E000-U+FFFF), each key once, and every string
// encodable as UTF-8.
// This is what makes two exports of the same data byte-identical.
import type { Entry } from '../types.ts';
import { FormatError } from '../format-error.ts';

function check(entry: Entry): void {
  const fields: [string, string | null | undefined][] = [
    ['key', entry.key],
    ['value', entry.value],
    ['description', entry.description],
    ['group', entry.group],
  ];
  for (const [name, text] of fields) {
    if (text == null) continue;
    if (typeof text !== 'string') throw new FormatError(['body', String(entry.key)], `${name} must be a string`);
    if (!text.isWellFormed()) throw new FormatError(['body', entry.key], `${name} contains an unpaired surrogate`);
    if (text.includes('\u0000')) throw new FormatError(['body', entry.key], `${name} contains a NUL character`);
  }
}

export function sortedEntries(entries: readonly Entry[]): Entry[] {
  for (const entry of entries) check(entry);
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    const key = sorted[i]?.key ?? '';
    if (key === sorted[i - 1]?.key) throw new FormatError(['body', key], 'key appears more than once');
  }
  return sorted;
}
