// TMS_ADMIN_TOKEN must be a token an Authorization header can carry: visible ASCII (RFC 6750). A
// space inside (a passphrase) or a non-ASCII character (read back as latin1 bytes by Node) was
// accepted at start and then refused on every request; now it stops the start with the reason.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { resolveAdminToken } from '../../core/auth/admin-token.ts';

const refusal = (token: string): unknown => {
  try {
    loadConfig({ TMS_ADMIN_TOKEN: token });
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('TMS_ADMIN_TOKEN', () => {
  it.each([
    ['a space inside (a passphrase)', 'correct horse battery staple'],
    ['a tab inside', 'abc\tdef'],
    ['a non-ASCII letter', 'geheimes-Passwört-2026'],
    ['an emoji', 'token-🔑-0123456789'],
    ['a control character', 'abc\u0001def'],
  ])('with %s stops the start with a ConfigError naming it', (_name, token) => {
    const error = refusal(token);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/TMS_ADMIN_TOKEN: must be visible ASCII/);
    // The message never repeats the token.
    expect((error as Error).message).not.toContain(token);
  });

  it('visible ASCII, punctuation included, is accepted; spaces around it are trimmed as for every setting', () => {
    const token = '!"#$%&\'()*+,-./0-9:;<=>?@A~_{|}`^[\\]';
    expect(loadConfig({ TMS_ADMIN_TOKEN: token }).TMS_ADMIN_TOKEN).toBe(token);
    expect(loadConfig({ TMS_ADMIN_TOKEN: '  change-me  ' }).TMS_ADMIN_TOKEN).toBe('change-me');
    expect(loadConfig({ TMS_ADMIN_TOKEN: '' }).TMS_ADMIN_TOKEN).toBeUndefined();
    expect(loadConfig({}).TMS_ADMIN_TOKEN).toBeUndefined();
  });

  it('the token generated into the data dir passes the same check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-admin-token-'));
    try {
      const { token, source } = await resolveAdminToken(undefined, dir);
      expect(source).toBe('generated');
      expect(token).toMatch(/^adm_[A-Za-z0-9_-]{43}$/);
      expect(loadConfig({ TMS_ADMIN_TOKEN: token }).TMS_ADMIN_TOKEN).toBe(token);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the generated admin token, with replicas starting together on one data dir', () => {
  // Each read "no file", generated a token and wrote it over the other's: each process kept its own,
  // so the admin API accepted a token on one replica and answered 401 on the other.
  it('is one token: the file is created exclusively, and the others read it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-token-'));
    try {
      const resolved = await Promise.all([0, 1, 2, 3].map(() => resolveAdminToken(undefined, dir)));
      const stored = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
      expect(resolved.map((r) => r.token)).toEqual([stored, stored, stored, stored]);
      expect(resolved.filter((r) => r.source === 'generated')).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
