// How a delivery is signed (docs/notifications.md, Verifying a signature): an HMAC-SHA256, keyed by the
// webhook's secret, over "<unix seconds>.<raw body>", sent as `Overlook-Signature: t=<seconds>,v1=<hex>`.
// The timestamp inside the signed text lets a receiver refuse an old delivery replayed later.
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'overlook-signature';

/** A new signing secret: 32 random bytes, recognisable by its prefix. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** The header's value for `body` sent at `unixSeconds`. */
export function signature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
