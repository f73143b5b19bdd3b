// Who is calling: nobody, a signed-in person (JWT), or an API key acting for its owner.
import type { Scope } from './scopes.js';

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; sessionId: string; isAdmin: boolean }
  | {
      kind: 'key';
      userId: string;
      keyId: string;
      scopes: ReadonlySet<Scope>;
      /** Internal ids of the projects on the key's list. */
      projectIds: ReadonlySet<string>;
    };

export type PersonPrincipal = Extract<Principal, { kind: 'user' }>;
export type KeyPrincipal = Extract<Principal, { kind: 'key' }>;
export const ANONYMOUS: Principal = { kind: 'anonymous' };
