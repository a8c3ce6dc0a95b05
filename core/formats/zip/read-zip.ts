// The entries of a ZIP archive (an .xlsx workbook is one), and the bytes of the few a reader asks
// for. The archives come from strangers, so nothing in them is taken on trust:
// - the central directory is read within the file's bounds (a count, size or offset pointing
//   outside it refuses the file), and a name given twice, in any letter case (OPC part names are
//   case-insensitive), refuses it rather than let two readers see two different parts;
// - only the entries asked for are unpacked, each against a byte budget checked with the size its
//   header declares before anything is allocated, then inflated a few KiB of input at a time into
//   a buffer of exactly that size. A header that understates the size (a zip bomb's trick) is
//   caught at the first step past it, a few MiB of work later at most (deflate expands at most
//   1032:1). fflate's unzipSync, by contrast, inflates into a buffer of the declared size but
//   decodes the whole stream past its end: an entry of 1 MiB declared as 100 bytes took 3.5 s;
// - an unpacked entry must have exactly its declared size and CRC-32.
// Encrypted entries and compression methods other than stored and deflate are refused. ZIP64
// records are read.
import { Inflate } from 'fflate';
import { FormatError } from '../format-error.ts';
import { crc32 } from './crc32.ts';

export type ZipEntry = { name: string; flags: number; method: number; crc: number; packedSize: number; size: number; headerAt: number };
/** What may still be unpacked, in bytes; each entry unpacked takes its size from it. */
export type UnzipBudget = { left: number; readonly total: number };

const END = 0x06054b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** A 32-bit size or offset of this value is in the entry's ZIP64 extra field. */
const IN_ZIP64 = 0xffffffff;
/** Compressed bytes fed to the inflater at a time: one step past a declared size costs at most ~4 MiB. */
const STEP = 4096;
const DAMAGED = 'the ZIP archive is damaged or cut short';
const NAMES = new TextDecoder('utf-8');

const refuse = (msg: string): never => {
  throw new FormatError(['body'], msg);
};

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Little-endian reads that refuse the file instead of reading past its end. */
function reader(body: Uint8Array) {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const inside = (at: number, n: number) => Number.isSafeInteger(at) && at >= 0 && at + n <= body.length;
  const u16 = (at: number) => (inside(at, 2) ? view.getUint16(at, true) : refuse(DAMAGED));
  const u32 = (at: number) => (inside(at, 4) ? view.getUint32(at, true) : refuse(DAMAGED));
  const u64 = (at: number) => {
    const n = u32(at + 4) * 2 ** 32 + u32(at);
    return Number.isSafeInteger(n) ? n : refuse(DAMAGED);
  };
  return { u16, u32, u64 };
}

/** The archive's entries by name in lower case, a backslash read as a slash (as .NET Framework once wrote them). */
export function zipEntries(body: Uint8Array): Map<string, ZipEntry> {
  const { u16, u32, u64 } = reader(body);
  // The end record is within the last 22 + 65,535 bytes (its comment is at most 65,535 bytes).
  let end = -1;
  for (let at = body.length - 22; at >= 0 && at >= body.length - 22 - 0xffff && end === -1; at--) if (u32(at) === END) end = at;
  if (end === -1) refuse(`${DAMAGED} (its central directory is missing)`);
  let count = u16(end + 10);
  let size = u32(end + 12);
  let start = u32(end + 16);
  if (count === 0xffff || size === IN_ZIP64 || start === IN_ZIP64) {
    if (u32(end - 20) !== ZIP64_LOCATOR) refuse(DAMAGED);
    const zip64End = u64(end - 12);
    if (u32(zip64End) !== ZIP64_END) refuse(DAMAGED);
    count = u64(zip64End + 32);
    size = u64(zip64End + 40);
    start = u64(zip64End + 48);
  }
  // Every directory record takes at least 46 bytes.
  if (start + size > body.length || count * 46 > size) refuse(DAMAGED);
  const entries = new Map<string, ZipEntry>();
  for (let at = start, i = 0; i < count; i++) {
    if (u32(at) !== CENTRAL) refuse(DAMAGED);
    const nameLength = u16(at + 28);
    const extraAt = at + 46 + nameLength;
    const extraLength = u16(at + 30);
    const next = extraAt + extraLength + u16(at + 32);
    if (next > start + size) refuse(DAMAGED);
    const name = NAMES.decode(body.subarray(at + 46, extraAt)).replaceAll('\\', '/');
    let size32 = u32(at + 24);
    let packed32 = u32(at + 20);
    let header32 = u32(at + 42);
    if (size32 === IN_ZIP64 || packed32 === IN_ZIP64 || header32 === IN_ZIP64) {
      // The ZIP64 extra field (id 1) holds, in this order, each value whose 32-bit field is full.
      let field = extraAt;
      while (field + 4 <= extraAt + extraLength && u16(field) !== 1) field += 4 + u16(field + 2);
      if (field + 4 > extraAt + extraLength) refuse(DAMAGED);
      let value = field + 4;
      const wide = () => {
        const n = u64(value);
        value += 8;
        return n;
      };
      if (size32 === IN_ZIP64) size32 = wide();
      if (packed32 === IN_ZIP64) packed32 = wide();
      if (header32 === IN_ZIP64) header32 = wide();
    }
    const key = name.toLowerCase();
    if (entries.has(key)) refuse(`the ZIP archive holds ${name} twice`);
    entries.set(key, { name, flags: u16(at + 8), method: u16(at + 10), crc: u32(at + 16), packedSize: packed32, size: size32, headerAt: header32 });
    at = next;
  }
  return entries;
}

