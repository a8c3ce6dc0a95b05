// `tms init`: writes tms.config.json. Flags when not in a terminal (CI, scripts); prompts for what
// the flags left out when in one.
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { canonicalLanguage, CONFIG_FILE, configProblems, withSlashes, type CliConfig } from '../config-file.ts';
import { FORMAT_IDS } from '../formats.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import type { Context } from '../context.ts';

export const INIT_HELP = `tms init [--server URL] [--source-language L] [--file PATH:FORMAT]... [--project ID] [--force]

Writes ${CONFIG_FILE} in the current directory. PATH contains {language}, and may contain {group}
(one file per group), e.g.
  --file locales/{language}.json:i18next  --file android/res/values-{language}/strings.xml:android
  --file public/locales/{language}/{group}.json:i18next
An Apple String Catalog holds every language in one file: --file App/Localizable.xcstrings:xcstrings
In a terminal, asks for whatever the flags leave out. --force overwrites an existing file.
Formats: ${FORMAT_IDS.join(', ')}
A language whose file lives elsewhere (Android's values/) gets "languagePaths" in the file: docs/cli.md.
--project ID: the project's id (tms status prints it); a key of another project is then refused.
The API key is never written: commands take it from TMS_API_KEY or --api-key.`;

/** Where each format's files usually live, offered as the default path. */
const DEFAULT_PATHS: Record<string, string> = {
  json: 'locales/{language}.json',
  'json-nested': 'locales/{language}.json',
  i18next: 'locales/{language}/translation.json',
  xliff: 'src/locale/messages.{language}.xlf',
  xliff2: 'src/locale/messages.{language}.xlf',
  po: 'locale/{language}/LC_MESSAGES/messages.po',
  android: 'app/src/main/res/values-{language}/strings.xml',
  'ios-strings': '{language}.lproj/Localizable.strings',
  'ios-stringsdict': '{language}.lproj/Localizable.stringsdict',
  arb: 'lib/l10n/app_{language}.arb',
  yaml: 'config/locales/{language}.yml',
  csv: 'translations/{language}.csv',
  properties: 'src/main/resources/messages_{language}.properties',
  resx: 'Resources/Strings.{language}.resx',
  xlsx: 'translations/{language}.xlsx',
  // One catalog holds every language.
  xcstrings: 'Localizable.xcstrings',
};

function parseFile(spec: string) {
  const at = spec.lastIndexOf(':');
  if (at <= 0) throw usageError(`--file ${spec}: expected PATH:FORMAT, e.g. locales/{language}.json:json`);
  return { path: spec.slice(0, at), format: spec.slice(at + 1) };
}

export async function init(ctx: Context, flags: { server?: string; 'source-language'?: string; file?: string[]; project?: string; force?: boolean }) {
  const target = resolve(ctx.cwd, CONFIG_FILE);
  const existing = await stat(target).catch(() => null);
  if (existing && !flags.force) throw usageError(`${target} exists; pass --force to overwrite it`);
  // --force replaces a file, never a folder (writing to one failed as an "unexpected error").
  if (existing?.isDirectory()) throw new CliError(`${target} is a folder, not a file: move it away first`, EXIT.failed);

  let server = flags.server;
  let sourceLanguage = flags['source-language'];
  let files = (flags.file ?? []).map(parseFile);
  if (ctx.interactive) {
    const { confirm, input, select } = await import('@inquirer/prompts');
    try {
      server ??= await input({ message: 'tms server URL', default: 'http://127.0.0.1:3000' });
      sourceLanguage ??= await input({ message: 'Source language of the project', default: 'en' });
      while (files.length === 0 || (!flags.file?.length && (await confirm({ message: 'Another file layout?', default: false })))) {
        const format = await select({ message: 'File format', choices: FORMAT_IDS.map((f) => ({ value: f })) });
        const path = await input({ message: format === 'xcstrings' ? 'Path of the String Catalog (it holds every language)' : "Path of each language's file ({language} is replaced)", default: DEFAULT_PATHS[format] ?? `locales/{language}.${format}` });
        files.push({ path, format });
      }
    } catch (error) {
      // Ctrl+C in a prompt.
      if ((error as Error).name === 'ExitPromptError') throw new CliError('cancelled; nothing was written', EXIT.failed);
      throw error;
    }
  }
  // Written as the server spells codes, with slashes (paths typed on Windows): as loadConfig reads them.
  files = files.map((f) => ({ ...f, path: withSlashes(f.path) }));
  const config: CliConfig = { server: server ?? '', sourceLanguage: canonicalLanguage(sourceLanguage ?? ''), files, ...(flags.project === undefined ? {} : { project: flags.project }) };
  const problems = configProblems(config);
  if (problems.length) {
    throw usageError(`cannot write ${CONFIG_FILE}:\n  ${problems.join('\n  ')}\n(without a terminal, give --server, --source-language and --file)`);
  }
  // Through a temporary file renamed into place, as pull writes: never half a config.
  const temporary = `${target}.tms-${process.pid}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(config, null, 2) + '\n');
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${target}: ${(error as Error).message}`, EXIT.failed);
  }
  ctx.out.line(`wrote ${target}`);
  ctx.out.result({ config: target, ...config });
  return 0;
}
