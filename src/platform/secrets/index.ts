// What other features use of the secrets: the secret store and the sealed-key loader.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { loadSecretKey } from './secret-key.js';
export { SecretStore } from './secret-store.js';
export { SECRET_KEY_FILE } from './secret-key.js';
export { LEGACY_JWT_KEY_FILE } from './jwt-keys.js';
