// The keys a translation file names, read on this machine (`tms push --remove-unused` must know
// which keys the source files still have). Each reader is small and lenient: the server validates
// every file when it is pushed, so these only need the key names, read as the server reads them
// (test/cli/file-keys.test.ts checks them against the server's codecs). A key the server skips
// (a fuzzy PO message, a translatable="false" Android string) still counts as in the file.
import { arbKeys, i18nextKeys, jsonKeys, jsonNestedKeys } from './json.ts';
import { csvKeys } from './csv.ts';
import { poKeys } from './po.ts';
import { stringsKeys } from './strings.ts';
import { androidKeys, stringsdictKeys, xliff2Keys, xliffKeys } from './xml.ts';
import { yamlKeys } from './yaml.ts';
import { propertiesKeys } from './properties.ts';
import { resxKeys } from './resx.ts';
import { xlsxKeys } from './xlsx.ts';
import { readCatalog } from '../xcstrings-catalog.ts';

/** A key the file names, with its group where the format carries one (csv, xlsx). */
export type FileKey = { key: string; group?: string };

const named = (keys: string[]): FileKey[] => keys.map((key) => ({ key }));

export async function keysOf(format: string, body: Uint8Array, language: string): Promise<FileKey[]> {
  switch (format) {
    case 'json':
      return named(jsonKeys(body));
    case 'json-nested':
      return named(jsonNestedKeys(body));
    case 'i18next':
      return named(i18nextKeys(body));
    case 'arb':
      return named(arbKeys(body));
    case 'xliff':
      return named(xliffKeys(body));
    case 'xliff2':
      return named(xliff2Keys(body));
    case 'po':
      // msgids are texts: the server puts new ones in the Default group, not the text's first sentence.
      return poKeys(body).map((key) => ({ key, group: 'Default' }));
    case 'android':
      return named(androidKeys(body));
    case 'ios-strings':
      return named(stringsKeys(body));
    case 'ios-stringsdict':
      return named(stringsdictKeys(body));
    case 'yaml':
      return named(await yamlKeys(body, language));
    case 'csv':
      return csvKeys(body);
    case 'properties':
      return named(propertiesKeys(body));
    case 'resx':
      return named(resxKeys(body));
    case 'xlsx':
      return xlsxKeys(body);
    case 'xcstrings':
      // Keys are mostly source texts (Xcode's `Text("Hello")`): the server puts new ones in Default.
      return Object.keys(readCatalog(body).strings).map((key) => ({ key, group: 'Default' }));
    default:
      throw new Error(`unknown format ${format}`);
  }
}
