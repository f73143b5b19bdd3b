// What other features use of OAuth: the server and its client records.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { clientOwnedBy, clientsOwnedBy, deleteClient, insertClient, updateClient } from './oauth-records-repository.js';
export { withHashedSecret } from './oauth-secrets-at-rest.js';
export { OauthServer } from './oauth-server.js';
export { LEGACY_OAUTH_KEYS_FILE } from './oauth-keys.js';
