// The one list of what the service deploys: every Lambda, the path prefix its route group serves,
// the ports it needs and its bundle budget. Everything else derives from it and is checked against
// it: stacks/api.ts and stacks/queue.ts create one function per entry and link what its ports need,
// scripts/bundle.ts bundles each entry and allows exactly the cloud SDKs of its ports,
// functions/route-groups.ts mounts the groups in this order locally (and fails to compile without
// one for every HTTP entry), and test/support/lambda-events.ts routes events with these prefixes.
//
// Plain data with no imports: the SST stacks read it while SST evaluates the infrastructure, where
// application code (Hono, postgres.js) has no business being loaded.

/**
 * What a function needs from outside. Each maps to SST links (stacks/) and, in a bundle, to the one
 * cloud SDK it may carry (scripts/bundle.ts): database (postgres.js, DatabaseUrl), counters (the
 * daily quota: Upstash REST), queue (the rebuild queue: SQS), objects (the cache bucket: S3),
 * adminToken (the admin API's secret), deadLetter (the builder moves unreadable messages there),
 * machineTranslation (the provider's settings and key, as SST secrets: only the translate and portal functions hold them),
 * edge (the CloudFront distribution: the builder invalidates the cached paths a build changed),
 * webhooks (the webhook delivery queue: SQS).
 */
export type Port = 'database' | 'counters' | 'queue' | 'objects' | 'adminToken' | 'deadLetter' | 'machineTranslation' | 'edge' | 'webhooks';

export type CatalogueEntry = {
  /** Lower-case name: functions/<dir>/, dist/lambda/<name>/, and the key of stacks' `functions`. */
  name: string;
  /** The SST component name; the Lambda is `${component}Function`. Renaming one replaces the Lambda. */
  component: string;
  /** The directory under functions/ holding handler.ts (and routes.ts for HTTP groups). */
  dir: string;
  /** HTTP groups: the path prefix API Gateway routes to this function (`ANY p`, `ANY p/{proxy+}`). */
  prefix?: string;
  /** Extra API Gateway routes served by the same function. */
  extraRoutes?: string[];
  ports: Port[];
  /** Fail the bundle check above this many KiB of minified output (scripts/bundle.ts). */
  budgetKb: number;
  /** One line for the Lambda's description and docs/deploy.md. */
  purpose: string;
};

/**
 * Packages no Lambda bundles. hono-openapi's schema converters import zod's lazily, for zod schemas,
 * which this code never has (every schema is valibot); the CLI's MCP SDK puts zod in node_modules,
 * where esbuild would otherwise find and bundle it (about 470 KB per function). Left as imports
 * that never run. sst.config.ts and scripts/bundle.ts both pass this to esbuild.
 */
export const NEVER_BUNDLED = ['zod', 'zod/*', 'zod-to-json-schema', 'zod-openapi', 'zod-openapi/*'];

