// The `tms` command: push and pull translation files between a repository and a tms server.
// Exit codes: 0 done, 1 failed, 2 usage error, 3 quota or plan limit (402), 4 authentication.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CONFIG_FILE, configFound, isServerUrl, loadConfig } from './config-file.ts';
import { createClient } from './client.ts';
import { createOutput } from './output.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import type { Context } from './context.ts';
import { init, INIT_HELP } from './commands/init.ts';
import { push, PUSH_HELP } from './commands/push.ts';
import { pull, PULL_HELP } from './commands/pull.ts';
import { status, STATUS_HELP } from './commands/status.ts';
import { publish, PUBLISH_HELP } from './commands/publish.ts';
import { MCP_HELP } from './commands/mcp-help.ts';
import { GLOSSARY_HELP, GLOSSARY_PULL_HELP, GLOSSARY_PUSH_HELP, glossaryPull, glossaryPullTarget, glossaryPush, glossaryPushUpload } from './commands/glossary.ts';
import { SCREENSHOTS_DELETE_HELP, SCREENSHOTS_HELP, SCREENSHOTS_LIST_HELP, SCREENSHOTS_PUSH_HELP, screenshots, screenshotsRequest } from './commands/screenshots.ts';
import { TASK_CLOSE_HELP, TASK_CREATE_HELP, TASK_HELP, TASK_LIST_HELP, TASK_SHOW_HELP, task, taskRequest } from './commands/task.ts';
import { checkProject } from './project.ts';
import { apiKeyFrom, checkLanguages, checkRepeated, checkTag, isSecretFlag, oneLine, requestTimeoutMs, shown, withoutCredentials } from './flags.ts';

