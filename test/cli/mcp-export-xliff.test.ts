// `tms mcp`'s export_file for the formats that need a source language, as the official SDK's client calls it.
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';

const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'tms.js');

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
let p: TestProject;
let agent: Client;

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' })).json()) as { id: string };
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: 'Welcome', status: 'approved' })).status).toBe(200);
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Willkommen', status: 'approved' })).status).toBe(200);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--server', base],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMS_API_KEY: p.apiKey },
    stderr: 'pipe',
  });
  agent = new Client({ name: 'review-agent', version: '1.0.0' });
  await agent.connect(transport);
}, 60_000);
afterAll(async () => {
  await agent?.close();
  await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;

describe('tms mcp tools', () => {
  // The export of xliff and xliff2 needs ?source=<language> (pull sends it: cli/src/commands/pull.ts).
  for (const format of ['xliff', 'xliff2']) {
    it(`export_file exports ${format}, a format its description offers`, async () => {
      const { tools } = await agent.listTools();
      const exportTool = tools.find((tool) => tool.name === 'export_file')!;
      expect(exportTool.description).toContain(format);
      const result = await agent.callTool({ name: 'export_file', arguments: { language: 'de', format, source: 'en' } });
      expect(textOf(result)).not.toMatch(/needs source/);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('Willkommen');
      expect(textOf(result)).toContain('Welcome');
    }, 30_000);
  }
});
