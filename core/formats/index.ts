// The file formats import and export speak. Each codec is pure (bytes in, entries out and back);
// docs/formats.md has the mapping rules of each.
import type { FormatCodec, FormatId } from './types.ts';
import { jsonCodec } from './codecs/json.ts';
import { jsonNestedCodec } from './codecs/json-nested.ts';
import { i18nextCodec } from './codecs/i18next.ts';
import { xliffCodec } from './codecs/xliff.ts';
import { xliff2Codec } from './codecs/xliff2.ts';
import { poCodec } from './codecs/po.ts';
import { androidCodec } from './codecs/android.ts';
import { iosStringsCodec } from './codecs/ios-strings.ts';
import { iosStringsdictCodec } from './codecs/ios-stringsdict.ts';
import { arbCodec } from './codecs/arb.ts';
import { yamlCodec } from './codecs/yaml.ts';
import { csvCodec } from './codecs/csv.ts';
import { propertiesCodec } from './codecs/properties.ts';
import { resxCodec } from './codecs/resx.ts';
import { xlsxCodec } from './codecs/xlsx.ts';
import { xcstringsCodec } from './codecs/xcstrings.ts';

export { FormatError } from './format-error.ts';
export type { Entry, FormatCodec, FormatId, ParseContext, ParsedFile, SerializeContext } from './types.ts';

export const FORMATS: Record<FormatId, FormatCodec> = {
  json: jsonCodec,
  'json-nested': jsonNestedCodec,
  i18next: i18nextCodec,
  xliff: xliffCodec,
  xliff2: xliff2Codec,
  po: poCodec,
  android: androidCodec,
  'ios-strings': iosStringsCodec,
  'ios-stringsdict': iosStringsdictCodec,
  arb: arbCodec,
  yaml: yamlCodec,
  csv: csvCodec,
  properties: propertiesCodec,
  resx: resxCodec,
  xlsx: xlsxCodec,
  xcstrings: xcstringsCodec,
};

export const isFormatId = (s: string): s is FormatId => Object.hasOwn(FORMATS, s);
