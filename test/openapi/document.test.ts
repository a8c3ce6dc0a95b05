// /openapi.json is complete enough for a generated client (openapi-typescript and the like) to type
// every call: the checks such a generator relies on, done locally on the document the app serves,
// and the facts the document repeats (limits, patterns) held against the validators that enforce them.
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { describedApp, generateOpenApi } from '../../scripts/openapi.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { docsGroup } from '../../functions/docs/routes.ts';
import { LanguageCode } from '../../core/languages/language-code.ts';
import { GroupName, KeyName, storableText } from '../../core/validation.ts';
import { FORMATS } from '../../core/formats/index.ts';
import { allRefs, deref, operations, pointer, type Doc, type Operation } from './openapi-support.ts';

let doc: Doc;
let ops: Operation[];
beforeAll(async () => {
  doc = JSON.parse(await generateOpenApi());
  ops = operations(doc);
});

const op = (id: string) => {
  const found = ops.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const params = (o: Operation) => (o.op.parameters ?? []).map((p: unknown) => deref(doc, p));
const jsonBody = (o: Operation) => deref(doc, o.op.requestBody?.content?.['application/json']?.schema);
const successSchema = (o: Operation, status: string) => deref(doc, deref(doc, o.op.responses[status]).content?.['application/json']?.schema);
const JSON_SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** The id hono-openapi would make up from the path (putV1KeysByKeyIdTranslationsByLanguage). */
function generatedId(method: string, path: string): string {
  const pascal = (s: string) =>
    s
      .split(/[\W_]+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('');
  return path
    .split('/')
    .reduce((id, seg) => id + (seg.startsWith('{') ? `By${pascal(seg.slice(1, -1))}` : pascal(seg)), method);
}

describe('the document', () => {
  it('is OpenAPI 3.1 with info, and every $ref in it resolves to something in it', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    const refs = allRefs(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const { at, ref } of refs) {
      expect(ref, at).toMatch(/^#\/components\/(schemas|responses|parameters|headers)\/[\w.-]+$/);
      expect(pointer(doc, ref), `${at}: ${ref}`).toBeDefined();
    }
  });

  it('names every operation with an explicit, readable, unique operationId', () => {
    expect(ops.length).toBeGreaterThanOrEqual(30);
    const ids = ops.map((o) => o.id);
    expect(new Set(ids).size, `duplicates: ${ids.filter((id, i) => ids.indexOf(id) !== i)}`).toBe(ids.length);
    for (const o of ops) {
      expect(o.id, `${o.method} ${o.path}`).toMatch(/^[a-z][a-zA-Z]+$/);
      expect(o.id, `${o.method} ${o.path}: generated from the path, not chosen`).not.toBe(generatedId(o.method, o.path));
    }
    expect(op('putTranslation').path).toBe('/v1/keys/{key_id}/translations/{language}');
    expect(op('importFile').path).toBe('/v1/import/{language}');
    expect(op('exportFile').path).toBe('/v1/export/{language}');
    expect(op('readUsage').path).toBe('/v1/usage');
  });

  it('documents every route of the app, each with an operationId', () => {
    // The document itself, the page showing it and the portal's pages are not operations of the API.
    const undocumented = (path: string) =>
      path === '/openapi.json' || [docsGroup.prefix, '/portal'].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    const routes = describedApp([...allRouteGroups, docsGroup]).routes.filter((r) => r.method !== 'ALL' && !undocumented(r.path));
    const seen = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(seen.size).toBeGreaterThanOrEqual(30);
    for (const id of seen) {
      const [method, path] = id.split(' ') as [string, string];
      const documented = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(documented?.operationId, `${id} has no operation in /openapi.json`).toBeTruthy();
    }
    expect(ops.length, 'operations without a route').toBe(seen.size);
  });

  it('gives every operation a 2xx answer, with a body schema unless it is a 204', () => {
    for (const o of ops) {
      const success = Object.keys(o.op.responses).filter((s) => /^2\d\d$/.test(s));
      expect(success.length, o.id).toBeGreaterThan(0);
      for (const status of success) {
        const response = deref(doc, o.op.responses[status]);
        expect(response.description, `${o.id} ${status}`).toBeTruthy();
        if (status === '204') {
          expect(response.content, `${o.id} 204 has no body`).toBeUndefined();
          continue;
        }
        const media = Object.entries<any>(response.content ?? {});
        expect(media.length, `${o.id} ${status} has no body schema`).toBeGreaterThan(0);
        for (const [type, { schema }] of media) expect(schema, `${o.id} ${status} ${type}`).toBeTruthy();
      }
    }
  });

  it('answers every error with the one envelope, and never a 400 (invalid input is 422)', () => {
    const envelope = doc.components.schemas.Error;
    expect(envelope.required).toEqual(['detail']);
    for (const o of ops) {
      expect(o.op.responses['400'], `${o.id} documents a 400`).toBeUndefined();
      for (const [status, raw] of Object.entries<any>(o.op.responses)) {
        if (Number(status) < 400) continue;
        if (o.id === 'checkHealth' && status === '503') continue; // the degraded health report itself
        const schema = deref(doc, raw).content?.['application/json']?.schema;
        expect(schema, `${o.id} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    // Each cross-cutting answer: 401 unless public; 403 and 429 with an API key; 500 everywhere.
    for (const o of ops) {
      const statuses = Object.keys(o.op.responses);
      const scheme = Object.keys(o.op.security?.[0] ?? {})[0];
      expect(statuses, o.id).toContain('500');
      if (scheme) expect(statuses, o.id).toContain('401');
      if (scheme === 'apiKey') expect(statuses, o.id).toEqual(expect.arrayContaining(['403', '429']));
    }
    const rateLimited = deref(doc, op('listKeys').op.responses['429']);
    expect(Object.keys(rateLimited.headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit']));
  });

  it('declares every path parameter once, required, and only those in the path', () => {
    for (const o of ops) {
      const inPath = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = params(o).filter((p: any) => p.in === 'path');
      expect(declared.map((p: any) => p.name).sort(), o.id).toEqual([...inPath].sort());
      for (const p of declared) expect(p.required, `${o.id} ${p.name}`).toBe(true);
      const keys = params(o).map((p: any) => `${p.in} ${p.name}`);
      expect(new Set(keys).size, `${o.id}: a parameter twice`).toBe(keys.length);
      for (const p of params(o)) {
        expect(['path', 'query', 'header', 'cookie'], `${o.id} ${p.name}`).toContain(p.in);
        expect(p.schema, `${o.id} ${p.name}`).toBeTruthy();
      }
    }
  });

  it('documents 422 exactly where there is input to refuse', () => {
    for (const o of ops) {
      // A write that takes no body still refuses one that has fields (noBody() in validate.ts).
      const input = o.method !== 'get' || o.op.requestBody !== undefined || params(o).some((p: any) => p.in === 'path' || p.in === 'query');
      expect('422' in o.op.responses, `${o.id}: ${input ? 'takes input but has no 422' : 'has a 422 but takes no input'}`).toBe(input);
    }
  });

  it('documents on every write what its body can be refused with: 413 over the limit, 415 unless it takes any bytes', () => {
    for (const o of ops.filter((o) => o.method !== 'get')) {
      const statuses = Object.keys(o.op.responses);
      expect(statuses, o.id).toEqual(expect.arrayContaining(['413', '422']));
      const takesFile = Object.values<any>(o.op.requestBody?.content ?? {}).some((m) => m.schema?.format === 'binary');
      expect(statuses.includes('415'), `${o.id}: 415 ${takesFile ? 'documented for a file body' : 'missing'}`).toBe(!takesFile);
    }
  });

  it('uses only declared security schemes and tags, as each route group authenticates', () => {
    const tags = new Set(doc.tags.map((t: { name: string }) => t.name));
    for (const o of ops) {
      for (const tag of o.op.tags) expect(tags, `${o.id} tag ${tag}`).toContain(tag);
      for (const requirement of o.op.security ?? []) for (const name of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(name);
      const expected = o.path.startsWith('/v1/') ? [{ apiKey: [] }] : o.path.startsWith('/admin/') ? [{ adminToken: [] }] : [];
      expect(o.op.security, o.id).toEqual(expected);
    }
  });

  it('has well-formed schemas: known types, required names that exist, patterns that compile, sane lengths', () => {
    const walk = (node: any, at: string) => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}[${i}]`));
      if ('type' in node && typeof node.type === 'string' && !('in' in node)) expect(JSON_SCHEMA_TYPES, at).toContain(node.type);
      if (Array.isArray(node.required) && node.properties) for (const r of node.required) expect(node.properties, `${at} required ${r}`).toHaveProperty(r);
      if (typeof node.pattern === 'string') expect(() => new RegExp(node.pattern, 'u'), at).not.toThrow();
      for (const k of ['minLength', 'maxLength'] as const) if (k in node) expect(Number.isInteger(node[k]) && node[k] >= 0, `${at} ${k}`).toBe(true);
      if ('minLength' in node && 'maxLength' in node) expect(node.minLength, at).toBeLessThanOrEqual(node.maxLength);
      for (const [k, child] of Object.entries(node)) walk(child, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components.schemas, '#/components/schemas');
  });
});

describe('limits and patterns (spec sections 2 and 8)', () => {
  const LANGUAGE = /^\^\(\[A-Za-z\]\{2,3\}\)/;

  it('states the field limits on the bodies that take them', () => {
    const key = jsonBody(op('createKey')).properties;
    expect(key.key).toMatchObject({ type: 'string', minLength: 1, maxLength: 500 });
    expect(key.group_name).toMatchObject({ type: 'string', maxLength: 200, pattern: expect.any(String) });
    expect(key.description.anyOf).toContainEqual({ type: 'string', maxLength: 1000 });
    const update = jsonBody(op('updateKey')).properties;
    expect(update.group_name.maxLength).toBe(200);
    expect(update.description.anyOf).toContainEqual({ type: 'string', maxLength: 1000 });
    expect(jsonBody(op('putTranslation')).properties.value).toMatchObject({ type: 'string', maxLength: 10_000 });
    expect(jsonBody(op('putTranslation')).properties.status.enum).toEqual(['draft', 'review', 'approved']);
    expect(jsonBody(op('validateGroup')).properties.name).toMatchObject({ minLength: 1, maxLength: 200, pattern: expect.any(String) });
    expect(jsonBody(op('renameGroup')).properties.new_name.pattern).toBe(jsonBody(op('validateGroup')).properties.name.pattern);
    expect(jsonBody(op('addLanguage')).properties.code.pattern).toMatch(LANGUAGE);
  });

  it('gives every language parameter the language pattern', () => {
    let seen = 0;
    for (const o of ops) {
      for (const p of params(o)) {
        if (!['language', 'code', 'source'].includes(p.name)) continue;
        seen++;
        expect(p.schema.pattern, `${o.id} ${p.name}`).toMatch(LANGUAGE);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(12);
  });

  it('has patterns and limits that agree with the validators', () => {
    const language = new RegExp(jsonBody(op('addLanguage')).properties.code.pattern, 'u');
    for (const code of ['de', 'pt-BR', 'pt-br', 'zh-Hant', 'fil', 'DE', 'x', 'deutsch', 'de_DE', 'de-', 'de-DE-1901', 'de-12', '', 'de-Latn1']) {
      expect(language.test(code), code).toBe(v.is(LanguageCode, code));
    }
    const group = new RegExp(jsonBody(op('validateGroup')).properties.name.pattern, 'u');
    // The pattern is what a client can check; the validator also refuses names edged by spaces.
    for (const name of ['home', 'Ünïcode 名前', 'a.b-c_d e', '1', 'x'.repeat(200), 'x'.repeat(201), '', 'a/b', 'a\u0000', 'emoji 👋']) {
      expect(group.test(name), JSON.stringify(name)).toBe(v.is(GroupName, name));
    }
    expect(v.is(GroupName, ' home')).toBe(false);
    // Limits count code points, as JSON Schema's maxLength does: 500 emoji (1,000 UTF-16 units) fit.
    const limits: [v.GenericSchema, number][] = [
      [KeyName, jsonBody(op('createKey')).properties.key.maxLength],
      [storableText('value', 10_000), jsonBody(op('putTranslation')).properties.value.maxLength],
      [storableText('description', 1_000), 1_000],
    ];
    for (const [schema, max] of limits) {
      expect(v.is(schema, '👋'.repeat(max)), `${max} code points`).toBe(true);
      expect(v.is(schema, '👋'.repeat(max + 1)), `${max + 1} code points`).toBe(false);
    }
  });
});

describe('responses a client can type', () => {
  it('gives the cached reads their bodies (the live shapes at status=approved)', () => {
    const language = successSchema(op('readCachedLanguageTranslations'), '200');
    expect(language.properties.status_filter.const).toBe('approved');
    expect(language.properties.translations.additionalProperties).toEqual({ type: 'string' });
    const group = successSchema(op('readCachedGroupTranslations'), '200');
    expect(group.required).toEqual(expect.arrayContaining(['project_id', 'language', 'group', 'count', 'translations']));
    expect(successSchema(op('readCachedKeyTranslation'), '200').required).toEqual(['value']);
    // The cached manifest: the live one's fields, plus the build and each language's URL and ETag.
    const cachedManifest = successSchema(op('readCachedManifest'), '200');
    const liveManifest = successSchema(op('readManifest'), '200');
    expect(cachedManifest.required).toEqual([...liveManifest.required, 'build_id', 'built_at']);
    const cachedEntry = deref(doc, cachedManifest.properties.languages.items);
    const liveEntry = deref(doc, liveManifest.properties.languages.items);
    expect(cachedEntry.required).toEqual([...liveEntry.required, 'url', 'etag']);
    for (const [name, schema] of Object.entries(liveEntry.properties)) expect(cachedEntry.properties[name], name).toEqual(schema);
    for (const id of [
      'readCachedManifest',
      'readCachedLanguageTranslations',
      'readCachedGroupTranslations',
      'readCachedKeyTranslation',
      'readBuildLanguageTranslations',
      'readBuildGroupTranslations',
    ]) {
      const o = op(id);
      expect(Object.keys(deref(doc, o.op.responses['200']).headers), id).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
      expect(o.op.responses['304'], id).toBeDefined();
      expect(o.op.responses['503'], id).toBeDefined();
      expect(params(o).map((p: any) => p.name), id).toContain('If-None-Match');
    }
  });

  it('documents the import: a raw body of any format up to 10 MiB, and its query', () => {
    const o = op('importFile');
    const body = o.op.requestBody;
    expect(body.required).toBe(true);
    expect(body.description).toContain('10 MiB');
    const types = Object.keys(body.content);
    for (const codec of Object.values(FORMATS)) expect(types).toContain(codec.contentType.split(';')[0]);
    expect(types).toContain('application/octet-stream');
    // The bytes, except under application/json, where the body is the JSON file itself: a binary
    // string there is a JSON string to a generated client (openapi-fetch would send it quoted).
    for (const [type, media] of Object.entries<any>(body.content)) {
      if (type === 'application/json') expect(media.schema).toMatchObject({ type: 'object' });
      else expect(media.schema, type).toEqual({ type: 'string', format: 'binary' });
    }
    const query = Object.fromEntries(params(o).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema]));
    expect(Object.keys(query).sort()).toEqual(['conflict', 'dry_run', 'format', 'group', 'namespace', 'status', 'tag', 'values']);
    expect(query.format.enum).toEqual(Object.keys(FORMATS));
    expect(query.conflict.enum).toEqual(['overwrite', 'keep', 'fail']);
    expect(Object.keys(o.op.responses)).toEqual(expect.arrayContaining(['200', '402', '404', '409', '413', '422']));
    expect(o.op.responses['415'], 'any Content-Type is accepted').toBeUndefined();
  });

  it('types every limit as an integer, as generated clients then take it (limit: 10)', () => {
    const limits = ops.flatMap((o) => params(o).filter((p: any) => p.in === 'query' && p.name === 'limit').map((p: any) => [o.id, p.schema] as const));
    expect(limits.map(([id]) => id)).toEqual(expect.arrayContaining(['listKeys', 'listAccounts', 'listProjects', 'listApiKeys', 'suggestTranslations']));
    for (const [id, schema] of limits) {
      expect(schema.type, id).toBe('integer');
      if (schema.default !== undefined) expect(typeof schema.default, id).toBe('number');
    }
  });

  it("declares the daily standing's headers on every success answer to an API key, and a server relative to the document", () => {
    for (const o of ops.filter((o) => o.op.security?.some((s: any) => 'apiKey' in s))) {
      for (const [status, response] of Object.entries<any>(o.op.responses).filter(([status]) => /^(2\d\d|304)$/.test(status))) {
        const headers = Object.keys(deref(doc, response).headers ?? {});
        expect(headers, `${o.id} ${status}`).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy']));
      }
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('marks a JSON body optional exactly where the route reads none as {} (optionalJsonBody)', () => {
    // Hono registers each middleware of a route as its own entry: the route's path and method, the handler.
    const optional = new Set(
      describedApp()
        .routes.filter((r) => r.handler.name === 'optionalJsonBody')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    expect([...optional].sort()).toEqual(['post /admin/v1/accounts/{account_id}/invitations', 'post /admin/v1/projects/{project_id}/api-keys']);
    for (const o of ops.filter((o) => o.op.requestBody?.content?.['application/json'])) {
      expect(o.op.requestBody.required, o.id).toBe(!optional.has(`${o.method} ${o.path}`));
    }
  });

  it('documents the export: each format as its media type, the ETag and the 304', () => {
    const o = op('exportFile');
    const ok = deref(doc, o.op.responses['200']);
    for (const codec of Object.values(FORMATS)) expect(Object.keys(ok.content)).toContain(codec.contentType.split(';')[0]);
    expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(['ETag', 'Content-Disposition']));
    expect(Object.keys(deref(doc, o.op.responses['304']).headers)).toContain('ETag');
    expect(deref(doc, o.op.responses['304']).content).toBeUndefined();
    expect(params(o).map((p: any) => p.name)).toEqual(expect.arrayContaining(['format', 'status', 'group', 'source', 'If-None-Match']));
  });
});
