// A browser-like client of the portal for HTTP tests: keeps its cookies, reads the page's CSRF token
// from its meta tag, and posts forms the way a browser does (urlencoded, same-origin).
import type { Api } from '../../../functions/http/create-api.ts';

export type PortalResponse = { status: number; headers: Headers; text: string; location: string | null };

export class PortalClient {
  readonly cookies = new Map<string, string>();
  csrf = '';
  private readonly app: Api;
  private readonly origin: string;
  constructor(app: Api, origin = 'http://localhost') {
    this.app = app;
    this.origin = origin;
  }

  private store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<PortalResponse> {
    const res = await this.app.request(`${this.origin}${path}`, {
      method,
      headers: { ...(this.cookies.size ? { Cookie: this.cookieHeader() } : {}), ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    this.store(res);
    const text = await res.text();
    const meta = /<meta name="csrf-token" content="([^"]+)"/.exec(text);
    if (meta) this.csrf = meta[1]!;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /**
   * The page a write's 303 sends the browser to, opened as the browser opens it (GET): the portal
   * answers writes by Post/Redirect/Get, so a reload never repeats them. Anything but a 303 is an error.
   */
  async follow(res: PortalResponse): Promise<PortalResponse> {
    if (res.status !== 303 || !res.location) throw new Error(`expected a 303 redirect, got ${res.status}: ${res.text.slice(0, 300)}`);
    return this.get(res.location);
  }

  /** A form post with the current CSRF token (override `_csrf` to test the check). */
  post(path: string, fields: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    if (!('_csrf' in fields)) body.set('_csrf', this.csrf);
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.request('POST', path, { body: body.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } });
  }
}
