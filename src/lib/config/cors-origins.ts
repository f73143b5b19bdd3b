// The web origins whose pages may call a service from a browser (CORS, docs/security.md, "Browsers on
// other origins"). None by default: a page elsewhere cannot read our answers, whatever credential it holds.
import { HttpEnv } from './env-schema.js';
import { processEnv, type Env } from './process-env.js';
import { readEnv } from './read-env.js';

/** `OVERLOOK_CORS_ORIGINS` as exact origins; anything that is not `scheme://host[:port]` stops the start, named. */
export function corsOrigins(env: Env = processEnv()): string[] {
  const raw = readEnv(HttpEnv, env).OVERLOOK_CORS_ORIGINS ?? '';
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch {}
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
        throw new Error(`OVERLOOK_CORS_ORIGINS: "${origin}" is not a web origin such as https://viewer.example.com (scheme, host and port only)`);
      }
      return origin;
    });
}