/**
 * Most times an entry may unpack to its packed size, past INFLATE_GRACE bytes: Apache POI's defaults
 * (its minimum inflate ratio 0.01, its grace entry size 100 KiB). A real workbook's parts unpack 11
 * to 19 times (50,000 keys); a 37 KB upload of 16,384 empty cells a row unpacked 900 times, to the
 * 32 MiB budget, and took 8 to 17 s to read (found by review).
 */
const INFLATE_RATIO_MAX = 100;
const INFLATE_GRACE = 100 * 1024;

/** Whether an entry of `size` bytes packed into `packedSize` unpacks further than a reader takes. */
export const unpacksTooFar = (size: number, packedSize: number) => size > INFLATE_GRACE && size > packedSize * INFLATE_RATIO_MAX;

/** An entry's bytes. Its declared size must fit what is left of `budget`, and is taken from it. */
export function unzip(body: Uint8Array, entry: ZipEntry, budget: UnzipBudget): Uint8Array {
  const { name } = entry;
  if (entry.flags & 1) refuse(`${name} is encrypted`);
  if (entry.size > budget.left) refuse(`${name} unpacks to ${mib(entry.size)}: an import unpacks at most ${mib(budget.total)} of a workbook`);
  if (unpacksTooFar(entry.size, entry.packedSize)) {
    refuse(`${name} unpacks to ${Math.round(entry.size / Math.max(1, entry.packedSize))} times its packed size; a workbook's parts unpack at most ${INFLATE_RATIO_MAX} times (a zip bomb?)`);
  }
  const { u16, u32 } = reader(body);
  if (u32(entry.headerAt) !== LOCAL) refuse(DAMAGED);
  const dataAt = entry.headerAt + 30 + u16(entry.headerAt + 26) + u16(entry.headerAt + 28);
  if (dataAt + entry.packedSize > body.length) refuse(`${name} is cut short`);
  const packed = body.subarray(dataAt, dataAt + entry.packedSize);
  budget.left -= entry.size;
  let bytes: Uint8Array;
  if (entry.method === 0) bytes = packed.length === entry.size ? packed : refuse(`${name} is not the size its header declares`);
  else if (entry.method === 8) bytes = inflate(packed, entry);
  else return refuse(`${name} is compressed with method ${entry.method}; only stored and deflated entries are read`);
  if (crc32(bytes) !== entry.crc) refuse(`${name} is damaged (its checksum does not match)`);
  return bytes;
}

function inflate(packed: Uint8Array, entry: ZipEntry): Uint8Array {
  const out = new Uint8Array(entry.size);
  let length = 0;
  const inflater = new Inflate((chunk) => {
    if (chunk.length > out.length - length) refuse(`${entry.name} unpacks to more than the ${entry.size} bytes its header declares`);
    out.set(chunk, length);
    length += chunk.length;
  });
  try {
    let at = 0;
    do {
      inflater.push(packed.subarray(at, at + STEP), at + STEP >= packed.length);
      at += STEP;
    } while (at < packed.length);
  } catch (error) {
    if (error instanceof FormatError) throw error;
    refuse(`${entry.name} is damaged (its compressed data cannot be read)`);
  }
  if (length !== out.length) refuse(`${entry.name} unpacks to fewer bytes than its header declares`);
  return out;
}
