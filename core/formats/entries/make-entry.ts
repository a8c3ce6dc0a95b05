// Readers build entries through here so that every key, value and description is checked the same way.
import type { Entry } from '../types.ts';
import type { FormatLoc } from '../format-error.ts';
import { checkStorable } from './storable.ts';

export function makeEntry(key: string, value: string, loc: FormatLoc, description?: string | null, group?: string): Entry {
  const entry: Entry = { key: checkStorable(key, loc, 'key'), value: checkStorable(value, loc, 'value') };
  if (description != null) entry.description = checkStorable(description, loc, 'description');
  if (group !== undefined) entry.group = checkStorable(group, loc, 'group');
  return entry;
}
