// Screenshot files as `tms screenshots push` checks them before anything is sent: there, readable,
// within the server's size, and starting like a PNG, JPEG or WebP. Only the first bytes are judged;
// the server reads the whole image (a file cut short, a side over 16,384 pixels) and its 422 is
// shown naming the file. The CLI imports no server code, so the limits are repeated here.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT, usageError } from './errors.ts';

/** The largest image the server takes (core/screenshots/schemas.ts, SCREENSHOT_MAX_BYTES). */
export const IMAGE_MAX_BYTES = 4 * 1024 * 1024;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';
/** An image file, read: as the user wrote its path (for messages), its bytes and its format. */
export type ImageFile = { path: string; body: Buffer; type: ImageType };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (b: Uint8Array, at: number, n: number) => Buffer.from(b.subarray(at, at + n)).toString('latin1');

/** The format the server will read, from the file's first bytes (as core/screenshots/image-info.ts does). */
export function imageTypeOf(b: Uint8Array): ImageType | undefined {
  if (PNG.every((x, i) => b[i] === x)) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * What a file that is no screenshot is, when it is something people try (a logo's SVG, an animated
 * GIF, an iPhone's HEIC): the refusal then says what to convert from.
 */
function otherFormat(b: Uint8Array): string | undefined {
  // Read as Latin-1: a UTF-8 byte order mark is then these three characters.
  const head = ascii(b, 0, 256).replace(/^\xef\xbb\xbf/, '').trimStart();
  if (/^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>/]/i.test(head)) return 'an SVG (a document, not a screenshot)';
  if (ascii(b, 0, 4) === 'GIF8') return 'a GIF';
  if (ascii(b, 4, 4) === 'ftyp' && /^(heic|heix|hevc|mif1|msf1)$/.test(ascii(b, 8, 4))) return 'a HEIC image';
  if (ascii(b, 4, 4) === 'ftyp' && /^avi[fs]$/.test(ascii(b, 8, 4))) return 'an AVIF image';
  if (ascii(b, 0, 4) === '%PDF') return 'a PDF';
  if (ascii(b, 0, 2) === 'BM') return 'a BMP image';
  return undefined;
}

/** Why the file cannot be uploaded, or its bytes and format. A file the CLI cannot read is exit 1, as push's. */
async function readImage(cwd: string, path: string): Promise<ImageFile | string> {
  if (path === '' || path.includes('\0')) return `${JSON.stringify(path)} is no file name`;
  const target = resolve(cwd, path);
  const kind = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw new CliError(`cannot read ${path}: ${error.message}; nothing was uploaded`, EXIT.failed);
  });
  if (kind === null) return `${path} not found (paths are relative to the current folder)`;
  if (kind.isDirectory()) return `${path} is a folder: name the image files (shots/*.png)`;
  // Said here, not as the server's 413 after 4 MiB went over the wire.
  if (kind.size > IMAGE_MAX_BYTES) {
    return `${path} is ${(kind.size / 1024 / 1024).toFixed(1)} MiB (${kind.size.toLocaleString('en-US')} bytes); the server takes images up to 4 MiB (${IMAGE_MAX_BYTES.toLocaleString('en-US')} bytes): save it as JPEG or WebP, or smaller`;
  }
  if (kind.size === 0) return `${path} is empty`;
  const body = await readFile(target).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${path}: ${error.message}; nothing was uploaded`, EXIT.failed);
  });
  const type = imageTypeOf(body);
  if (type === undefined) {
    const other = otherFormat(body);
    return `${path} is ${other ?? 'not a PNG, JPEG or WebP image'}${other ? ': screenshots are PNG, JPEG or WebP' : ' (read from its first bytes, not its name)'}`;
  }
  return { path, body, type };
}

/**
 * Every file, read and checked before the first upload: any that cannot be uploaded is a usage
 * error (exit 2) naming each such file, and nothing is sent. The same file named twice (a glob and
 * its own name) would be two screenshots of one screen: refused too.
 */
export async function readImages(cwd: string, paths: string[]): Promise<ImageFile[]> {
  const problems: string[] = [];
  const images: ImageFile[] = [];
  const seen = new Map<string, string>();
  for (const path of paths) {
    const twice = seen.get(resolve(cwd, path));
    if (twice !== undefined) {
      problems.push(`${path} is given twice${twice === path ? '' : ` (as ${twice} too)`}: each file is one screenshot`);
      continue;
    }
    seen.set(resolve(cwd, path), path);
    const read = await readImage(cwd, path);
    if (typeof read === 'string') problems.push(read);
    else images.push(read);
  }
  if (problems.length === 1) throw usageError(`${problems[0]}; nothing was uploaded`);
  if (problems.length > 1) throw usageError(`${problems.length} files cannot be uploaded; nothing was uploaded:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return images;
}
