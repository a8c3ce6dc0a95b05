// POST /v1/import/{language}: a whole translation file in the body, in any supported format.
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { LanguageParam } from '../http/params.ts';
import { validParams, validQuery } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { ImportQuery, ImportResult } from '../../core/files/schemas.ts';
import { importFile } from '../../core/files/import-file.ts';

/** Files are larger than JSON bodies: 10 MiB for this route alone (AWS: see docs/deploy.md). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .post(
    '/:language',
    describe({
      tag: 'Files',
      summary:
        'Import a translation file (the raw file as the body, up to 10 MiB) into a language: all or nothing; ?format, ?status, ?conflict=overwrite|keep|fail, ?dry_run, ?group',
      responses: { 200: ImportResult, 402: null, 404: null, 409: null, 413: null },
    }),
    validParams(LanguageParam),
    validQuery(ImportQuery),
    async (c) => {
      const { format, status, conflict, dry_run, group } = c.req.valid('query');
      const body = new Uint8Array(await c.req.arrayBuffer());
      return c.json(
        await importFile(c.get('deps'), {
          ...keyScope(c),
          language: c.req.valid('param').language,
          format,
          status,
          conflict,
          dryRun: dry_run,
          group,
          body,
        }),
      );
    },
  );

export const importGroup = routeGroup('import', routes, { maxBodyBytes: MAX_IMPORT_BYTES });
