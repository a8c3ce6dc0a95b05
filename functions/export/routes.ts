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
import { FORMATS } from '../../core/formats/index.ts';

// Each format's media type; JSON formats are objects (flat or nested by format), the text formats
// (those with a charset) text, and an Excel workbook bytes.
const fileSchema = (contentType: string, type: string) =>
  type === 'application/json' ? { type: 'object', additionalProperties: true } : contentType.includes('charset=') ? { type: 'string' } : { type: 'string', format: 'binary' };
const FILE_CONTENT = Object.fromEntries(
  Object.values(FORMATS).map((f) => {
    const type = f.contentType.split(';')[0]!;
    return [type, { schema: fileSchema(f.contentType, type) }];
  }),
);
const EXPORT_DESCRIPTION = [
  'Query: format (default json); status (default approved; all for every status); group (only that group);',
  'namespace=G (only group G, its keys named without the G. prefix: an i18next namespace file);',
  'source (the source language: required by xliff and xliff2; csv and xlsx then write its text in a column named after it, before the exported language\'s, and a row for every key that has one); plurals=only (only the keys whose value in this language holds an ICU plural)',
  'or plurals=none (only the others), so that an ios-stringsdict file and an ios-strings file of one language split the keys;',
  'tag (only the keys with that tag, exact and case kept; with the other filters; a text that could never be a tag gives an empty file);',
  'pseudo=CODE (the file of a pseudo-language CODE, such as en-XA, that is no language of the project: this language\'s values with every letter accented,',
  'lengthened as translations run, between brackets; placeholders, tags and ICU syntax kept; to find hard-coded, cut and overflowing texts). The bytes are the same whenever the data is the same:',
  'the strong ETag lets a client revalidate with If-None-Match (304, no body, not counted against the daily quota).',
  'A language (or source) not registered is 404; a value the format cannot carry, or xliff without source, is 422.',
].join(' ');

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/:language',
    describe({
      operationId: 'exportFile',
      tag: 'Files',
      summary: "Export a language's values as a file",
      description: EXPORT_DESCRIPTION,
      headers: ['IfNoneMatch'],
      responses: {
        200: {
          description: 'The file, in the media type of its format (charset=utf-8, except xlsx: a workbook is bytes), as an attachment',
          content: FILE_CONTENT,
          headers: ['ETag', 'Cache-Control', 'Content-Disposition'],
        },
        304: { headers: ['ETag', 'Cache-Control'] },
        404: null,
      },
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
        ...(query.namespace === undefined ? {} : { namespace: query.namespace }),
        ...(query.source === undefined ? {} : { source: query.source }),
        plurals: query.plurals,
        ...(query.tag === undefined ? {} : { tag: query.tag }),
        ...(query.pseudo === undefined ? {} : { pseudo: query.pseudo }),
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
