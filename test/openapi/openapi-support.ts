// Reading an OpenAPI 3.1 document without network or libraries: JSON pointers, $ref resolution, the
// operations, and a validator for the JSON Schema subset the document uses (what a generated
// client relies on), to hold real responses against their documented schemas.

// Documents are plain JSON: walking them with `any` keeps the checks readable.
export type Doc = any;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export type Operation = { method: string; path: string; op: any; id: string };

export function operations(doc: Doc): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) list.push({ method, path, op, id: op.operationId });
    }
  }
  return list;
}

/** The value a local reference (#/a/b) points at, or undefined. */
export function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: any = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Follows $ref until a concrete object (throws on a dangling or cyclic one). */
export function deref(doc: Doc, node: any): any {
  const seen = new Set<string>();
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) throw new Error(`cyclic $ref ${node.$ref}`);
    seen.add(node.$ref);
    const target = pointer(doc, node.$ref);
    if (target === undefined) throw new Error(`dangling $ref ${node.$ref}`);
    node = target;
  }
  return node;
}

/** Every $ref in the document, with where it is. */
export function allRefs(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (node === null || typeof node !== 'object') return [];
  const found: { at: string; ref: string }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') found.push({ at, ref: value });
    else found.push(...allRefs(value, `${at}/${key}`));
  }
  return found;
}

const codePoints = (s: string) => [...s].length;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Problems of `value` against `schema` (empty when it conforms). Supports what the document uses:
 * $ref, type, enum, const, properties, required, additionalProperties, propertyNames, items, minItems,
 * maxItems, anyOf, oneOf, allOf, string length (in code points, as JSON Schema counts), pattern,
 * format uuid and date-time, minimum and maximum.
 */
export function validate(doc: Doc, schema: any, value: unknown, at = '$'): string[] {
  schema = deref(doc, schema);
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${at}: no value allowed`];
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
      return [`${at}: expected ${types.join('|')}, got ${actual}`];
    }
  }
  if (schema.enum && !schema.enum.some((e: unknown) => e === value)) problems.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if ('const' in schema && schema.const !== value) problems.push(`${at}: expected const ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && codePoints(value) > schema.maxLength) problems.push(`${at}: longer than ${schema.maxLength}`);
    if (schema.minLength !== undefined && codePoints(value) < schema.minLength) problems.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) problems.push(`${at}: does not match ${schema.pattern}`);
    if (schema.format === 'uuid' && !UUID.test(value)) problems.push(`${at}: not a uuid`);
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) problems.push(`${at}: not a date-time`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: less than ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: greater than ${schema.maximum}`);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in record)) problems.push(`${at}: missing ${name}`);
    if (schema.propertyNames) for (const name of Object.keys(record)) problems.push(...validate(doc, schema.propertyNames, name, `${at}[${JSON.stringify(name)}]`));
    for (const [name, child] of Object.entries(record)) {
      if (schema.properties && name in schema.properties) problems.push(...validate(doc, schema.properties[name], child, `${at}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${at}: unexpected ${name}`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        problems.push(...validate(doc, schema.additionalProperties, child, `${at}.${name}`));
      }
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => problems.push(...validate(doc, schema.items, item, `${at}[${i}]`)));
  if (Array.isArray(value) && schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at}: fewer than ${schema.minItems} items`);
  if (Array.isArray(value) && schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${at}: more than ${schema.maxItems} items`);
  for (const sub of schema.allOf ?? []) problems.push(...validate(doc, sub, value, at));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!schema[key]) continue;
    const passing = schema[key].filter((sub: unknown) => validate(doc, sub, value, at).length === 0).length;
    if (passing === 0) problems.push(`${at}: matches none of ${key}`);
    if (key === 'oneOf' && passing > 1) problems.push(`${at}: matches more than one of oneOf`);
  }
  return problems;
}
