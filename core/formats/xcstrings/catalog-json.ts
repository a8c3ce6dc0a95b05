// Apple String Catalog (.xcstrings) JSON as Xcode writes it, so that a file tms (or `tms pull`)
// writes over an Xcode-made catalog changes only what changed. Self-contained on purpose: no
// imports, so the CLI can import this module by path (or copy it) to merge catalogs.
//
// Xcode's layout, checked against catalogs Xcode 15 to 26 wrote (docs/decisions.md, "Apple String Catalogs"):
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

// The names of an object, in catalog order. A catalog's objects are mostly of a few shapes
// (`stringUnit`, `state` + `value`, one language's code): their orders are kept, so that the
// collator compares a shape's names once rather than for every entry (10,000 keys' entries took
// 50,000 sorts, 2026-12-03).
const ORDERS = new Map<string, string[]>();
const ORDERS_KEPT = 512;

function orderedNames(value: CatalogObject): string[] {
  const names = Object.keys(value);
  if (names.length > 1 && names.length <= 8) {
    const shape = names.join('\u0000');
    const kept = ORDERS.get(shape);
    // Two shapes join to the same text only when a name holds U+0000: a kept order is used only
    // when it names exactly this object's names.
    if (kept !== undefined && kept.length === names.length && kept.every((name) => Object.hasOwn(value, name))) return withoutUndefined(value, kept);
    const sorted = [...names].sort(compareCatalogKeys);
    if (ORDERS.size < ORDERS_KEPT) ORDERS.set(shape, sorted);
    return withoutUndefined(value, sorted);
  }
  return withoutUndefined(value, names.length > 1 ? names.sort(compareCatalogKeys) : names);
}

const withoutUndefined = (value: CatalogObject, names: string[]) => (names.some((name) => value[name] === undefined) ? names.filter((name) => value[name] !== undefined) : names);

/**
 * Writes a catalog's UTF-8 bytes into one growing buffer. Neither a string built by appending (a
 * rope of 200,000 pieces, flattened and encoded at the end) nor an array of pieces joined: for a
 * catalog of 10,000 keys (2.7 MB) both spent more time in the garbage collector than in writing.
 * Node's Buffer writes a string's UTF-8 at an offset without allocating.
 */
class CatalogWriter {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private at = 0;

  /** Room for n more bytes. */
  private room(n: number): Buffer {
    if (this.at + n > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + n));
      this.buffer.copy(grown, 0, 0, this.at);
      this.buffer = grown;
    }
    return this.buffer;
  }

  /** ASCII that needs no escaping: the layout's punctuation and indentation, numbers, literals. */
  raw(ascii: string): void {
    const buffer = this.room(ascii.length);
    for (let i = 0; i < ascii.length; i++) buffer[this.at++] = ascii.charCodeAt(i);
  }

  /**
   * A JSON string: `"`, `\` and control characters escaped, everything else as it is. ASCII is
   * stored byte by byte (most of a catalog: a call into Buffer#write for each short name cost more
   * than the copy); each run of other characters is encoded by Buffer#write, which keeps a
   * surrogate pair whole (and, as TextEncoder does, writes a lone surrogate as U+FFFD).
   */
  quoted(s: string): void {
    // An escape is at most six bytes for one UTF-16 unit; UTF-8 at most three.
    const buffer = this.room(s.length * 6 + 2);
    let at = this.at;
    buffer[at++] = 0x22;
    for (let i = 0; i < s.length; ) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        let end = i + 1;
        while (end < s.length && s.charCodeAt(end) >= 0x80) end++;
        at += buffer.write(s.slice(i, end), at);
        i = end;
        continue;
      }
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) buffer[at++] = c;
      else {
        const escape = escaped(c);
        for (let k = 0; k < escape.length; k++) buffer[at++] = escape.charCodeAt(k);
      }
      i++;
    }
    buffer[at++] = 0x22;
    this.at = at;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }
}

function escaped(c: number): string {
  if (c === 0x22) return '\\"';
  if (c === 0x5c) return '\\\\';
  if (c === 0x0a) return '\\n';
  if (c === 0x0d) return '\\r';
  if (c === 0x09) return '\\t';
  if (c === 0x08) return '\\b';
  if (c === 0x0c) return '\\f';
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

function write(value: CatalogValue, indent: string, out: CatalogWriter): void {
  if (value === null) return out.raw('null');
  if (typeof value === 'string') return out.quoted(value);
  if (typeof value === 'boolean') return out.raw(value ? 'true' : 'false');
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CatalogError(`a catalog cannot hold the number ${value}`);
    return out.raw(String(value));
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return out.raw(`[\n\n${indent}]`);
    out.raw('[\n');
    for (let i = 0; i < value.length; i++) {
      out.raw(inner);
      write(value[i]!, inner, out);
      out.raw(i + 1 < value.length ? ',\n' : '\n');
    }
    return out.raw(`${indent}]`);
  }
  if (typeof value !== 'object') throw new CatalogError(`a catalog cannot hold a ${typeof value}`);
  const names = orderedNames(value);
  if (names.length === 0) return out.raw(`{\n\n${indent}}`);
  out.raw('{\n');
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    out.raw(inner);
    out.quoted(name);
    out.raw(' : ');
    write(value[name] as CatalogValue, inner, out);
    out.raw(i + 1 < names.length ? ',\n' : '\n');
  }
  out.raw(`${indent}}`);
}

/** A catalog as the bytes Xcode writes for it: UTF-8, no byte order mark, no final newline. */
export function writeCatalog(catalog: CatalogValue): Uint8Array {
  const out = new CatalogWriter();
  write(catalog, '', out);
  return out.bytes();
}

/** A catalog (or any JSON value) as the text Xcode writes for it. */
export function catalogText(catalog: CatalogValue): string {
  return new TextDecoder().decode(writeCatalog(catalog));
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
