// Every use-case is `verb(deps, input)`: one input object, validated here with the same valibot
// schemas the HTTP routes describe themselves with, so every caller (HTTP, portal, CLI import,
// builder) gets the same rules; and every database error leaves as a domain error (db/errors.ts).
import * as v from 'valibot';
import { validationError } from './errors.ts';
import { toDomainError } from './db/errors.ts';

type Schema = v.GenericSchema<unknown, unknown>;

export function parseInput<S extends Schema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw validationError(
    result.issues.map((issue) => {
      const loc = (issue.path ?? []).map((p) => p.key as string | number);
      const missing = issue.kind === 'schema' && issue.received === 'undefined';
      return { loc, msg: missing ? 'Field required' : issue.message, type: missing ? 'missing' : issue.type };
    }),
  );
}

export function useCase<S extends Schema, D, R>(
  schema: S,
  run: (deps: D, input: v.InferOutput<S>) => Promise<R>,
): (deps: D, input: v.InferInput<S>) => Promise<R> {
  return async (deps, input) => {
    const parsed = parseInput(schema, input);
    try {
      return await run(deps, parsed);
    } catch (error) {
      throw toDomainError(error);
    }
  };
}
