// Compression happens once, at build time: each file is stored as identity, gzip and brotli, and
// servers pick the stored variant the client accepts. Brotli at quality 5 compresses JSON within a
// few percent of quality 11 at many times the speed, which keeps 100,000-key builds fast.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { Encoding, FileEntry } from './layout.ts';

/**
 * Brotli's window: 256 KiB instead of its default 4 MiB. Only files larger than that see a
 * difference, and for them (a 100,000-key language is 5.5 MB) the smaller window compressed 4%
 * smaller and 25% faster at quality 5, and two compressions side by side peaked 35-60 MiB lower
 * (the encoder's ring buffer is the window's size): JSON of translations repeats itself within a
 * group's keys, not megabytes apart. A client decodes with a 256 KiB buffer instead of 4 MiB.
 * Measured on the benchmark's 100,000 x 10 build.
 */
export const BROTLI_WINDOW_BITS = 18;

/**
 * gzip's level: 5, not zlib's default 6. On JSON of translations the two come out the same size
 * (within 0.1% on three corpora of 6-9 MB) and level 5 takes 25-58% less time: level 6 searches
 * longer chains for matches that this text does not have.
 */
export const GZIP_LEVEL = 5;

/**
 * Bodies up to this size are compressed on the calling thread. Each trip through libuv's pool costs
 * a stream object, an encoder set up and callbacks on the main thread either way: for an 11 KB group
 * file that overhead was half the CPU of its compressions (gzip and brotli: 420-500 us of CPU async,
 * 190-250 us here), and the main thread spent about as long on the async path's bookkeeping (140-160
 * us) as it spends compressing here. Larger bodies block too long to stay on the main thread (a 60 KB
 * body: 1.4 ms), and a language file far longer.
 */
export const SYNC_COMPRESSION_MAX_BYTES = 16 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type EncodedFile = { entry: FileEntry; variants: Record<Encoding, Uint8Array> };

const SUFFIX: Record<Encoding, string> = { identity: '', gzip: '-gz', br: '-br' };

/** A strong validator's opaque part: 160 bits of the content's SHA-256, base64url. */
export const contentHash = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('base64url').slice(0, 27);

/** A file's three stored variants; a body given as bytes is stored as it is, not copied. */
export async function encodeVariants(json: string | Uint8Array): Promise<EncodedFile> {
  const identity = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  const gzipOptions: ZlibOptions = { level: GZIP_LEVEL };
  const brotliOptions: BrotliOptions = {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
    },
  };
  const [gz, br] =
    identity.length <= SYNC_COMPRESSION_MAX_BYTES
      ? [gzipSync(identity, gzipOptions), brotliCompressSync(identity, brotliOptions)]
      : await Promise.all([gzipAsync(identity, gzipOptions), brotliAsync(identity, brotliOptions)]);
  // One strong validator per representation (RFC 9110 8.8.1): the content hash, suffixed per coding.
  const hash = contentHash(identity);
  const etags = {
    identity: `"${hash}${SUFFIX.identity}"`,
    gzip: `"${hash}${SUFFIX.gzip}"`,
    br: `"${hash}${SUFFIX.br}"`,
  };
  return {
    entry: { etag: etags.identity, etags, bytes: identity.length },
    variants: { identity, gzip: gz, br },
  };
}
