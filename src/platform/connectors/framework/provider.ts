// What a connector provider declares: who it is, how a person connects (OAuth 2.0 or stored
// credentials), where its API lives by default, and the routes of its actions. The framework reads
// the declaration to build connect/status/disconnect, the shared OAuth callback, the HTTP client and
// the provider list of `GET /v2/oauth2-tokens/providers`.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ConnectorHost } from './connector-host.js';
import type { ConnectorStore } from './connector-store.js';
import type { ProviderClient } from './provider-client.js';
import type { ProviderDescription } from './provider-description.js';

export { envStem, providerSettings } from './provider-description.js';

/** The app a provider's `routes` gets: TypeBox-typed, so params/body/querystring are inferred. */
export type ConnectorApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What a provider's route plugin gets from the framework. */
export interface ConnectorContext {
  provider: ConnectorProvider;
  /** HTTP to the provider's API as a person (bearer token or credential headers, refresh, errors). */
  client: ProviderClient;
  /** Connections, uploads and events of this provider. */
  store: ConnectorStore;
  /** What the provider may use of the rest of the platform. */
  host: ConnectorHost;
  /** `['connectors']`: the OpenAPI tag every connector route uses. */
  tags: string[];
  /** `/v2/connectors/<id>`: the prefix every route of this provider lives under. */
  prefix: string;
}

export interface ConnectorProvider extends ProviderDescription {
  /**
   * After connecting: who we are at the provider (remote user, companies), stored as `account` and shown by
   * status. For credentials providers this is also the check that the credentials work: throw to refuse them.
   */
  describeAccount?: (client: ProviderClient, userId: string) => Promise<Record<string, unknown>>;
  /** The provider's own actions; registered after connect/status/disconnect. */
  routes?: (app: ConnectorApp, ctx: ConnectorContext) => void | Promise<void>;
}
