// What an uploaded image is, read from its own bytes: the format (PNG, JPEG or WebP) and its size in
// pixels. The Content-Type a client sends is not trusted (curl sends application/x-www-form-urlencoded
// with --data-binary); what is stored and served is what the bytes are. Nothing else is taken: an
// SVG is a document that runs scripts where it is opened, a GIF or HEIC is no screenshot format of
// the tools that take them (browsers, Playwright, simulators, phones' share sheets give PNG or JPEG).
import type { ScreenshotType } from './schemas.ts';

export type ImageInfo = { contentType: ScreenshotType; width: number; height: number };

/** Why the bytes are not an image this service takes, for the 422's message; or the image's facts. */
export type ImageReading = { ok: true; info: ImageInfo } | { ok: false; reason: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function readImageInfo(bytes: Uint8Array): ImageReading {
  if (bytes.length === 0) return { ok: false, reason: 'the body is empty: send the image file itself' };
  if (startsWith(bytes, PNG_SIGNATURE)) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes);
  return { ok: false, reason: 'the body is not a PNG, JPEG or WebP image (the format is read from the file, not from Content-Type)' };
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const startsWith = (b: Uint8Array, prefix: number[]) => prefix.every((x, i) => b[i] === x);
const ascii = (b: Uint8Array, at: number, n: number) => (b.length < at + n ? '' : String.fromCharCode(...b.subarray(at, at + n)));
const found = (contentType: ScreenshotType, width: number, height: number): ImageReading =>
  width > 0 && height > 0 ? { ok: true, info: { contentType, width, height } } : { ok: false, reason: `the ${contentType.slice(6).toUpperCase()} image has no pixels (${width} x ${height})` };

/**
 * PNG: the header chunk (IHDR) first, then chunks, each its length, type, data and CRC, up to the
 * end chunk (IEND): a file whose chunks run past its end was cut short. Bytes after IEND are allowed,
 * as browsers allow them (some tools append metadata there).
 */
function png(b: Uint8Array): ImageReading {
  if (b.length < 8 + 25 || ascii(b, 12, 4) !== 'IHDR') return { ok: false, reason: 'the PNG file is cut short or damaged (no IHDR header)' };
  const d = view(b);
  for (let at = 8; ; ) {
    if (at + 12 > b.length) return { ok: false, reason: 'the PNG file is cut short (it does not end with IEND)' };
    const length = d.getUint32(at);
    if (ascii(b, at + 4, 4) === 'IEND') break;
    at += 12 + length;
  }
  return found('image/png', d.getUint32(16), d.getUint32(20));
}

/**
 * JPEG: segments until a start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC, which share the
 * range), whose frame header holds the height and width. Markers padded with extra 0xFF bytes are
 * allowed, as the standard allows them.
 */
function jpeg(b: Uint8Array): ImageReading {
  // The end-of-image marker closes the file (zero padding after it allowed): a JPEG cut short in
  // transfer still has its frame header, and would show translators half a screen.
  let end = b.length;
  while (end > 2 && b[end - 1] === 0) end--;
  if (b[end - 2] !== 0xff || b[end - 1] !== 0xd9) return { ok: false, reason: 'the JPEG file is cut short (it does not end with its end-of-image marker)' };
  const d = view(b);
  let at = 2;
  let turned = false;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame
    const length = d.getUint16(at + 2);
    if (length < 2) break;
    if (marker === 0xe1 && turned === false) turned = exifTurnsSideways(b.subarray(at + 4, Math.min(b.length, at + 2 + length)));
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > b.length) break;
      const width = d.getUint16(at + 7);
      const height = d.getUint16(at + 5);
      // Shown as browsers show it: turned by its Exif orientation, so regions match what people see.
      return turned ? found('image/jpeg', height, width) : found('image/jpeg', width, height);
    }
    at += 2 + length;
  }
  return { ok: false, reason: 'the JPEG file is cut short or damaged (no frame header before its image data)' };
}

/**
 * Whether a JPEG's Exif block (APP1: "Exif\0\0", then a TIFF header, II or MM) turns the image a
 * quarter (orientations 5 to 8 of IFD0's Orientation tag, 0x0112): browsers draw such an image with
 * its width and height swapped (CSS image-orientation: from-image, their default). Phones' camera
 * JPEGs carry it; a malformed block is read as no turn.
 */
function exifTurnsSideways(app1: Uint8Array): boolean {
  if (app1.length < 14 || ascii(app1, 0, 6) !== 'Exif\0\0') return false;
  const tiff = app1.subarray(6);
  const d = view(tiff);
  const little = ascii(tiff, 0, 2) === 'II';
  if (!little && ascii(tiff, 0, 2) !== 'MM') return false;
  const ifd = d.getUint32(4, little);
  if (ifd + 2 > tiff.length) return false;
  const entries = d.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return false;
    if (d.getUint16(entry, little) === 0x0112) {
      const orientation = d.getUint16(entry + 8, little);
      return orientation >= 5 && orientation <= 8;
    }
  }
  return false;
}

/**
 * WebP: a RIFF file whose declared size is the file's (or it was cut short), then one of the three
 * bitstreams' headers: VP8 (lossy), VP8L (lossless) or VP8X (extended: alpha, animation, ICC).
 */
function webp(b: Uint8Array): ImageReading {
  const d = view(b);
  if (b.length < 30) return { ok: false, reason: 'the WebP file is cut short' };
  const declared = d.getUint32(4, true) + 8;
  if (declared > b.length) return { ok: false, reason: 'the WebP file is cut short (shorter than its RIFF header says)' };
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // The key frame's start code, then 14-bit width and height (the top 2 bits are scaling).
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return { ok: false, reason: 'the WebP file is damaged (no VP8 key frame)' };
    return found('image/webp', d.getUint16(26, true) & 0x3fff, d.getUint16(28, true) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return { ok: false, reason: 'the WebP file is damaged (no VP8L signature)' };
    const bits = d.getUint32(21, true);
    return found('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    const width = 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16));
    const height = 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16));
    return found('image/webp', width, height);
  }
  return { ok: false, reason: 'the WebP file is damaged (no VP8, VP8L or VP8X header)' };
}
