// Text to bytes for every writer: UTF-8, always ending in a newline, so files diff cleanly.
const utf8 = new TextEncoder();

export function encodeText(text: string): Uint8Array {
  return utf8.encode(text.endsWith('\n') ? text : `${text}\n`);
}
