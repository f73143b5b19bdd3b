// Configuration shared by every service: flags win over environment variables, which win over defaults.
// The modules live in src/lib/config/ (env-schema.ts lists every variable); this file is their one
// entry point for the services.
export * from './config/addresses.js';
export * from './config/admin-config.js';
export * from './config/bim-config.js';
export * from './config/cors-origins.js';
export * from './config/env-schema.js';
export * from './config/http-limits.js';
export * from './config/mail-config.js';
export * from './config/metrics-config.js';
export * from './config/platform-config.js';
export * from './config/process-env.js';
export * from './config/read-env.js';
export * from './config/service-config.js';
