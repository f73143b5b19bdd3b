/**
 * Connectors framework: how Overlook talks to third-party providers for a person.
 *
 * HOW TO ADD A PROVIDER
 * 1. Create `src/platform/connectors/<id>/` with `provider.ts` exporting a `ConnectorProvider`
 *    (see `provider.ts` here): `id` (URL segment and env stem), `name`, `operationPrefix`
 *    (operationIds become `<prefix>Connect`, `<prefix>Status`, `<prefix>Disconnect`, `<prefix>…`),
 *    `authKind` ('oauth' with `oauth: {authorizePath, tokenPath, revokePath?, scopes, pkce, clientAuth}`,
 *    or 'credentials' with `credentialsSchema` + `credentialAuth(creds) → {headers?, query?}`),
 *    `defaultUrls: {api, auth?}`, optional `describeAccount(client, userId)` (who we are at the provider;
 *    for credentials providers it is also the check that the credentials work: throw to refuse), and
 *    `routes(app, ctx)` registering the provider's actions.
 * 2. Add it to `CONNECTOR_PROVIDERS` in `src/platform/connectors/providers.ts` (one line).
 * 3. Nothing else: connect/status/disconnect, the shared callback, the client and the provider list of
 *    `GET /v2/oauth2-tokens/providers` come from the declaration.
 *
 * ROUTE STYLE (all seven connectors)
 * - Everything under `ctx.prefix` = `/v2/connectors/<id>`: `POST <prefix>/connect`, `GET <prefix>/status`,
 *   `DELETE <prefix>/connect` (built by the framework, scoped `project:connectors`, the person's own
 *   connection, touching no project), then the provider's actions under the same prefix.
 * - Actions that touch an Overlook project put it in the path and declare it:
 *   `<prefix>/projects/:exid/…` with `fromPathProject`, `<prefix>/cameras/:camera_exid/…` with
 *   `fromPathCamera`; role viewer for reads, editor for uploads, admin for a project's connector settings.
 *   Actions that only browse the remote side (companies, hubs, remote projects) touch no project.
 * - Every route: `config: { access: scoped(['project:connectors'], …) }`, tags `ctx.tags`, a unique
 *   operationId starting with `operationPrefix`, and `response: {…, ...connectorErrors()}`.
 * - The only unscoped route is the shared OAuth callback `GET /v2/connectors/:provider/callback`
 *   (`peopleOnly({ anonymous: true })`; a browser redirect carries no JWT, the state binds it to the person).
 *
 * CALLING THE PROVIDER
 * `ctx.client.request(userId, { method, path, query, json | form | body, responseType })`: base URL from
 * OVERLOOK_<ID>_URL (OAuth endpoints from OVERLOOK_<ID>_AUTH_URL, else the same URL, else the default),
 * client id/secret from OVERLOOK_<ID>_CLIENT_ID / _CLIENT_SECRET; bearer token refreshed 60 s before expiry
 * and once more on a 401; 409 CONNECTOR_NOT_CONNECTED, 502 CONNECTOR_AUTH_EXPIRED, 502/504 on provider
 * failures, the provider's 404/403/400 → ours. Timeout: OVERLOOK_CONNECTOR_TIMEOUT_MS (default 10 s).
 * Use `actingUserId(req)` as userId. Images from cameras: `cameraImage(ctx.host, cameraExid, {source,
 * timestamp})` (snapshot-source.ts); media hub files: `mediaItemFile(ctx.host, project, itemId)`
 * (media-source.ts). Shared schemas (ProjectParams, CameraParams, RemoteId, PageQuery, UploadList): common-schemas.ts. Record what you uploaded with `ctx.store.recordUpload(…)` and list it
 * with `ctx.store.listUploads(…)`; store pushed events with `ctx.store.recordEvent(…)` (and notify people
 * with `ctx.host.notifications`).
 *
 * SECRETS
 * Tokens and credentials are sealed with AES-256-GCM (token-vault.ts) under the vault key, which is kept
 * in the database sealed with OVERLOOK_SECRET_KEY (docs/deploy.md, Secrets).
 *
 * TESTS
 * `test/fakes/fake-oauth-provider.ts` starts a loopback fake (authorize → redirect with a code, token
 * endpoint with refresh and revocation, bearer-checked API routes you add); point the app at it with
 * `buildTestPlatform({ OVERLOOK_<ID>_URL: fake.url, OVERLOOK_<ID>_CLIENT_ID: …, … })`.
 */
export type { ConnectorApp, ConnectorContext, ConnectorProvider } from './provider.js';
export { ProviderClient } from './provider-client.js';
