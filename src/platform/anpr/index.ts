// What other features use of ANPR: the service (the site link turns plate reads into ANPR events).
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export type { AnprService } from './anpr-service.js';
