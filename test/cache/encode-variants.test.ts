// The stored variants of a cache file: identity, gzip and brotli, each decoding to the same bytes,
// with one strong ETag per representation; brotli with a 256 KiB window, which a 5.5 MB language
// file compresses smaller and faster with than brotli's default 4 MiB (core/cache/encode-variants.ts),
// and which a client decodes with a sixteenth of the buffer.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BROTLI_WINDOW_BITS, SYNC_COMPRESSION_MAX_BYTES, contentHash, encodeVariants } from '../../core/cache/encode-variants.ts';

/** The window a brotli stream declares in its first bits (RFC 7932, section 9.1). */
function brotliWindowBits(stream: Uint8Array): number {
  let bits = stream[0]! | (stream[1]! << 8);
  const take = (n: number) => {
    const value = bits & ((1 << n) - 1);
    bits >>= n;
    return value;
  };
  if (take(1) === 0) return 16;
  const n = take(3);
  if (n !== 0) return 17 + n;
  const m = take(3);
  if (m === 1) throw new Error('large-window brotli');
  return m === 0 ? 17 : 8 + m;
}

/** A language file of `keys` keys, in the shape the builder writes. */
function languageJson(keys: number): string {
  const translations: Record<string, string> = {};
  for (let i = 0; i < keys; i++) translations[`group${i % 50}.key${String(i).padStart(6, '0')}`] = `Übersetzung Nummer ${i}: ${'Konto Einstellungen speichern '.slice(0, 10 + (i % 20))}`;
  return JSON.stringify({ project_id: 'p', language: 'de', status_filter: 'approved', count: keys, translations });
}

describe('encodeVariants', () => {
  it('stores identity, gzip and brotli of the same bytes, with one ETag per representation', async () => {
    const json = languageJson(20_000);
    expect(Buffer.byteLength(json)).toBeGreaterThan(4 * (1 << BROTLI_WINDOW_BITS)); // larger than the window
    const { entry, variants } = await encodeVariants(json);
    expect(Buffer.from(variants.identity).toString('utf8')).toBe(json);
    expect(gunzipSync(variants.gzip).toString('utf8')).toBe(json);
    expect(brotliDecompressSync(variants.br).toString('utf8')).toBe(json);
    const hash = contentHash(json);
    expect(entry).toEqual({ etag: `"${hash}"`, etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` }, bytes: Buffer.byteLength(json) });
    expect(variants.br.length).toBeLessThan(variants.gzip.length);
  });

  it('declares a 256 KiB brotli window, and small files compress as before', async () => {
    const large = await encodeVariants(languageJson(20_000));
    expect(BROTLI_WINDOW_BITS).toBe(18);
    expect(brotliWindowBits(large.variants.br)).toBe(18);
    const small = await encodeVariants(languageJson(20));
    expect(brotliDecompressSync(small.variants.br).toString('utf8')).toBe(languageJson(20));
  });

  it('bodies at, under and over the size compressed on the calling thread decode the same; bytes are stored as given', async () => {
    const text = languageJson(2_000);
    for (const size of [0, 1, SYNC_COMPRESSION_MAX_BYTES - 1, SYNC_COMPRESSION_MAX_BYTES, SYNC_COMPRESSION_MAX_BYTES + 1, 4 * SYNC_COMPRESSION_MAX_BYTES]) {
      const bytes = Buffer.from(text).subarray(0, size);
      expect(bytes.length).toBe(size);
      const { entry, variants } = await encodeVariants(bytes);
      expect(variants.identity).toBe(bytes);
      expect(gunzipSync(variants.gzip).equals(bytes), `gzip of ${size} B`).toBe(true);
      expect(brotliDecompressSync(variants.br).equals(bytes), `brotli of ${size} B`).toBe(true);
      expect(entry.bytes).toBe(size);
      expect(entry.etag).toBe(`"${contentHash(bytes)}"`);
    }
  });
});
