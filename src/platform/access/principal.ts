// Who is calling: nobody, a signed-in person (JWT), or an API key acting for its owner.
import type { Scope } from './scopes.js';

export type Principal =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: string;
      sessionId: string;
      isAdmin: boolean;
      /** Set on an impersonated session: the platform admin acting as this person. */
      impersonatorId?: string | null;
      /**
       * An OAuth access token held by a third-party app (the MCP client) rather than the person's own
       * sign-in: it reaches what API keys may reach, with the person's roles, and the people-only routes
       * that declare `delegated`, never key, app, session or admin management.
       */
      delegated?: boolean;
    }
  | {
      kind: 'key';
      userId: string;
      keyId: string;
      scopes: ReadonlySet<Scope>;
      /** Internal ids of the projects on the key's list. */
      projectIds: ReadonlySet<string>;
    };

export const ANONYMOUS: Principal = { kind: 'anonymous' };
