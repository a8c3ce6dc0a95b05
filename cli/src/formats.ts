// The file formats the server speaks. The CLI reads source files itself only to know their keys
// (`push --remove-unused`); it uses the same pure codecs as the server (core/formats has no
// database or HTTP code), so both read a file the same way.
import { FORMATS } from '../../core/formats/index.ts';

export const FORMAT_IDS: string[] = Object.keys(FORMATS);

export function keysOf(format: string, body: Uint8Array, language: string): string[] {
  const codec = FORMATS[format as keyof typeof FORMATS];
  return codec.parse(body, { language }).entries.map((e) => e.key);
}

export const needsSource = (format: string) => FORMATS[format as keyof typeof FORMATS].needsSource;
