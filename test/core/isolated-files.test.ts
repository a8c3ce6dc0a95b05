// The test files run with a shared module graph per worker (vitest.config.ts, docs/decisions.md,
// "Tests share their module graph"), except those listed in ISOLATED. A file that replaces a module
// (vi.mock, vi.doMock) or stubs a global or the environment (vi.stubGlobal, vi.stubEnv) changes
// what the next file in its worker imports or sees: it must be on that list, and this says which.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

/** Whether a file is one ISOLATED's pattern names: a file's path, or a folder's `<folder>/**\/*.test.ts`. */
const matches = (file: string, pattern: string) => (pattern.endsWith('/**/*.test.ts') ? file.startsWith(pattern.slice(0, -'**/*.test.ts'.length)) : file === pattern);
const isolated = (file: string) => ISOLATED.some((pattern) => matches(file, pattern));

describe('files kept in a module graph of their own', () => {
  it('lists every file that mocks a module or stubs a global or the environment', () => {
    const files = testFiles(join(ROOT, 'test'));
    expect(files.length).toBeGreaterThan(300);
    const replacing = files.filter((file) => /\bvi\.(?:mock|doMock|stubGlobal|stubEnv)\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(replacing).toContain('test/webhooks/attempt-deadline.test.ts');
    expect(replacing.filter((file) => !isolated(file))).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    const files = testFiles(join(ROOT, 'test'));
    for (const pattern of ISOLATED) expect(files.some((file) => matches(file, pattern)), pattern).toBe(true);
  });
});
