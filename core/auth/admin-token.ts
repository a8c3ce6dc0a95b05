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
  const stored = await storedToken(path);
  if (stored) return { token: stored, source: 'file', path };
  const token = `adm_${randomBytes(32).toString('base64url')}`;
  await mkdir(dataDir, { recursive: true });
  // Created exclusively: replicas sharing the data dir that start together would otherwise each
  // write their own token over the other's and accept different ones. The one that loses reads
  // the winner's (written with the file's creation, but maybe not yet complete: read again).
  const written = await writeFile(path, token + '\n', { mode: 0o600, flag: 'wx' }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (written) return { token, source: 'generated', path };
  for (let attempt = 0; attempt < 50; attempt++) {
    const theirs = await storedToken(path);
    if (theirs) return { token: theirs, source: 'file', path };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Still empty: a file left so (a crash between its creation and its write), as before taken over.
  await writeFile(path, token + '\n', { mode: 0o600 });
  return { token, source: 'generated', path };
}

/** The token the file holds; undefined when there is no file or it is empty. */
async function storedToken(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}
