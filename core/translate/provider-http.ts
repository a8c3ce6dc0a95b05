// The one HTTP call every provider adapter makes: JSON in, JSON out, a deadline, no redirects, and
// failures as ProviderError (the body is not logged: it holds the project's texts).
import { ProviderError, type MachineTranslator } from '../ports/machine-translator.ts';

export type ProviderFetch = typeof fetch;

/**
 * What a provider's error body says, for the ProviderError: its own code or reason (Google's
 * `API_KEY_INVALID`, Azure's `401000`), and whether it is the account's quota or rate (Google says so
 * with a 403, Azure's free tier with 403001). Never the request's texts: error bodies hold none.
 */
export type ProviderErrorDetail = { reason?: string; exhausted?: boolean };
export type ReadProviderError = (status: number, body: unknown) => ProviderErrorDetail | undefined;

export async function postJson(
  provider: MachineTranslator['provider'],
  fetchFn: ProviderFetch,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  readError?: ReadProviderError,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'could not be reached';
    throw new ProviderError(provider, 0, `${provider} ${reason}`);
  }
  if (!response.ok) {
    let detail: ProviderErrorDetail = {};
    if (readError) {
      try {
        detail = readError(response.status, JSON.parse(await response.text())) ?? {};
      } catch {
        detail = {};
      }
    } else await response.body?.cancel();
    const exhausted = detail.exhausted ?? (response.status === 429 || response.status === 456);
    const reason = detail.reason ? ` (${detail.reason.slice(0, 200)})` : '';
    throw new ProviderError(provider, response.status, `${provider} answered ${response.status}${reason}`, exhausted);
  }
  try {
    return await response.json();
  } catch {
    throw new ProviderError(provider, 0, `${provider} answered something that is not JSON`);
  }
}

/**
 * DELETE of a resource the adapter made (DeepL's glossary of one call): best effort, never thrown,
 * since the call's translations are already in hand; a failure is reported as false.
 */
export async function deleteQuietly(fetchFn: ProviderFetch, url: string, headers: Record<string, string>, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetchFn(url, { method: 'DELETE', headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** `de-AT` -> `de`: the primary subtag, which every provider knows. */
export const primary = (code: string) => code.split('-')[0]!.toLowerCase();
