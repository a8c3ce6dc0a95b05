// Flutter ARB: a flat JSON object whose values are ICU messages, stored as they are. `@key` holds a
// key's metadata: its `description` is the entry's description. Other metadata (`placeholders`
// with types and formats, `type`, `context`) has no place in an entry: it is dropped with a
// warning, and Flutter's gen-l10n infers what it needs from the message (num for plurals, Object
// otherwise) unless the app's template ARB declares it. `@@` members are file metadata; export
// writes `@@locale` first.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { jsonKind, readJson, type JsonDocument, type JsonNode } from '../json/read-json.ts';
import { jsonText, type JsonOut } from '../json/write-json.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';

const listed = (names: string[]) => (names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', '));

function descriptionOf(doc: JsonDocument, name: string, meta: JsonNode, dropped: Set<string>): string | undefined {
  if (meta.kind !== 'object') throw new FormatError(['body', name], `metadata must be an object, found ${jsonKind(meta)} (line ${doc.line(meta.offset)})`);
  let description: string | undefined;
  for (const member of meta.members) {
    if (member.key === 'description') {
      if (member.value.kind === 'null') continue;
      if (member.value.kind !== 'string') {
        throw new FormatError(['body', name, 'description'], `description must be a string, found ${jsonKind(member.value)} (line ${doc.line(member.value.offset)})`);
      }
      description = member.value.value;
    } else {
      dropped.add(name.slice(1));
    }
  }
  return description;
}

export const arbCodec: FormatCodec = {
  id: 'arb',
  extension: 'arb',
  contentType: 'application/json; charset=utf-8',
  needsSource: false,
  parse(body, ctx) {
    const doc = readJson(decodeUtf8(body));
    const root = doc.root;
    if (root.kind !== 'object') throw new FormatError(['body'], `expected a JSON object at the top level, found ${jsonKind(root)}`);
    const warnings: string[] = [];
    const values = new Map<string, { value: string; offset: number }>();
    const descriptions = new Map<string, string>();
    const dropped = new Set<string>();
    for (const member of root.members) {
      const { key, value } = member;
      if (key.startsWith('@@')) {
        if (key === '@@locale' && value.kind === 'string' && value.value.replaceAll('_', '-').toLowerCase() !== ctx.language.toLowerCase()) {
          warnings.push(`the file's @@locale is ${value.value}; its values were imported as ${ctx.language}`);
        }
      } else if (key.startsWith('@')) {
        const description = descriptionOf(doc, key, value, dropped);
        if (description !== undefined) descriptions.set(key.slice(1), description);
      } else if (value.kind === 'string') {
        values.set(key, { value: value.value, offset: member.offset });
      } else {
        throw new FormatError(['body', key], `expected a string, found ${jsonKind(value)} (line ${doc.line(value.offset)})`);
      }
    }
    const entries: Entry[] = [];
    for (const [key, { value }] of values) entries.push(makeEntry(key, value, ['body', key], descriptions.get(key)));
    const orphans = [...descriptions.keys()].filter((key) => !values.has(key));
    if (orphans.length) warnings.push(`metadata without a message was ignored: @${listed(orphans)}`);
    const droppedNames = [...dropped].filter((key) => values.has(key));
    if (droppedNames.length) {
      warnings.push(`metadata other than description (placeholders, type, context) is not stored and will not be exported, for ${listed(droppedNames)}`);
    }
    return { entries, warnings };
  },
  serialize(entries, ctx) {
    const out = new Map<string, JsonOut>([['@@locale', ctx.language.replaceAll('-', '_')]]);
    for (const entry of sortedEntries(entries)) {
      if (entry.key.startsWith('@')) throw new FormatError(['body', entry.key], "an ARB key cannot start with '@' (that marks metadata)");
      out.set(entry.key, entry.value);
      if (entry.description != null) out.set(`@${entry.key}`, new Map([['description', entry.description]]));
    }
    return encodeText(jsonText(out));
  },
};
