// The admin token guarding /admin/v1: TMS_ADMIN_TOKEN when set; otherwise one generated on first
// start and kept in the data dir (mode 600) so a newcomer can go on at once.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function resolveAdminToken(
  configured: string | undefined,
  dataDir: string,
): Promise<{ token: string; source: 'env' | 'file' | 'generated'; path?: string }> {
  if (configured) return { token: configured, source: 'env' };
  const path = join(dataDir, 'admin-token');
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored) return { token: stored, source: 'file', path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = `adm_${randomBytes(32).toString('base64url')}`;
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, token + '\n', { mode: 0o600 });
  return { token, source: 'generated', path };
}
