// Flat JSON: {"home.title": "Welcome"}. Keys are taken whole; dots mean nothing here.
import type { FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { readJson, jsonKind } from '../json/read-json.ts';
import { jsonText } from '../json/write-json.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';

export const jsonCodec: FormatCodec = {
  id: 'json',
  extension: 'json',
  contentType: 'application/json; charset=utf-8',
  needsSource: false,
  parse(body) {
    const doc = readJson(decodeUtf8(body));
    if (doc.root.kind !== 'object') throw new FormatError(['body'], `expected a JSON object at the top level, found ${jsonKind(doc.root)}`);
    const entries = doc.root.members.map((member) => {
      if (member.value.kind !== 'string') {
        throw new FormatError(['body', member.key], `expected a string, found ${jsonKind(member.value)} (line ${doc.line(member.value.offset)}); use format=json-nested for nested objects`);
      }
      return makeEntry(member.key, member.value.value, ['body', member.key]);
    });
    return { entries, warnings: [] };
  },
  serialize(entries) {
    return encodeText(jsonText(new Map(sortedEntries(entries).map((e) => [e.key, e.value]))));
  },
};