// Budgets: each function's measured size (`npm run bundle:check`) plus about 25%, so that ordinary
// growth passes and an SDK or a format library pulled in by accident fails. See docs/deploy.md.
export const CATALOGUE = [
  { name: 'health', component: 'Health', dir: 'health', prefix: '/health', extraRoutes: ['/openapi.json'], ports: ['database', 'counters'], budgetKb: 565, purpose: 'Health and the OpenAPI document; answers unrouted paths' },
  { name: 'keys', component: 'Keys', dir: 'keys', prefix: '/v1/keys', ports: ['database', 'counters', 'queue'], budgetKb: 760, purpose: 'Keys, single values (PUT/DELETE /v1/keys/{id}/translations/{language}) and their comments' },
  { name: 'groups', component: 'Groups', dir: 'groups', prefix: '/v1/groups', ports: ['database', 'counters', 'queue'], budgetKb: 720, purpose: 'Groups' },
  { name: 'languages', component: 'Languages', dir: 'languages', prefix: '/v1/languages', ports: ['database', 'counters', 'queue'], budgetKb: 720, purpose: 'Project languages' },
  { name: 'translations', component: 'Translations', dir: 'translations', prefix: '/v1/translations', ports: ['database', 'counters'], budgetKb: 320, purpose: 'Live reads' },
  { name: 'manifest', component: 'Manifest', dir: 'manifest', prefix: '/v1/manifest', ports: ['database', 'counters'], budgetKb: 300, purpose: 'Live manifest' },
  { name: 'cacheBuilds', component: 'CacheBuilds', dir: 'cache-builds', prefix: '/v1/cache', ports: ['database', 'counters', 'queue', 'objects'], budgetKb: 880, purpose: 'Queue a rebuild, read the build status' },
  { name: 'cached', component: 'Cached', dir: 'cached', prefix: '/v1/cached', ports: ['database', 'counters', 'objects'], budgetKb: 860, purpose: 'Prebuilt translation files (behind CloudFront)' },
  { name: 'import', component: 'Import', dir: 'import', prefix: '/v1/import', ports: ['database', 'counters', 'queue'], budgetKb: 1000, purpose: 'File import (every format)' },
  { name: 'export', component: 'Export', dir: 'export', prefix: '/v1/export', ports: ['database', 'counters'], budgetKb: 600, purpose: 'File export (every format)' },
  { name: 'translate', component: 'Translate', dir: 'translate', prefix: '/v1/translate', ports: ['database', 'counters', 'queue', 'machineTranslation'], budgetKb: 800, purpose: 'Bulk translation: translation memory, then the configured machine translation provider' },
  { name: 'glossary', component: 'Glossary', dir: 'glossary', prefix: '/v1/glossary', ports: ['database', 'counters'], budgetKb: 400, purpose: "The project's glossary terms" },
  { name: 'screenshots', component: 'Screenshots', dir: 'screenshots', prefix: '/v1/screenshots', ports: ['database', 'counters', 'objects'], budgetKb: 965, purpose: 'Screenshots: images of the product linked to the keys they show' },
  { name: 'tasks', component: 'Tasks', dir: 'tasks', prefix: '/v1/tasks', ports: ['database', 'counters'], budgetKb: 425, purpose: 'Tasks: keys to translate or review in one language, for assignees, by a due day' },
  { name: 'usage', component: 'Usage', dir: 'usage', prefix: '/v1/usage', ports: ['database', 'counters'], budgetKb: 300, purpose: 'Calls today and translation units this cycle' },
  { name: 'admin', component: 'Admin', dir: 'admin', prefix: '/admin/v1', ports: ['database', 'counters', 'queue', 'adminToken'], budgetKb: 830, purpose: 'Accounts, projects, API keys, webhooks (admin token)' },
  { name: 'portal', component: 'Portal', dir: 'portal', prefix: '/portal', ports: ['database', 'counters', 'queue', 'objects', 'adminToken', 'machineTranslation'], budgetKb: 1660, purpose: 'The portal: pages for owners, developers, reviewers and translators' },
  { name: 'builder', component: 'Builder', dir: 'builder', ports: ['database', 'objects', 'deadLetter', 'edge'], budgetKb: 890, purpose: 'Builds the cached files of one project per queue message' },
  { name: 'webhooks', component: 'Webhooks', dir: 'webhooks', ports: ['database', 'objects', 'webhooks'], budgetKb: 700, purpose: 'Sends webhook deliveries from their queue; every minute, turns the outbox into deliveries' },
] as const satisfies readonly CatalogueEntry[];

export type FunctionName = (typeof CATALOGUE)[number]['name'];
/** The entries that serve HTTP through a route group. */
export type HttpFunctionName = Extract<(typeof CATALOGUE)[number], { prefix: string }>['name'];

export const HTTP_FUNCTIONS: readonly (CatalogueEntry & { prefix: string })[] = CATALOGUE.filter(
  (e): e is Extract<(typeof CATALOGUE)[number], { prefix: string }> => 'prefix' in e,
);

/** The Lambda `handler` setting of an entry: `<file without extension>.<export>`. */
export const handlerOf = (entry: CatalogueEntry) => `functions/${entry.dir}/handler.handler`;
/** The entry file of an entry, as the bundler takes it. */
export const entryFileOf = (entry: CatalogueEntry) => `functions/${entry.dir}/handler.ts`;

export function catalogueEntry(name: FunctionName): CatalogueEntry {
  return CATALOGUE.find((e) => e.name === name)!;
}
