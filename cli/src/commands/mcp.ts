// `tms mcp`: a Model Context Protocol server on stdio, so that coding agents (Claude Code, Cursor,
// Copilot, Zed...) read and write a project's translations. Every tool is one call of the HTTP API
// with the caller's key: the server decides what that key may do. A delivery key (read-only, cached
// files only) gets only the tools that read cached files. Nothing but protocol goes to stdout;
// diagnostics go to stderr.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LineTransport } from './mcp-stdio.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import type { Client } from '../client.ts';
import { FORMAT_IDS } from '../formats.ts';

/** The formats an agent exchanges as text: a workbook (xlsx) is bytes, which a tool's text content would corrupt. */
const TEXT_FORMAT_IDS = FORMAT_IDS.filter((f) => f !== 'xlsx');

export { MCP_HELP } from './mcp-help.ts';

const LANGUAGE = z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,4})?$/, 'a language code such as de or pt-BR').describe('Language code, e.g. "de" or "pt-BR"');
const STATUS = z.enum(['draft', 'review', 'approved']);
const TASK_NUMBER = z.number().int().min(1).max(999_999_999).describe('The task\'s number in the project (#4 is 4), from list_tasks');

/**
 * Most UTF-8 bytes of text one tool answer carries. The official SDK's stdio client drops a line
 * over 10 MiB and closes the connection ("Connection closed", then "Not connected" for every later
 * call): the agent's session is lost. The JSON-RPC line escapes the text once more, at worst six
 * bytes per byte (a control character's \u00XX), so 1 MiB stays under that limit whatever the text.
 */
export const MAX_TOOL_TEXT_BYTES = 1024 * 1024;

/**
 * Most bytes of images one tool answer carries: base64 makes them 4/3 larger on the JSON-RPC line,
 * which the SDK's stdio client drops over 10 MiB (see above): 6 MiB of images is 8 MiB there.
 */
export const MAX_TOOL_IMAGE_BYTES = 6 * 1024 * 1024;

/** How to ask a tool for less when its answer is cut; the general hint for a tool without one of its own. */
const LESS = 'ask for fewer values (a group, a status, fewer keys)';

/**
 * The text as is when it fits, else its first MAX_TOOL_TEXT_BYTES bytes (never half a character)
 * and a note saying what was cut and how to ask for less: a normal answer, since the part shown is
 * still the server's data and the agent can act on the note (a refusal would show nothing).
 */
export function capText(text: string, less = LESS): string {
  if (Buffer.byteLength(text, 'utf8') <= MAX_TOOL_TEXT_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  let end = MAX_TOOL_TEXT_BYTES;
  // Back to the first byte of a character: a continuation byte is 10xxxxxx.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const kept = bytes.subarray(0, end).toString('utf8');
  return `${kept}\n\n[tms mcp: answer cut: it is ${bytes.length} bytes of UTF-8 and only the first ${end} are above (a tool answer is kept under ${MAX_TOOL_TEXT_BYTES} bytes, or the MCP client drops it and closes the connection); what is above is incomplete (a JSON answer does not parse). To get all of it, ${less}.]`;
}

// Compact JSON: indentation would only add bytes (the agent reads it either way), and a 2-space
// indent of every line of a large answer brings it nearer the cap sooner.
const text = (value: unknown, less?: string): CallToolResult => ({ content: [{ type: 'text', text: capText(typeof value === 'string' ? value : JSON.stringify(value), less) }] });
const q = (params: Record<string, string | number | boolean | undefined>) => {
  const entries: [string, string][] = Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]]));
  return entries.length ? `?${new URLSearchParams(entries)}` : '';
};
const seg = encodeURIComponent;

