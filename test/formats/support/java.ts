// Java itself as the reader of .properties files (ReadProperties.java beside this file), for the
// codec's tests and the CLI's Java adoption test. Skipped where no JDK is installed (a user's machine).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** `java` that can run a single-file source program (a JDK 11+: the launcher needs jdk.compiler). */
export const hasJava = (() => {
  try {
    return execFileSync('java', ['--list-modules'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('jdk.compiler');
  } catch {
    return false;
  }
})();

/** What Java read from one file: Properties.load (ISO-8859-1) and PropertyResourceBundle (UTF-8, else ISO-8859-1). */
export type JavaRead = { properties: Record<string, string>; bundle: Record<string, string> };

/** Java's reading of each file, by path, in one launch (about a second). */
export function readWithJava(paths: readonly string[]): Record<string, JavaRead> {
  const reader = join(import.meta.dirname, 'ReadProperties.java');
  return JSON.parse(execFileSync('java', [reader, ...paths], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })) as Record<string, JavaRead>;
}

/** Each message of a .properties file formatted by Java's MessageFormat with the arguments (3, "x"), or "ERROR: …". */
export function formatWithJava(path: string): Record<string, string> {
  const formatter = join(import.meta.dirname, 'FormatMessages.java');
  return JSON.parse(execFileSync('java', [formatter, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })) as Record<string, string>;
}
