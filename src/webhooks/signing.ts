/**
 * Webhook signatures per the Standard Webhooks specification, with its reference package:
 * `webhook-id` (stable per event and endpoint, so a receiver can deduplicate retries),
 * `webhook-timestamp` (seconds), `webhook-signature` (`v1,<base64 HMAC-SHA256>`; during a secret's
 * rotation, one signature per secret, space-separated, any of which a receiver may check).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A new signing secret, in the specification's `whsec_<base64>` form (24 random bytes). */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The headers of one delivery attempt: the same id and body on every retry, the time of this attempt. */
export function signDelivery(delivery: { id: string; body: string; at: number; secrets: readonly string[] }): SignedHeaders {
  if (delivery.secrets.length === 0) throw new Error('a webhook endpoint needs a signing secret');
  const timestamp = new Date(delivery.at);
  return {
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(delivery.at / 1000)),
    'webhook-signature': delivery.secrets.map((secret) => new Webhook(secret).sign(delivery.id, timestamp, delivery.body)).join(' '),
  };
}
