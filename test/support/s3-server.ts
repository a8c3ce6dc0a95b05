// s3rver on a random port with a throwaway directory and one bucket, for S3-over-HTTP tests.
//
// s3rver runs in a child process started with --openssl-legacy-provider: its ListObjectsV2
// continuation tokens use DES, which Node 20's OpenSSL 3 only offers through the legacy
// provider, and a provider cannot be switched on inside the running vitest worker.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../../core/adapters/object-store-s3.ts';

// CommonJS run by `node -e` in the repository root, where require() finds s3rver. It prints the
// port once listening and exits when the parent closes stdin, so a crashed test run leaves no
// server behind.
const childScript = `
const S3rver = require('s3rver');
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then(({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

export async function startS3Server(): Promise<{ endpoint: string; bucket: string; client: S3Client; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const bucket = 'test-bucket';
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', childScript], {
    cwd: process.cwd(),
    env: { ...process.env, S3RVER_DIR: directory, S3RVER_BUCKET: bucket },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code} before listening`)));
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const client = createS3Client({
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, // s3rver accepts any
  });

  return {
    endpoint,
    bucket,
    client,
    async close() {
      client.destroy();
      child.stdin.end();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
