// The secrets feature's table: key material every node of one database shares (JWT signing keys, the
// OAuth server's keys, the connector vault key), each value sealed with AES-256-GCM under a key derived
// from OVERLOOK_SECRET_KEY (docs/deploy.md, Secrets).
import { integer, table, text, timestamp, type TablesType } from '../../lib/db/table.js';

const secrets = table({
  /** What the secret is for: `jwt-signing`, `oauth-keys`, `connector-vault`. */
  kind: text(),
  /** 1 for the first secret of a kind, one more for each rotation; the highest is the active one. */
  generation: integer(),
  /** The key id the secret is published and looked up by (a JWK thumbprint for signing keys). */
  kid: text(),
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url: never the plaintext key. */
  sealed: text(),
  created_at: timestamp(),
});

export const secretsTables = { secrets };
export type SecretsTables = TablesType<typeof secretsTables>;
