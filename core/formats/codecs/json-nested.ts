// Nested JSON: {"home": {"title": "Welcome"}} is the key home.title. See tree/nest-keys.ts for keys
// that are both a leaf and a prefix (`a` and `a.b`): the longer one is written flat.
import type { FormatCodec } from '../types.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { readJson } from '../json/read-json.ts';
import { flattenJson } from '../json/flatten-json.ts';
import { nestedJsonText } from '../json/nested-json-text.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';

export const jsonNestedCodec: FormatCodec = {
  id: 'json-nested',
  extension: 'json',
  contentType: 'application/json; charset=utf-8',
  needsSource: false,
  parse(body) {
    const leaves = flattenJson(readJson(decodeUtf8(body)));
    return { entries: leaves.map((leaf) => makeEntry(leaf.key, leaf.value, ['body', ...leaf.path])), warnings: [] };
  },
  serialize(entries) {
    return encodeText(nestedJsonText(sortedEntries(entries).map((e) => [e.key, e.value] as const)));
  },
};
