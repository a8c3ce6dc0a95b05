// Prepares one migrated database template per test run; every test file then gets its own fresh
// copy (test/support/test-database.ts), so tests never share a dirty database.
// - Embedded (default): a PGlite data dir, migrated once and dumped to a tarball that files load.
// - Real Postgres (DATABASE_URL set): a template database that files clone with CREATE DATABASE.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_EXTENSIONS } from '../../core/db/embedded.ts';
import postgres from 'postgres';
import { createSql } from '../../core/db/client.ts';
import { migrate } from '../../core/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplateTarball: string;
    pgTemplateDatabase: string;
    pgAdminUrl: string;
  }
}

export const TEST_DB_PREFIX = 'tms_test_';

export default async function setup(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = `${TEST_DB_PREFIX}template_${randomBytes(4).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const sql = createSql(url.toString(), { max: 1, prepare: true, connectTimeoutSeconds: 5 });
    await migrate(sql);
    await sql.end();
    project.provide('pgTemplateDatabase', template);
    project.provide('pgAdminUrl', adminUrl);
    project.provide('pgTemplateTarball', '');
    return async () => {
      // Drop the template and every per-file copy made from it in this run.
      const dbs = await admin<{ datname: string }[]>`
        select datname from pg_database where datname like ${template + '%'} order by datname desc`;
      for (const { datname } of dbs) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const sql = createSql(`postgres://postgres@${server.getServerConn()}/postgres`, { max: 1, prepare: true, connectTimeoutSeconds: 5 });
  await migrate(sql);
  await sql.end();
  await server.stop();
  const dir = await mkdtemp(join(tmpdir(), 'tms-test-'));
  // Not compressed: each file's PGlite loads it (372 files, three times in CI), and an uncompressed
  // 42 MB tarball loads in about 0.5 s where the 5 MB gzip took 0.7-0.9 s (2026-12-03).
  const tarball = join(dir, 'template.tar');
  await writeFile(tarball, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  await db.close();
  project.provide('pgTemplateTarball', tarball);
  project.provide('pgTemplateDatabase', '');
  project.provide('pgAdminUrl', '');
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
