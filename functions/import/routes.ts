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
import { FORMATS } from '../../core/formats/index.ts';

/** Files are larger than JSON bodies: 10 MiB for this route alone (AWS: see docs/deploy.md). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** The media types the formats' files have (their exports' Content-Type), and any bytes at all. */
const FILE_MEDIA_TYPES = [...new Set(Object.values(FORMATS).map((f) => f.contentType.split(';')[0]!)), 'application/octet-stream'];
const IMPORT_DESCRIPTION = [
  'The body is the raw file: up to 10 MiB (about 4.5 MB on AWS, whose Lambda payload limit refuses more first). Query: format (default json) says how to read it; status (default draft) is what',
  'every written value gets; conflict (default overwrite) decides about existing values that differ: overwrite, keep them',
  '(counted unchanged), or fail with 409 naming the keys; dry_run=true answers the same, 402 and 409 included, and writes',
  'nothing; group (default Default) is the group of created keys whose name has no usable group prefix; namespace=G reads the file',
  'as group G alone with its keys named without the prefix (an i18next namespace file: title is the key G.title of group G); values=true adds',
  'values to the answer, every key of the file with the text the import reads for it (to compare files before importing them); tag=T gives every key',
  'the file names the tag T, created keys and existing ones alike, whatever conflict says (keys_tagged counts the existing keys that get it, each',
  'recorded as a key.updated; a key it would take past 20 tags refuses the file, 422). A file that fails to',
  'parse, or an entry over a field limit, is 422 and writes nothing; a language not registered is 404.',
].join(' ');

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .post(
    '/:language',
    describe({
      operationId: 'importFile',
      tag: 'Files',
      summary: 'Import a translation file into a language, all or nothing',
      description: IMPORT_DESCRIPTION,
      body: {
        mediaTypes: FILE_MEDIA_TYPES,
        maxBytes: MAX_IMPORT_BYTES,
        description: 'The file itself, in the format ?format names (any Content-Type is accepted: ?format decides how the body is read).',
      },
      responses: { 200: ImportResult, 402: null, 404: null, 409: null },
    }),
    validParams(LanguageParam),
    validQuery(ImportQuery),
    async (c) => {
      const { format, status, conflict, dry_run, group, namespace, values, tag } = c.req.valid('query');
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
          ...(namespace === undefined ? {} : { namespace }),
          ...(tag === undefined ? {} : { tag }),
          listValues: values,
          body,
        }),
      );
    },
  );

export const importGroup = routeGroup('import', routes, { maxBodyBytes: MAX_IMPORT_BYTES });
