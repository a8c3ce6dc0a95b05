// A real PNG of a phone's screen size, made here so that the bench needs no image file: 1170 x 2532
// (an iPhone's screenshot), RGB, bands of colour with some noise so that it compresses the way a
// screenshot of an app does (about half a megabyte, as theirs are). Encoded as the format says:
// signature, IHDR, one IDAT of deflated scanlines (filter 0), IEND, each chunk with its CRC-32.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function screenshotPng(width = 1170, height = 2532): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, filter 0, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let seed = 42;
  for (let y = 0; y < height; y++) {
    const band = Math.floor(y / 120) % 4;
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      // Text-like noise in a quarter of the pixels, flat colour elsewhere.
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const ink = seed % 4 === 0 ? seed & 0x7f : 0;
      rows[at] = 240 - band * 30 - ink;
      rows[at + 1] = 244 - band * 20 - ink;
      rows[at + 2] = 248 - band * 10 - ink;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', new Uint8Array(0))]);
}
