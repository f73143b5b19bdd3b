// oidc-provider ships no TypeScript types: the small part of its surface Overlook uses (main API and tests).
/* eslint-disable @typescript-eslint/no-explicit-any -- the provider's configuration is dynamic */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string; resource?: string | string[] };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
    destroy(): Promise<void>;
    jti: string;
    accountId: string;
    clientId: string;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    metadata(): Record<string, unknown>;
    grantTypeAllowed(type: string): boolean;
  }

  export const errors: Record<string, new (description?: string) => Error> & { InvalidTarget: new (description?: string) => Error };

  /** The configuration object; only the callbacks are typed, so their parameters are not implicit any. */
  export interface Configuration {
    findAccount?: (ctx: any, id: string, token?: any) => any;
    [key: string]: any;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
    Grant: { new (init: { accountId: string; clientId: string }): GrantInstance; find(id: string): Promise<GrantInstance | undefined> };
    Client: {
      find(id: string): Promise<ClientInstance | undefined>;
      validate(metadata: Record<string, unknown>): Promise<void>;
      prototype: { compareClientSecret(actual: string): Promise<boolean> | boolean };
    };
    /** Adds a Koa middleware in front of the provider's routes. */
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): unknown;
  }
}
