// The body of a portal POST, read once before anything else looks at it (the CSRF check, the route):
// a form the browser sent (urlencoded or multipart), or nothing. A body that cannot be read as a
// form is refused whole, whatever the route, instead of a 500 where the first reader stumbled on it
// (undici's multipart parser throws) or a route that needs no field going ahead regardless.
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../../core/errors.ts';
import type { PortalEnv } from './portal-env.ts';

const URLENCODED = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const unreadable = (msg: string, type: string) => new AppError('validation', msg, { issues: [{ loc: ['body'], msg, type }] });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const utf8 = (bytes: Uint8Array) => {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

const isHex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/**
 * Whether an urlencoded body's fields are UTF-8, as the portal's pages (charset utf-8) make browsers
 * send them. The URL standard's parser replaces bytes that do not decode with U+FFFD, so a project or
 * key would be stored under a name nobody typed; the whole body is judged at once (its separators
 * are ASCII, so a broken sequence in any field stays broken), escapes decoded as that parser does.
 */
function isUtf8Form(bytes: Uint8Array): boolean {
  const decoded = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]!) && isHex(bytes[i + 2]!)) {
      decoded[n++] = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    } else decoded[n++] = b;
  }
  return utf8(decoded.subarray(0, n));
}

const indexOf = (bytes: Uint8Array, needle: Uint8Array, from: number) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, from);
const CRLFCRLF = new TextEncoder().encode('\r\n\r\n');

/** The boundary of a multipart Content-Type, quoted or not (RFC 2046 5.1.1). */
function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/**
 * Whether a multipart body's text fields (their headers, so their names, and their values) are
 * UTF-8. undici's parser decodes them with U+FFFD for what does not decode, as the URL parser does
 * urlencoded fields, so the bytes are judged here, before it. File parts (a filename) are left to
 * what reads the file: the import refuses a file that is not in its format's encoding itself. A
 * body this scan cannot split is left to the parser, which refuses it (form_invalid).
 */
function isUtf8Multipart(bytes: Uint8Array, contentType: string): boolean {
  const boundary = boundaryOf(contentType);
  if (!boundary) return true;
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  // The first delimiter may open the body without the CRLF before it.
  let at = indexOf(bytes, delimiter.subarray(2), 0);
  while (at !== -1) {
    const start = at + delimiter.length - (bytes[at] === 0x2d ? 2 : 0);
    const next = indexOf(bytes, delimiter, start);
    if (next === -1) return true;
    const part = bytes.subarray(start, next);
    const split = indexOf(part, CRLFCRLF, 0);
    if (split !== -1) {
      const headers = part.subarray(0, split);
      const isFile = /;\s*filename\*?\s*=/i.test(Buffer.from(headers).toString('latin1'));
      if (!isFile && (!utf8(headers) || !utf8(part.subarray(split + CRLFCRLF.length)))) return false;
    }
    at = next;
  }
  return true;
}

export const formBody = (): MiddlewareHandler<PortalEnv> =>
  async function formBody(c, next) {
    if (c.req.method !== 'POST') return next();
    const type = mediaTypeOf(c.req.header('content-type'));
    if (type === URLENCODED || type === MULTIPART) {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (type === URLENCODED ? !isUtf8Form(bytes) : !isUtf8Multipart(bytes, c.req.header('content-type') ?? '')) {
        throw unreadable('The form is not UTF-8: reload the page and send it again', 'unicode_invalid');
      }
      try {
        // Kept by Hono for every later reader of this request (parseBody reads this cache).
        await c.req.parseBody();
      } catch {
        throw unreadable('The form could not be read: reload the page and send it again', 'form_invalid');
      }
      return next();
    }
    // Not a form: fine when there is nothing in it (a blank body asks for nothing), as on the API.
    const text = new TextDecoder().decode(await c.req.arrayBuffer());
    if (text.trim() !== '') throw new HTTPException(415, { message: `Forms are sent as ${URLENCODED} or ${MULTIPART}` });
    return next();
  };
