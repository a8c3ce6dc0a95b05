// `tms mcp --help`, apart from the server itself: main.ts loads the MCP SDK and zod (about 0.4 s of
// every start) only when `tms mcp` runs, not for `tms push --help` or a usage error.
export const MCP_HELP = `tms mcp: a Model Context Protocol server on stdio, for AI agents

Run by an MCP client, not by hand. The server is --server, else TMS_SERVER, else tms.config.json's;
the key is TMS_API_KEY (or --api-key). A delivery key (delivery_...) gets only the read tools.

  Claude Code:  claude mcp add tms --env TMS_API_KEY=key_live_... -- tms mcp --server https://tms.example.com
  Other clients: command "tms", args ["mcp", "--server", "<url>"], env {"TMS_API_KEY": "<key>"}
With tms installed globally (npm install -g ./cli, or the packed tarball). Where it is a project's
dev dependency instead: command "npx", args ["--no-install", "tms", "mcp", ...]; a bare "npx tms"
outside that project would fetch the unrelated "tms" package from the npm registry.

Tools: list_keys, get_key, create_key, tag_keys, get_glossary, add_glossary_term, get_screenshots, get_translations,
get_value, set_translation, mark_up_to_date, list_comments, add_comment, resolve_comment, suggest_translations,
translate_missing, import_file, export_file, list_tasks, get_task, create_task, publish, cache_status (a delivery key:
get_manifest, get_cached_translations).`;