const HELP = `tms: push and pull translation files between this repository and a tms server

  tms init      write tms.config.json (server, source language, file paths)
  tms push      upload the mapped files (imports: keys and values created or updated)
  tms pull      download every translation into its mapped file (the source language on request)
  tms status    counts per language and status, cache state, calls and translation units
  tms publish   rebuild the cached files apps read (--wait to wait for it)
  tms glossary  the glossary as a CSV or TBX file: \`tms glossary pull <file>\` writes it,
                \`tms glossary push <file>\` imports one (--dry-run: change nothing)
  tms screenshots  images of the app's screens (from e2e tests), linked to the keys they show:
                \`tms screenshots push <image>... --key K\` uploads them; \`list\`, \`delete <id>...\`
  tms task      work for translators and reviewers: \`tms task create --name N [--language L]...\`
                makes a task per language of the keys still to do; \`list\`, \`show <n>\`, \`close <n>\`
  tms mcp       a Model Context Protocol server on stdio, for AI agents

Options for every command: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --help,
--wait-for-quota (on 429, wait for the daily quota's reset instead of exiting); tms --version
Exit codes: 0 done, 1 failed (a 429 daily call quota too), 2 usage error, 3 translation-unit quota or plan limit (402), 4 authentication.
\`tms <command> --help\` for a command's options.`;

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON: Options = {
  'api-key': { type: 'string' },
  'wait-for-quota': { type: 'boolean' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const COMMANDS: Record<string, { help: string; options: Options }> = {
  init: { help: INIT_HELP, options: { server: { type: 'string' }, 'source-language': { type: 'string' }, file: { type: 'string', multiple: true }, project: { type: 'string' }, force: { type: 'boolean' } } },
  push: {
    help: PUSH_HELP,
    options: {
      language: { type: 'string', multiple: true },
      status: { type: 'string' },
      conflict: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'remove-unused': { type: 'boolean' },
      tag: { type: 'string' },
    },
  },
  pull: { help: PULL_HELP, options: { language: { type: 'string', multiple: true }, status: { type: 'string' }, 'include-source': { type: 'boolean' }, tag: { type: 'string' }, pseudo: { type: 'string' } } },
  status: { help: STATUS_HELP, options: {} },
  publish: { help: PUBLISH_HELP, options: { wait: { type: 'boolean' }, timeout: { type: 'string' } } },
  mcp: { help: MCP_HELP, options: { server: { type: 'string' } } },
  // `tms glossary pull|push <file>`: two words and a file.
  'glossary pull': { help: GLOSSARY_PULL_HELP, options: { format: { type: 'string' } } },
  'glossary push': { help: GLOSSARY_PUSH_HELP, options: { format: { type: 'string' }, 'dry-run': { type: 'boolean' } } },
  // `tms screenshots push <image>... --key K`: keys by name, each --key one key.
  'screenshots push': { help: SCREENSHOTS_PUSH_HELP, options: { key: { type: 'string', multiple: true }, region: { type: 'string', multiple: true }, name: { type: 'string' } } },
  'screenshots list': { help: SCREENSHOTS_LIST_HELP, options: { key: { type: 'string' } } },
  'screenshots delete': { help: SCREENSHOTS_DELETE_HELP, options: {} },
  // `tms task create --name N --language de`: a task per language; `show` and `close` take its number.
  'task create': {
    help: TASK_CREATE_HELP,
    options: {
      name: { type: 'string' },
      language: { type: 'string', multiple: true },
      kind: { type: 'string' },
      group: { type: 'string' },
      tag: { type: 'string' },
      missing: { type: 'boolean' },
      'include-done': { type: 'boolean' },
      'include-tasked': { type: 'boolean' },
      assignee: { type: 'string', multiple: true },
      due: { type: 'string' },
      description: { type: 'string' },
    },
  },
  'task list': { help: TASK_LIST_HELP, options: { state: { type: 'string' }, kind: { type: 'string' }, language: { type: 'string', multiple: true }, assignee: { type: 'string' } } },
  'task show': { help: TASK_SHOW_HELP, options: {} },
  'task close': { help: TASK_CLOSE_HELP, options: { cancel: { type: 'boolean' } } },
};
/** The commands that take arguments: a file (`tms glossary push glossary.csv`), images, ids. */
const TAKES_ARGUMENTS = new Set(['glossary pull', 'glossary push', 'screenshots push', 'screenshots list', 'screenshots delete', 'task show', 'task close']);
/** The commands of two words: the first word, its help, the second words and an example of options' place. */
const GROUPS: Record<string, { help: string; subs: string[]; example: string }> = {
  glossary: { help: GLOSSARY_HELP, subs: ['pull', 'push'], example: 'tms glossary push FILE' },
  screenshots: { help: SCREENSHOTS_HELP, subs: ['push', 'list', 'delete'], example: 'tms screenshots push IMAGE' },
  task: { help: TASK_HELP, subs: ['create', 'list', 'show', 'close'], example: 'tms task create' },
};

/** Flags that contradict each other or the command: which one the user meant is a guess. */
function checkConflicts(name: string, values: Record<string, unknown>): void {
  if (values.config === '') throw usageError(`--config is empty: name the config file, or leave the flag out for ${CONFIG_FILE}`);
  // init writes ./tms.config.json: a --config elsewhere was silently not where the file went.
  if (name === 'init' && values.config !== undefined) throw usageError(`--config: init writes ${CONFIG_FILE} in the current folder; run it where the config belongs (--config is for the other commands)`);
  if (name === 'mcp' && values.server !== undefined && values.config !== undefined) throw usageError('--server and --config: with --server no config file is read; give one of them');
}

/**
 * parseArgs refuses `--timeout -5` as "ambiguous" in three sentences: the value starts with a dash,
 * so it might be an option. Said once, naming the flag and the value, with the form that passes it.
 */
function ambiguousValue(error: unknown, args: string[]): string | undefined {
  if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return undefined;
  const flag = /^Option '(--[\w-]+)' argument is ambiguous/.exec((error as Error).message)?.[1];
  const at = flag === undefined ? -1 : args.indexOf(flag);
  if (at < 0 || args[at + 1] === undefined) return undefined;
  const value = args[at + 1]!;
  if (isSecretFlag(flag!)) return `${flag}: a value that starts with "-" is taken for an option; write ${flag}=VALUE if it is the value`;
  return `${flag} ${shown(value)}: a value that starts with "-" is taken for an option; write ${flag}=${value} if it is the value`;
}

/**
 * A CI runner: CI set to anything but "false" or "0", in any case. GitHub Actions sets "true",
 * others "1", "True" or a name (Woodpecker: "woodpecker"); a prompt there waits until the job's timeout.
 */
const isCi = (value: string | undefined) => value !== undefined && value !== '' && !/^(false|0)$/i.test(value);

/** Why a server URL is refused, showing it without any user:password@ (which it may not carry anyway). */
function notServerUrl(value: string): string {
  const hidden = withoutCredentials(value);
  return `an http(s) URL such as "http://127.0.0.1:3000", not ${shown(hidden)}${hidden === value ? '' : ' (a URL without user:password@)'}`;
}

/** The error as --json gives it: `{"error", "exit_code"}` on stdout. */
function jsonError(io: Io, message: string, exitCode: number): void {
  io.stdout.write(JSON.stringify({ error: message, exit_code: exitCode }, null, 2) + '\n');
}

export type Io = { cwd: string; env: NodeJS.ProcessEnv; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; stdin: NodeJS.ReadStream };

export async function main(argv: string[], io: Io = { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  let [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(HELP + '\n');
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const group = Object.hasOwn(GROUPS, name) ? GROUPS[name]! : undefined;
  if (group) {
    const [sub, ...after] = rest;
    if (sub !== undefined && group.subs.includes(sub)) {
      name = `${name} ${sub}`;
      rest = after;
    } else if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
      io.stdout.write(group.help + '\n');
      return sub === undefined ? EXIT.usage : EXIT.ok;
    } else {
      const subs = group.subs.map((s) => `${name} ${s}`);
      const why = sub.startsWith('-')
        ? `${shown(sub)} is not a command: options come after it (${group.example} ${sub})`
        : `unknown command ${shown(`${name} ${sub}`)}: ${subs.slice(0, -1).join(', ')} or ${subs.at(-1)}`;
      if (rest.includes('--json')) jsonError(io, why, EXIT.usage);
      io.stderr.write(`tms ${name}: ${why}\n\n${group.help}\n`);
      return EXIT.usage;
    }
  }
  // Only a command's own name (not "toString", not `tms "glossary pull"` as one word).
  const command = Object.hasOwn(COMMANDS, name) && !argv[0]!.includes(' ') ? COMMANDS[name] : undefined;
  if (!command) {
    // `tms --json push`: the options of every command still come after it.
    const why = name.startsWith('-') ? `${shown(name)} is not a command: options come after the command (tms push ${name})` : `unknown command ${shown(name)}`;
    // `tms frob --json` asked for JSON; `tms --json push` named no command to ask it of.
    if (!name.startsWith('-') && rest.includes('--json')) jsonError(io, why, EXIT.usage);
    io.stderr.write(`tms: ${why}\n\n${HELP}\n`);
    return EXIT.usage;
  }
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  const options = { ...COMMON, ...command.options };
  try {
    const parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: TAKES_ARGUMENTS.has(name), tokens: true });
    values = parsed.values;
    positionals = parsed.positionals;
    checkRepeated(parsed.tokens, (option) => Boolean(options[option]?.multiple));
  } catch (error) {
    // The message on one line, first; the usage after it.
    const why = ambiguousValue(error, rest) ?? oneLine((error as Error).message);
    // --json was asked for even if the line it is on could not be read: CI parses stdout.
    if (rest.includes('--json') && name !== 'mcp') jsonError(io, why, EXIT.usage);
    io.stderr.write(`tms ${name}: ${why}\n\n${command.help}\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout.write(command.help + '\n');
    return EXIT.ok;
  }
  const json = Boolean(values.json);
  const ctx: Context = {
    cwd: io.cwd,
    env: io.env,
    out: createOutput({ json, stdout: io.stdout, stderr: io.stderr }),
    interactive: Boolean(io.stdin.isTTY && io.stdout.isTTY) && !isCi(io.env.CI),
  };
  try {
    checkConflicts(name, values);
    if (values.language !== undefined) values.language = checkLanguages(values.language as string[]);
    if (values.tag !== undefined) values.tag = checkTag(values.tag as string);
    if (name === 'init') return await init(ctx, values as Parameters<typeof init>[1]);
    // The file and its format are checked (a file to push read) before the config and before any request.
    const pullTarget = name === 'glossary pull' ? await glossaryPullTarget(io.cwd, positionals, values as { format?: string }) : undefined;
    const pushUpload = name === 'glossary push' ? await glossaryPushUpload(io.cwd, positionals, values as { format?: string }) : undefined;
    // Likewise every image to upload, before the key list is asked for and the first upload.
    const shots = name.startsWith('screenshots ')
      ? await screenshotsRequest(name.slice('screenshots '.length) as 'push' | 'list' | 'delete', io.cwd, positionals, values as { key?: string | string[]; region?: string[]; name?: string })
      : undefined;
    // And every value a task command's flags give (names, emails, days, numbers).
    const taskAsked = name.startsWith('task ') ? taskRequest(name.slice('task '.length) as 'create' | 'list' | 'show' | 'close', positionals, values as Parameters<typeof taskRequest>[2]) : undefined;
    // TMS_SERVER overrides the config's server, so it is held to the same rule (exit 2 when wrong);
    // an empty one, as a CI variable that is not set gives, is no override.
    const envServer = io.env.TMS_SERVER || undefined;
    const flagServer = name === 'mcp' ? (values.server as string | undefined) : undefined;
    if (envServer !== undefined && flagServer === undefined && !isServerUrl(envServer)) throw usageError(`TMS_SERVER: ${notServerUrl(envServer)}`);
    // An agent's MCP client may start `tms mcp` anywhere: its server can come without a config file.
    const serverFlag = name === 'mcp' ? (flagServer ?? envServer) : undefined;
    if (serverFlag !== undefined && !isServerUrl(serverFlag)) throw usageError(`--server: ${notServerUrl(serverFlag)}`);
    // mcp reads no config with --server. With TMS_SERVER it reads the one --config names, or the one
    // it finds, as every command does (TMS_SERVER is then its server): a config pinned to a project
    // refuses another project's key here too. Without either, it has nothing else to go by.
    const readsConfig = name !== 'mcp' || (flagServer === undefined && (envServer === undefined || values.config !== undefined || (await configFound(io.cwd))));
    const config = readsConfig ? await loadConfig(io.cwd, values.config as string | undefined) : undefined;
    const apiKey = apiKeyFrom(values['api-key'] as string | undefined, io.env.TMS_API_KEY);
    const client = createClient((serverFlag ?? envServer ?? config!.server).replace(/\/+$/, ''), apiKey, {
      timeoutMs: requestTimeoutMs(io.env.TMS_TIMEOUT),
      serverFrom: serverFlag !== undefined ? (flagServer !== undefined ? '--server' : 'TMS_SERVER') : envServer !== undefined ? 'TMS_SERVER' : `"server" in ${config!.file}`,
      waitForQuota: Boolean(values['wait-for-quota']),
      // A wait for the daily quota can last until midnight UTC: said on stderr, even with --json.
      onWait: (text) => io.stderr.write(`tms ${name}: ${text}\n`),
      // Only for tests of the retry behaviour: waits are scaled by this factor.
      delayScale: io.env.TMS_RETRY_DELAY_SCALE ? Number(io.env.TMS_RETRY_DELAY_SCALE) : 1,
    });
    if (config) await checkProject(client, config, apiKey);
    switch (name) {
      case 'mcp':
        return await (await import('./commands/mcp.ts')).mcp(client, apiKey, io);
      case 'push':
        return await push(ctx, config!, client, values as Parameters<typeof push>[3]);
      case 'pull':
        return await pull(ctx, config!, client, values as Parameters<typeof pull>[3]);
      case 'status':
        return await status(ctx, client);
      case 'glossary pull':
        return await glossaryPull(ctx, client, pullTarget!);
      case 'glossary push':
        return await glossaryPush(ctx, client, pushUpload!, values as { 'dry-run'?: boolean });
      case 'screenshots push':
      case 'screenshots list':
      case 'screenshots delete':
        return await screenshots(ctx, client, shots!);
      case 'task create':
      case 'task list':
      case 'task show':
      case 'task close':
        return await task(ctx, client, taskAsked!, config!.sourceLanguage);
      default:
        return await publish(ctx, client, values as Parameters<typeof publish>[2]);
    }
  } catch (caught) {
    // Anything else is a bug or an answer the CLI did not expect: said in one line, exit 1.
    const error = caught instanceof CliError ? caught : new CliError(`unexpected error: ${caught instanceof Error ? caught.message : String(caught)}`, EXIT.failed);
    if (!(caught instanceof CliError) && io.env.TMS_DEBUG) io.stderr.write(`${(caught as Error).stack}\n`);
    // mcp's stdout is its MCP client's protocol channel: nothing else goes there, --json or not.
    if (json && name !== 'mcp') io.stdout.write(JSON.stringify({ ...error.done, error: error.message, exit_code: error.exitCode }, null, 2) + '\n');
    io.stderr.write(`tms ${name}: ${error.message}\n`);
    return error.exitCode;
  }
}
