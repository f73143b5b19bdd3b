// Pairing codes and link credentials (docs/site-link.md, Linking a site). A code is 80 random bits in
// Crockford's base32 (no I, L, O or U; typed in any case, with or without dashes), single use, and
// short-lived; a credential is `orl_` and 256 random bits. Both are kept only as SHA-256 hashes.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import basex from 'base-x';
import { CREDENTIAL_PREFIX } from '../../lib/site-link/protocol.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base32 = basex(CROCKFORD);
const CODE_BYTES = 10;
const CODE_CHARS = 16;

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A new pairing code, shown as four groups of four: `7KQ2-M9XD-0RTF-4HZB`. */
export function newPairingCode(): string {
  const plain = base32.encode(randomBytes(CODE_BYTES)).padStart(CODE_CHARS, '0');
  return plain.match(/.{4}/g)!.join('-');
}

/** The code as typed, in its one canonical form (what is hashed); null when it cannot be a code. */
export function canonicalCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (plain.length !== CODE_CHARS) return null;
  for (const ch of plain) if (!CROCKFORD.includes(ch)) return null;
  return plain;
}

/** A new link credential: shown once to the recorder, then known only by its hash. */
export const newCredential = (): string => `${CREDENTIAL_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Whether a credential's hash is the stored one, compared in constant time. */
export function sameHash(stored: string, candidate: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(candidate, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
