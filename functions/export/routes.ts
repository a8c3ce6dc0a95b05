// GET /v1/export/{language}: one language as a file, with a strong ETag (304 when unchanged).
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { LanguageParam } from '../http/params.ts';
import { validParams, validQuery } from '../http/validate.ts';
import { isNotModified } from '../http/conditional.ts';
import { respond } from '../http/response-headers.ts';
import { routeGroup } from '../http/route-group.ts';
import { ExportQuery } from '../../core/files/schemas.ts';
import { exportFile } from '../../core/files/export-file.ts';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/:language',
    describe({
      tag: 'Files',
      summary: "Export a language's values as a file (?format, ?status=approved|review|draft|all, ?group, ?source for XLIFF)",
      responses: { 200: null, 304: null, 404: null },
    }),
    validParams(LanguageParam),
    validQuery(ExportQuery),
    async (c) => {
      const query = c.req.valid('query');
      const file = await exportFile(c.get('deps'), {
        projectId: c.get('principal').projectId,
        language: c.req.valid('param').language,
        format: query.format,
        status: query.status,
        ...(query.group === undefined ? {} : { group: query.group }),
        ...(query.source === undefined ? {} : { source: query.source }),
      });
      // Live data: the client may keep it, but must revalidate (cheaply: 304) before each use.
      const headers: Record<string, string> = { ETag: file.etag, 'Cache-Control': 'private, no-cache' };
      if (isNotModified(c.req.header('if-none-match'), [file.etag])) return respond(c, null, 304, headers);
      headers['Content-Type'] = file.contentType;
      headers['Content-Disposition'] = `attachment; filename="${file.filename}"`;
      return respond(c, file.body as Uint8Array<ArrayBuffer>, 200, headers);
    },
  );

export const exportGroup = routeGroup('export', routes);
