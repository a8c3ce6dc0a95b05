// The health Lambda serves functions/lambda/openapi.json, written at build time by scripts/openapi.ts
// so that the function bundles no other route group. It must be what the local server generates.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, generateOpenApi } from '../../scripts/openapi.ts';

describe('the OpenAPI document the health Lambda serves', () => {
  it('is up to date with the route groups (else: npx tsx scripts/openapi.ts)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    expect(committed, 'functions/lambda/openapi.json is stale: run `npx tsx scripts/openapi.ts`').toBe(await generateOpenApi());
  });
});