/** A tool's body: API errors (the CLI's explained messages) become tool errors the agent can read. */
function tool<A>(run: (args: A) => Promise<CallToolResult>) {
  return async (args: A): Promise<CallToolResult> => {
    try {
      return await run(args);
    } catch (error) {
      const message = error instanceof CliError ? error.message : `unexpected: ${(error as Error).message}`;
      // An error quotes the server's answer: capped too, so no answer of any kind can break the session.
      return { isError: true, content: [{ type: 'text', text: capText(message) }] };
    }
  };
}

export function createMcpServer(client: Client, apiKey: string): McpServer {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const server = new McpServer({ name: 'tms', version });
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, asText = false) => {
    const res = await client.request(method, path, {
      ...(body === undefined ? {} : { body: typeof body === 'string' ? new TextEncoder().encode(body) : new TextEncoder().encode(JSON.stringify(body)) }),
      headers: { ...(body === undefined || typeof body === 'string' ? {} : { 'Content-Type': 'application/json' }), ...headers },
    });
    if (res.status === 204) return null;
    const type = res.headers.get('content-type') ?? '';
    return !asText && type.includes('json') ? res.json() : res.text();
  };

  if (apiKey.startsWith('delivery_')) {
    server.registerTool(
      'get_manifest',
      { title: 'Published languages', description: 'The languages of the last published build, with their approved counts.', inputSchema: {}, annotations: { readOnlyHint: true } },
      tool(async () => text(await send('GET', '/v1/cached/manifest'))),
    );
    server.registerTool(
      'get_cached_translations',
      {
        title: 'Published translations',
        description: "A language's published (approved) translations, or one group's, as apps read them.",
        inputSchema: { language: LANGUAGE, group: z.string().optional() },
        annotations: { readOnlyHint: true },
      },
      tool(async ({ language, group }: { language: string; group?: string }) =>
        text(await send('GET', `/v1/cached/translations/${seg(language)}${group === undefined ? '' : `/${seg(group)}`}`), 'pass group to read one group at a time'),
      ),
    );
    return server;
  }

  server.registerTool(
    'list_keys',
    {
      title: 'List keys',
      description:
        'Keys of the project, optionally searched (names and value text), filtered by group, by tag, by status in a language, missing in a language, outdated in a language (written before their source text last changed), with open comments in a language, or by task (its number); paginated with limit and cursor.',
      inputSchema: {
        search: z.string().optional(),
        group: z.string().optional(),
        tag: z.string().optional().describe('Only keys with this tag (exact, case kept)'),
        missing: LANGUAGE.optional().describe('Only keys without a value in this language'),
        outdated: LANGUAGE.optional().describe('Only keys whose value in this language was written before their source text last changed'),
        open_comments: LANGUAGE.optional().describe('Only keys with a comment in this language not resolved yet (a review note to act on)'),
        language: LANGUAGE.optional().describe('With status: the language the status is about'),
        status: STATUS.optional(),
        task: TASK_NUMBER.optional().describe('Only the keys of this task (its number, from list_tasks)'),
        limit: z.number().int().min(1).max(500).optional(),
        cursor: z.string().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    tool(async (args: Record<string, string | number | undefined>) =>
      text(await send('GET', `/v1/keys${q({ limit: 100, ...args })}`), 'pass a smaller limit and read the next pages with cursor, or narrow by group or search'),
    ),
  );
  server.registerTool(
    'get_key',
    { title: 'Get a key', description: 'One key by id.', inputSchema: { key_id: z.string().uuid() }, annotations: { readOnlyHint: true } },
    tool(async ({ key_id }: { key_id: string }) => text(await send('GET', `/v1/keys/${seg(key_id)}`))),
  );
  server.registerTool(
    'create_key',
    {
      title: 'Create a key',
      description:
        'A new translation key in a group (default "Default"), with an optional description for translators, optional tags (at most 20) and an optional character limit.',
      inputSchema: {
        key: z.string().min(1),
        group_name: z.string().optional(),
        description: z.string().optional(),
        tags: z.array(z.string()).max(20).optional().describe('Labels across groups, e.g. ["mobile", "release-2.3"]'),
        max_length: z
          .number()
          .int()
          .min(1)
          .max(10000)
          .optional()
          .describe('The most characters a value should have where the app shows it (a button, a notification); longer values get a max_length warning'),
      },
    },
    tool(async (args: { key: string; group_name?: string; description?: string; tags?: string[]; max_length?: number }) => text(await send('POST', '/v1/keys', args))),
  );
  // Tags are the key's labels, not its text: adding and removing them on many keys at once is one
  // write (all or nothing), as the editor's selection does it.
  server.registerTool(
    'tag_keys',
    {
      title: 'Tag keys',
      description:
        'Add tags to and remove tags from keys (by id, from list_keys), all or nothing: a key that would pass 20 tags refuses the whole call. Answers how many keys changed. It changes nothing served.',
      inputSchema: {
        key_ids: z.array(z.string().uuid()).min(1),
        add: z.array(z.string()).optional().describe('Tags every key gets'),
        remove: z.array(z.string()).optional().describe('Tags taken off every key'),
      },
    },
    tool(async (body: { key_ids: string[]; add?: string[]; remove?: string[] }) => text(await send('POST', '/v1/keys/bulk-tags', body))),
  );
  // The glossary is what keeps a product's words the same everywhere: an agent translating a key
  // asks for the terms its source text holds and uses their agreed translations.
  server.registerTool(
    'get_glossary',
    {
      title: 'Read the glossary',
      description:
        "The project's glossary terms with their agreed translations by language. Pass key_id to get the terms found in that key's source text: use their translations when translating it, and keep a term with translatable false as written. A term with forbidden true is a word not to use: neither it nor its translation in your language (the term itself when translatable is false) may appear in a value (say it another way; its description often says how). Or q (not with key_id) to find terms by spelling or translation.",
      inputSchema: { key_id: z.string().uuid().optional(), q: z.string().min(1).optional() },
      annotations: { readOnlyHint: true },
    },
    tool(async (args: { key_id?: string; q?: string }) => text(await send('GET', `/v1/glossary${q(args)}`), 'pass q to find fewer terms, or key_id for one key')),
  );
  // A screenshot shows an agent (most read images) where a text appears and how much room it has:
  // the images come as MCP image content, beside the list with each key's region in pixels.
  server.registerTool(
    'get_screenshots',
    {
      title: 'Screenshots of a key',
      description:
        "The screenshots that show a key (by id, from list_keys): each one's name, size and the keys it shows with their regions (x, y, width, height in pixels; null: somewhere on it), then the images themselves. Look at them before translating the key: where the text appears, what is next to it, how much room it has.",
      inputSchema: { key_id: z.string().uuid() },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ key_id }: { key_id: string }) => {
      // The first 20: more screens of one key tell an agent nothing new, and each image is large.
      const { screenshots, count } = (await send('GET', `/v1/screenshots${q({ key_id, limit: 20 })}`)) as {
        screenshots: { id: string; name: string; content_type: string; bytes: number }[];
        count: number;
      };
      const more = count > screenshots.length ? `\n[tms mcp: the first ${screenshots.length} of ${count} screenshots showing this key]` : '';
      const content: CallToolResult['content'] = [{ type: 'text', text: capText(JSON.stringify(screenshots) + more) }];
      let budget = MAX_TOOL_IMAGE_BYTES;
      const left: string[] = [];
      for (const shot of screenshots) {
        if (shot.bytes > budget) {
          left.push(shot.name);
          continue;
        }
        const res = await client.request('GET', `/v1/screenshots/${seg(shot.id)}/image`, {});
        const bytes = Buffer.from(await res.arrayBuffer());
        budget -= bytes.length;
        content.push({ type: 'image', data: bytes.toString('base64'), mimeType: shot.content_type });
      }
      if (left.length > 0) content.push({ type: 'text', text: `[tms mcp: ${left.length} of the images are not included (${left.join(', ')}): an answer keeps its images under ${MAX_TOOL_IMAGE_BYTES} bytes, or the MCP client drops it. Their image_url reads them with the API key.]` });
      return { content };
    }),
  );
  server.registerTool(
    'add_glossary_term',
    {
      title: 'Add a glossary term',
      description:
        'A term the product uses (a feature, a brand) with its agreed translations, e.g. {"de": "Übersicht"}, in the project\'s languages other than its source. translatable false keeps it as written in every language. forbidden true makes it a word not to use, its translations the words not to use in each language (with translatable false: the term itself, in every language). A spelling the glossary already has, in any case, is refused.',
      inputSchema: {
        // Lengths are the server's to judge: it counts characters, zod counts UTF-16 units.
        term: z.string().min(1),
        description: z.string().optional(),
        translatable: z.boolean().optional(),
        case_sensitive: z.boolean().optional(),
        forbidden: z.boolean().optional(),
        translations: z.record(z.string(), z.string().min(1)).optional().describe('Language code → the agreed translation'),
      },
    },
    tool(async (body: { term: string; description?: string; translatable?: boolean; case_sensitive?: boolean; forbidden?: boolean; translations?: Record<string, string> }) => text(await send('POST', '/v1/glossary', body))),
  );
  server.registerTool(
    'get_translations',
    {
      title: 'Read translations',
      description: "Current values of a language (or one group), from the database: status approved by default, or draft, review or all.",
      inputSchema: { language: LANGUAGE, group: z.string().optional(), status: z.enum(['approved', 'draft', 'review', 'all']).optional() },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ language, group, status }: { language: string; group?: string; status?: string }) =>
      text(
        await send('GET', `/v1/translations/${seg(language)}${group === undefined ? '' : `/${seg(group)}`}${q({ status })}`),
        'pass group to read one group at a time (list_keys shows the groups), or a narrower status',
      ),
    ),
  );
  server.registerTool(
    'get_value',
    {
      title: 'Read one value',
      description:
        'The value of a key in one language, whatever its status, with its version (pass it to set_translation to write only over what you read) and outdated (its source text changed after it was written).',
      inputSchema: { key_id: z.string().uuid(), language: LANGUAGE },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ key_id, language }: { key_id: string; language: string }) => text(await send('GET', `/v1/keys/${seg(key_id)}/translations/${seg(language)}`))),
  );
  // An agent that fixes a typo is writing over a text someone may have changed, or approved, since
  // it read it: with `version` (from get_value) the API refuses the write then (If-Match, 412)
  // rather than overwriting unseen. And a status left out is draft: said here, since rewriting an
  // approved value without it takes the approval back.
  server.registerTool(
    'set_translation',
    {
      title: 'Write a value',
      description:
        'Create or overwrite the value of a key in a language. status is draft unless given: writing an approved value without status "approved" makes it a draft again (apps stop getting it at the next publish). ' +
        'version: the version get_value returned; the write is then refused (412) if the value changed since, instead of overwriting what someone else wrote. ' +
        "The answer's warnings are the quality checks' (max_length: longer than the key's character limit, from get_key).",
      inputSchema: {
        key_id: z.string().uuid(),
        language: LANGUAGE,
        value: z.string(),
        status: STATUS.optional(),
        version: z.number().int().min(1).optional().describe('Write only if the value is still at this version (from get_value)'),
      },
    },
    tool(async ({ key_id, language, version, ...body }: { key_id: string; language: string; value: string; status?: string; version?: number }) =>
      text(await send('PUT', `/v1/keys/${seg(key_id)}/translations/${seg(language)}`, body, version === undefined ? {} : { 'If-Match': `"${version}"` })),
    ),
  );
  // An outdated value the agent has checked against the new source and found still right: marking it
  // is a write like any other, over the version it read.
  server.registerTool(
    'mark_up_to_date',
    {
      title: 'Mark a value up to date',
      description:
        'An outdated value (get_value says outdated: true) whose text still fits its changed source: mark it up to date, text and status unchanged. ' +
        'version: the version get_value returned; refused (412) if the value changed since. To change the text instead, use set_translation (a new text is up to date).',
      inputSchema: {
        key_id: z.string().uuid(),
        language: LANGUAGE,
        version: z.number().int().min(1).optional().describe('Mark only if the value is still at this version (from get_value)'),
      },
    },
    tool(async ({ key_id, language, version }: { key_id: string; language: string; version?: number }) =>
      text(await send('POST', `/v1/keys/${seg(key_id)}/translations/${seg(language)}/up-to-date`, undefined, version === undefined ? {} : { 'If-Match': `"${version}"` })),
    ),
  );
  // The reviewers' notes on a value are the brief for rewriting it: an agent reads them first, and
  // may leave one (a question about the source, what it changed and why). Deleting is left to people.
  server.registerTool(
    'list_comments',
    {
      title: 'Read the comments on a value',
      description: "The team's comments on a key in one language, oldest first (review notes, questions about the source text): read them before rewriting the value.",
      inputSchema: { key_id: z.string().uuid(), language: LANGUAGE },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ key_id, language }: { key_id: string; language: string }) => text(await send('GET', `/v1/keys/${seg(key_id)}/translations/${seg(language)}/comments`))),
  );
  server.registerTool(
    'add_comment',
    {
      title: 'Comment on a value',
      description: 'Add a comment on a key in one language (1 to 2,000 characters), for the people who translate and review it: a question about the source text, or what you changed and why. It changes nothing served.',
      inputSchema: { key_id: z.string().uuid(), language: LANGUAGE, text: z.string().min(1).max(2000) },
    },
    tool(async ({ key_id, language, text: comment }: { key_id: string; language: string; text: string }) =>
      text(await send('POST', `/v1/keys/${seg(key_id)}/translations/${seg(language)}/comments`, { text: comment })),
    ),
  );
  server.registerTool(
    'resolve_comment',
    {
      title: 'Resolve a comment',
      description:
        'Mark a comment on a value resolved (resolved: true), once what it asks is done (the value rewritten, the question answered in a reply), or open again (false). The comment stays in the thread. It changes nothing served.',
      inputSchema: { key_id: z.string().uuid(), language: LANGUAGE, comment_id: z.string().uuid(), resolved: z.boolean() },
      annotations: { idempotentHint: true },
    },
    tool(async ({ key_id, language, comment_id, resolved }: { key_id: string; language: string; comment_id: string; resolved: boolean }) =>
      text(await send('PATCH', `/v1/keys/${seg(key_id)}/translations/${seg(language)}/comments/${seg(comment_id)}`, { resolved })),
    ),
  );
  server.registerTool(
    'suggest_translations',
    {
      title: 'Translation memory',
      description: "What the team already approved for the same or a similar source text, with scores (1 = exact).",
      inputSchema: { key_id: z.string().uuid(), language: LANGUAGE },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ key_id, language }: { key_id: string; language: string }) => text(await send('GET', `/v1/keys/${seg(key_id)}/suggestions/${seg(language)}`))),
  );
  server.registerTool(
    'translate_missing',
    {
      title: 'Translate missing values',
      description: "Fill a language's missing values: translation memory first (free), then the server's machine translation (translation units). Written as draft unless status says review.",
      inputSchema: {
        language: LANGUAGE,
        keys: z.array(z.string().uuid()).optional(),
        group: z.string().optional(),
        status: z.enum(['draft', 'review']).optional(),
        dry_run: z.boolean().optional(),
      },
    },
    tool(async ({ language, ...body }: { language: string; keys?: string[]; group?: string; status?: string; dry_run?: boolean }) =>
      text(await send('POST', `/v1/translate/${seg(language)}`, body)),
    ),
  );
  server.registerTool(
    'import_file',
    {
      title: 'Import a file',
      description: `Import a translation file's content for one language (formats: ${TEXT_FORMAT_IDS.join(', ')}); dry_run shows what would change.`,
      inputSchema: {
        language: LANGUAGE,
        format: z.enum(TEXT_FORMAT_IDS as [string, ...string[]]),
        content: z.string().describe('The file as text'),
        status: STATUS.optional(),
        conflict: z.enum(['overwrite', 'keep', 'fail']).optional(),
        dry_run: z.boolean().optional(),
        tag: z.string().optional().describe('Every key of the file gets this tag, new and existing ones'),
      },
    },
    tool(async ({ language, content, format, status, conflict, dry_run, tag }: { language: string; format: string; content: string; status?: string; conflict?: string; dry_run?: boolean; tag?: string }) =>
      text(await send('POST', `/v1/import/${seg(language)}${q({ format, status, conflict, dry_run, tag })}`, content, { 'Content-Type': 'application/octet-stream' })),
    ),
  );
  server.registerTool(
    'export_file',
    {
      title: 'Export a file',
      description: `A language as a translation file (formats: ${TEXT_FORMAT_IDS.join(', ')}; xliff and xliff2 need source, the language of the source text); group exports one group, tag only the keys with that tag.`,
      inputSchema: {
        language: LANGUAGE,
        format: z.enum(TEXT_FORMAT_IDS as [string, ...string[]]),
        status: z.enum(['approved', 'draft', 'review', 'all']).optional(),
        source: LANGUAGE.optional().describe('xliff, xliff2: the source language, written beside each translation'),
        // The API's own filter (GET /v1/export/{language}?group=): the way to export a language too
        // large for one answer.
        group: z.string().optional().describe('Only the keys of this group'),
        tag: z.string().optional().describe('Only the keys with this tag'),
      },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ language, format, status, source, group, tag }: { language: string; format: string; status?: string; source?: string; group?: string; tag?: string }) =>
      // The file exactly as the server wrote it, whatever its format (cut only when too large).
      text((await send('GET', `/v1/export/${seg(language)}${q({ format, status, source, group, tag })}`, undefined, {}, true)) as string, 'export one group at a time with group (list_keys shows the groups)'),
    ),
  );
  // Tasks are the work people (and agents) are given: some keys to translate or review in one
  // language, by a day. An agent reads its task's keys still to do and works through them.
  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description:
        "The project's tasks, newest first: each one's number, name, kind (translate or review), language, state, due_date, assignees and progress (keys_done of keys_total). Filtered by state, kind, language and assignee (an email); paginated with limit and cursor.",
      inputSchema: {
        state: z.enum(['open', 'done', 'canceled']).optional(),
        kind: z.enum(['translate', 'review']).optional(),
        language: LANGUAGE.optional(),
        assignee: z.string().optional().describe("Only the tasks assigned to this member (their email)"),
        limit: z.number().int().min(1).max(200).optional(),
        cursor: z.string().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    tool(async (args: Record<string, string | number | undefined>) => text(await send('GET', `/v1/tasks${q(args)}`), 'pass a smaller limit and read the next pages with cursor, or filter by state')),
  );
  server.registerTool(
    'get_task',
    {
      title: 'Get a task',
      description:
        "One task by number, with its progress (keys_done of keys_total) and its keys: by default those still to do (the work left), each with its value's status in the task's language and whether it is outdated; 100 at a time, keys_next_cursor for the next ones (null: no more).",
      inputSchema: {
        number: TASK_NUMBER,
        keys: z.enum(['to_do', 'done', 'all']).optional().describe('Which of its keys to list: to_do (default), done or all'),
        keys_cursor: z.string().optional().describe("keys_next_cursor from the previous answer, for the task's next keys"),
      },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ number, keys = 'to_do', keys_cursor }: { number: number; keys?: 'to_do' | 'done' | 'all'; keys_cursor?: string }) => {
      const found = (await send('GET', `/v1/tasks/${number}`)) as Record<string, unknown>;
      const done = keys === 'all' ? undefined : keys === 'done';
      const page = (await send('GET', `/v1/tasks/${number}/keys${q({ done, limit: 100, cursor: keys_cursor })}`)) as { data: unknown[]; next_cursor: string | null };
      return text({ ...found, keys: page.data, keys_next_cursor: page.next_cursor }, 'read the keys a page at a time with keys_cursor');
    }),
  );
  server.registerTool(
    'create_task',
    {
      title: 'Create a task',
      description:
        'A task: some keys to translate (or review) in one language, for some assignees (portal members, by email, each allowed the work in that language), by a due_date (YYYY-MM-DD). ' +
        "The keys are key_ids, or filter: list_keys's filters as an object ({} is every key; {\"missing\": \"de\"}: the keys without a German value). " +
        'Keys already done (translate: a value in review or approved; review: approved; not outdated) are left out unless include_done, and keys already in an open task of the same kind and language unless include_tasked; the answer counts them (keys_left_out_done, keys_left_out_in_tasks). ' +
        'Refused (422) when no key is left to do. One language per task: call it once per language.',
      inputSchema: {
        name: z.string().min(1),
        language: LANGUAGE,
        kind: z.enum(['translate', 'review']).optional().describe('translate (default) or review'),
        description: z.string().optional().describe('What the people doing it should know'),
        key_ids: z.array(z.string().uuid()).min(1).max(10_000).optional().describe('The keys, by id (from list_keys); or give filter'),
        filter: z
          .object({
            search: z.string().optional(),
            group: z.string().optional(),
            tag: z.string().optional(),
            status: STATUS.optional(),
            language: LANGUAGE.optional(),
            missing: LANGUAGE.optional(),
            outdated: LANGUAGE.optional(),
            open_comments: LANGUAGE.optional(),
            task: TASK_NUMBER.optional(),
          })
          .strict()
          .optional()
          .describe("The keys list_keys's filters match ({} is every key); or give key_ids"),
        include_done: z.boolean().optional().describe('Keep the keys already done too'),
        include_tasked: z.boolean().optional().describe('Keep the keys already in an open task of the same kind and language too'),
        assignees: z.array(z.string()).max(20).optional().describe('Email addresses of portal members of the project\'s account'),
        due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day, YYYY-MM-DD').optional(),
      },
    },
    tool(async ({ kind, ...body }: { name: string; language: string; kind?: string; description?: string; key_ids?: string[]; filter?: Record<string, unknown>; include_done?: boolean; include_tasked?: boolean; assignees?: string[]; due_date?: string }) =>
      // An Idempotency-Key: the client's retry of a 500 or 503 is answered the task made, not a second one.
      text(await send('POST', '/v1/tasks', { ...body, kind: kind ?? 'translate' }, { 'Idempotency-Key': randomUUID() })),
    ),
  );
  server.registerTool(
    'publish',
    { title: 'Publish', description: 'Rebuild the cached files apps read (the approved values).', inputSchema: {} },
    tool(async () => text(await send('POST', '/v1/cache/rebuild'))),
  );
  server.registerTool(
    'cache_status',
    { title: 'Publish status', description: 'Whether the cached files are ready, when they were built, and whether a build is pending.', inputSchema: {}, annotations: { readOnlyHint: true } },
    tool(async () => text(await send('GET', '/v1/cache/status'))),
  );
  return server;
}

/** Serves until the client closes stdin, then answers the requests still running, then exits. */
export async function mcp(client: Client, apiKey: string, io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const server = createMcpServer(client, apiKey);
  const transport = new LineTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    io.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  io.stderr.write('tms mcp: serving on stdio\n');
  await closed;
  // `printf '…' | tms mcp`, or a client that closes its end after its last request: closing the
  // server now would cancel the calls still running (their writes done, their answers lost).
  await transport.answered();
  await server.close();
  return 0;
}
