// A fresh, migrated database for one test file: a PGlite clone of the run's template by default,
// or a new database cloned from the template database on real Postgres when DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import postgres from 'postgres';

export type TestDatabase =
  | { kind: 'embedded'; tarball: Blob }
  | { kind: 'postgres'; url: string; drop(): Promise<void> };

export const usingRealPostgres = () => Boolean(process.env.DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('pgTemplateDatabase');
  if (!template) {
    const bytes = await readFile(inject('pgTemplateTarball'));
    return { kind: 'embedded', tarball: new Blob([bytes]) };
  }
  const adminUrl = inject('pgAdminUrl');
  // Named after the template so that the run's teardown drops it even if this file crashed.
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  // Concurrent CREATE DATABASE ... TEMPLATE calls can collide on the template's lock: retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database ${name} template ${template}`);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    async drop() {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
