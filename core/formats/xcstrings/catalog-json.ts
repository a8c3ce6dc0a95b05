// Apple String Catalog (.xcstrings) JSON as Xcode writes it, so that a file tms (or `tms pull`)
// writes over an Xcode-made catalog changes only what changed. Self-contained on purpose: no
// imports, so the CLI can import this module by path (or copy it) to merge catalogs.
//
// Xcode's layout, checked against catalogs Xcode 15 to 26 wrote (docs: .scratch/decisions-xcstrings.md):
// - `"key" : value`, a space on each side of the colon; two spaces of indentation per level;
// - an empty object is `{`, an empty line, then `}` at the object's own indentation;
// - no newline after the final `}`;
// - `/` and every non-ASCII character written as they are; `"` `\` and control characters escaped;
// - the members of every object sorted as Foundation's `localizedStandardCompare` sorts them
//   (Finder's order): ignoring case, digits compared as numbers (`Key2` before `Key10`),
//   punctuation before symbols before digits before letters (`%@` < `©` < `$x` < `360` < `a`),
//   accents after the plain letter. `zh-Hant` comes before `zh-HK` and `baidu.com` between `Baidu`
//   and `Before`, which no code-unit order gives.

/** A JSON value as a catalog holds it. */
export type CatalogValue = string | number | boolean | null | CatalogValue[] | CatalogObject;
export type CatalogObject = { [name: string]: CatalogValue };

/** A String Catalog: `sourceLanguage`, `strings` (key -> entry) and `version`, plus anything a later Xcode adds. */
export type Catalog = CatalogObject & { sourceLanguage: string; strings: CatalogObject; version: string };

/** A file that is no catalog: not UTF-8, not JSON, or not a catalog's shape. */
export class CatalogError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogError';
  }
}

// Case, width and (through the tie-breaks below) nothing else ignored; numbers compared by value.
// 'en' rather than the host's locale: the order must not depend on the machine. Xcode sorts in
// its user's locale, which for Latin-script keys is this order in nearly every locale.
const primaryAndAccents = new Intl.Collator('en', { numeric: true, sensitivity: 'accent', usage: 'sort' });
const everything = new Intl.Collator('en', { numeric: true, sensitivity: 'variant', usage: 'sort' });

/**
 * Xcode's order of an object's members (localizedStandardCompare), made total: names that compare
 * equal ignoring case and width (`OK`, `Ok`) are ordered by the collator's case level, then by
 * UTF-16 code units, so the same names always give the same bytes.
 */
export function compareCatalogKeys(a: string, b: string): number {
  return primaryAndAccents.compare(a, b) || everything.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

function quote(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(chunk, i);
    chunk = i + 1;
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}${s.slice(chunk)}"`;
}

// The text is built by appending to one string (V8 keeps it as a rope until it is read), not by
// joining an array of pieces: an array of 10,000 keys' pieces took half of an export's time in its
// join and the garbage collector (2026-12-02).
function write(value: CatalogValue, indent: string, out: string): string {
  if (value === null) return out + 'null';
  if (typeof value === 'string') return out + quote(value);
  if (typeof value === 'boolean') return out + (value ? 'true' : 'false');
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CatalogError(`a catalog cannot hold the number ${value}`);
    return out + String(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${out}[\n\n${indent}]`;
    out += '[\n';
    for (let i = 0; i < value.length; i++) out = write(value[i]!, inner, out + inner) + (i + 1 < value.length ? ',\n' : '\n');
    return `${out}${indent}]`;
  }
  if (typeof value !== 'object') throw new CatalogError(`a catalog cannot hold a ${typeof value}`);
  const names = Object.keys(value).filter((name) => value[name] !== undefined);
  if (names.length === 0) return `${out}{\n\n${indent}}`;
  names.sort(compareCatalogKeys);
  out += '{\n';
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    out = write(value[name] as CatalogValue, inner, `${out}${inner}${quote(name)} : `) + (i + 1 < names.length ? ',\n' : '\n');
  }
  return `${out}${indent}}`;
}

/** A catalog (or any JSON value) as the text Xcode writes for it. */
export function catalogText(catalog: CatalogValue): string {
  return write(catalog, '', '');
}

/** A catalog as the bytes Xcode writes for it: UTF-8, no byte order mark, no final newline. */
export function writeCatalog(catalog: CatalogValue): Uint8Array {
  return new TextEncoder().encode(catalogText(catalog));
}

const isObject = (v: unknown): v is CatalogObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A catalog from its bytes (or text): UTF-8 JSON whose top level is an object with a string
 * `sourceLanguage`, an object `strings` and (if any) a string `version`. Throws CatalogError.
 * Member order is not kept (writeCatalog sorts); a name given twice keeps its last value, as
 * JSON.parse does; the server's importer refuses such a file instead.
 */
export function readCatalog(body: Uint8Array | string): Catalog {
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch (error) {
      throw new CatalogError('the catalog is not valid UTF-8', { cause: error });
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CatalogError(`the catalog is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!isObject(parsed)) throw new CatalogError('a catalog is a JSON object at the top level');
  if (typeof parsed.sourceLanguage !== 'string') throw new CatalogError('the catalog has no "sourceLanguage" string');
  if (!isObject(parsed.strings)) throw new CatalogError('the catalog\'s "strings" is not an object');
  if (parsed.version !== undefined && typeof parsed.version !== 'string') throw new CatalogError('the catalog\'s "version" is not a string');
  return parsed as Catalog;
}
