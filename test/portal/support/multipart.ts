// A portal form sent as a browser sends one with a file field (multipart/form-data), by a
// PortalClient's session: its cookies and CSRF token. PortalClient.post sends urlencoded forms only.
import type { Api } from '../../../functions/http/create-api.ts';
import type { PortalClient, PortalResponse } from './portal-client.ts';

export type FilePart = { name: string; type: string; bytes: Uint8Array };

export async function postMultipart(app: Api, client: PortalClient, path: string, fields: Record<string, string>, files: Record<string, FilePart> = {}): Promise<PortalResponse> {
  const form = new FormData();
  if (!('_csrf' in fields)) form.set('_csrf', client.csrf);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) form.append(name, new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  const res = await app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    body: form,
  });
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
}
