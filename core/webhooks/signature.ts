// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and the
// base64 of random bytes; the signature is `v1,` and the base64 HMAC-SHA256, keyed with those bytes,
// of `<webhook-id>.<webhook-timestamp>.<body>`. Receivers verify it with the `standardwebhooks`
// package (README, "Webhooks") or any library of the spec.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (192 bits), within the spec's 24 to 64. */
export const newSigningSecret = (): string => `${PREFIX}${randomBytes(24).toString('base64')}`;

/** A new message id for the webhook-id header; every attempt and replay of the message keeps it. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt. */
export function signedHeaders(secret: string, messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureOf(secret, messageId, timestampSeconds, body),
  };
}
