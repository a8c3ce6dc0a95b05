// The shape every file-format codec has. Codecs are pure: bytes in, entries out and back, with no
// database or HTTP; core/files wires them to import and export.

export type FormatId =
  | 'json'
  | 'json-nested'
  | 'i18next'
  | 'xliff'
  | 'xliff2'
  | 'po'
  | 'android'
  | 'ios-strings'
  | 'ios-stringsdict'
  | 'arb'
  | 'yaml'
  | 'csv'
  | 'properties'
  | 'resx'
  | 'xlsx'
  | 'xcstrings';

export type Entry = {
  /** The full key name. */
  key: string;
  /** The stored value; a plural is one ICU MessageFormat string. */
  value: string;
  /** The comment or note the format carries (ARB @key.description, PO extracted comment, XLIFF note, Android/iOS comment, String Catalog comment, CSV and xlsx columns). */
  description?: string | null;
  /** Only formats that carry it (csv, xlsx); otherwise the importer derives it. */
  group?: string;
  /** Exports only: the key's character limit (null: none); XLIFF 1.2 writes it as maxwidth. */
  maxLength?: number | null;
};

/** `isSource`: the file is imported into the project's source language (gettext: msgid is its text). */
export type ParseContext = { language: string; isSource?: boolean };

export type SerializeContext = {
  language: string;
  /**
   * Source language values by key (xliff and xliff2 need them; required there; csv and xlsx write
   * them in a column beside the value when given), and the source entries themselves (their group
   * and description, for the keys the exported language has no value of).
   */
  source?: { language: string; values: ReadonlyMap<string, string>; entries?: readonly Entry[] };
  /** Keys' character limits (key -> max_length), for formats that carry them (XLIFF 1.2's maxwidth). */
  limits?: ReadonlyMap<string, number>;
  /**
   * The language whose plural rules the file's plurals follow, when not `language`'s: a
   * pseudo-language's file (`qps-ploc`, which no plural table knows) follows its source's.
   */
  plurals?: string;
  /** The project's source language, for a format that names it (a String Catalog's sourceLanguage): set when the codec has `namesSourceLanguage`. */
  sourceLanguage?: string;
};

export type ParsedFile = { entries: Entry[]; warnings: string[] };

export type FormatCodec = {
  id: FormatId;
  extension: string;
  contentType: string;
  /** Export needs a source language (xliff, xliff2). */
  needsSource: boolean;
  /** Export writes the source language's text beside the value when one is given (csv, xlsx). */
  takesSource?: boolean;
  /** The file names the project's source language (a String Catalog's sourceLanguage): export passes it as `sourceLanguage`. */
  namesSourceLanguage?: boolean;
  /**
   * Keys are source texts (gettext's msgid), not dotted identifiers: "File not found. Try again." is
   * no key of a group "File not found", so created keys go to the import's `group`.
   */
  keysAreText?: boolean;
  /**
   * Plurals are read back over the argument `count` whatever the stored value named it: the format
   * names none (gettext's and Android's `%d`) or calls it so (i18next, Rails). An import writes
   * such a plural over the stored value's own argument (core/files/import-file.ts).
   */
  pluralsOverCount?: boolean;
  /** Throws FormatError on any bad input. */
  parse(body: Uint8Array, ctx: ParseContext): ParsedFile;
  /** Deterministic: the same entries give the same bytes. Throws FormatError for what the format cannot carry. */
  serialize(entries: readonly Entry[], ctx: SerializeContext): Uint8Array;
};
