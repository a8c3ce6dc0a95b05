// The export endpoint's ETag is a hash of the file's bytes (core/files/export-file.ts), so the
// CLI can compute, from the file already on disk, the ETag of the version it holds: an unchanged
// language costs a 304 and no download, with no state file to keep between runs or machines.
import { createHash } from 'node:crypto';

export const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
