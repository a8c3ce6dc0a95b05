// The flags' values, checked before anything is read, sent or written: a value a command cannot use
// is exit 2 with one line naming the flag and the value (docs/cli.md), never a server's 404 or 422
// halfway through a push that has already imported the files before it, nor a path built from it.
import { LANGUAGE } from './config-file.ts';
import { usageError } from './errors.ts';
import { normalTag, tagProblem } from './tag.ts';

type Token = { kind: string; name?: string; value?: string | undefined };

/** A value as the user typed it, quoted (so that "" and " 5" show), and cut when overlong. */
export const shown = (value: string) => JSON.stringify(value.length > 60 ? `${wholeCharacters(value.slice(0, 60))}…` : value);

/** Without a trailing half of a surrogate pair (JSON.stringify would show it as the text "\ud83d"). */
const wholeCharacters = (cut: string) => (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut);

/**
 * Flags whose values are secrets (--api-key): an error names the flag, never the value (CI logs keep
 * it). `--key` (tms screenshots: a translation key's name) is none.
 */
export const isSecretFlag = (name: string) => name !== 'key' && /key|token|secret|password/i.test(name);

/**
 * A URL as an error may print it: any user:password@ replaced by ***@ (a URL that is refused for
 * carrying them would otherwise put them in a CI log). Works on strings that are no URL, too.
 */
export const withoutCredentials = (value: string) => value.replace(/^((?:[^:/?#\s]+:)?\/\/)?[^/?#\s]*@/, '$1***@');

/** One line: Node's parser explains some errors over three lines (an option argument starting with -). */
export const oneLine = (message: string) => message.replace(/\s*\n\s*/g, ' ');

/**
 * A single-valued flag given twice with different values (`--status draft --status approved`):
 * the parser keeps the last, which may not be the one meant (a script's default and a person's
 * override). Refused; the same value twice is harmless.
 */
export function checkRepeated(tokens: Token[], multiple: (name: string) => boolean): void {
  const seen = new Map<string, string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || t.value === undefined || multiple(t.name)) continue;
    const before = seen.get(t.name);
    if (before !== undefined && before !== t.value) {
      throw usageError(`--${t.name} given twice${isSecretFlag(t.name) ? ' with different values' : ` (${shown(before)}, ${shown(t.value)})`}: give it once`);
    }
    seen.set(t.name, t.value);
  }
}

/** --language values: language codes (they become file paths and URL segments), each once. */
export function checkLanguages(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  for (const value of values) {
    if (!LANGUAGE.test(value)) throw usageError(`--language ${shown(value)}: a language code such as de or pt-BR (repeat --language for several)`);
  }
  return [...new Set(values)];
}

/**
 * --tag: one tag as the server takes it, in NFC and trimmed as it stores them. Checked here, before
 * anything is sent: a push whose tag the server refused stopped at its first file, and a pull's
 * export would answer an empty file for a text that can be no tag.
 */
export function checkTag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = tagProblem(value);
  if (problem !== undefined) throw usageError(`--tag ${shown(value)}: ${problem}${normalTag(value) === '' ? '; leave the flag out for every key' : ''}`);
  return normalTag(value);
}

/** The longest --timeout: a day. Longer is a typo, and past 2^53 ms the number is not even kept. */
const MAX_TIMEOUT_SECONDS = 86_400;

/** publish --timeout: whole seconds as digits (Number() took 0x10, 1e3, " 5" and 1.5), only with --wait. */
export function timeoutSeconds(value: string | undefined, wait: boolean): number {
  if (value === undefined) return 120;
  if (!wait) throw usageError('--timeout applies only with --wait: publish without --wait does not wait');
  const seconds = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_SECONDS)) throw usageError(`--timeout ${shown(value)}: a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`);
  return seconds;
}

/** TMS_TIMEOUT: how long one request may take, in whole seconds (default 120; empty: the default). */
export function requestTimeoutMs(value: string | undefined): number {
  if (value === undefined || value === '') return 120_000;
  const seconds = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_SECONDS)) throw usageError(`TMS_TIMEOUT ${shown(value)}: a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`);
  return seconds * 1000;
}

/**
 * The API key: --api-key, else TMS_API_KEY, trimmed (a secret pasted with a trailing newline is
 * the usual cause of a puzzling 401). It travels in a header, so it is printable ASCII: anything
 * else made fetch throw, which the CLI reported as a server it could not reach.
 */
export function apiKeyFrom(flag: string | undefined, env: string | undefined): string {
  if (flag !== undefined && flag.trim() === '') throw usageError('--api-key is empty: pass the key, or leave the flag out to use TMS_API_KEY');
  const key = (flag ?? env)?.trim();
  if (!key) throw usageError('no API key: set TMS_API_KEY or pass --api-key (it is never read from tms.config.json)');
  if (!/^[\x21-\x7e]+$/.test(key)) throw usageError(`${flag !== undefined ? '--api-key' : 'TMS_API_KEY'}: not an API key (only printable ASCII characters, no spaces or line breaks inside)`);
  return key;
}
