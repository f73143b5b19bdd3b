// A node started while its database is down (or still starting) waits for it, retrying, instead of
// exiting at once; past the configured wait it gives up with the last error (docs/deploy.md, Connections).
import { isDatabaseUnreachable } from './unreachable.js';

export interface WaitOptions {
  /** How long to keep retrying, in seconds; 0: try once. */
  waitSeconds: number;
  /** Told of each failed attempt and the pause before the next. */
  log: (message: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Runs `attempt` until it succeeds, fails for another reason than an unreachable database, or time is up. */
export async function withDatabaseWait<T>(attempt: () => Promise<T>, opts: WaitOptions): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + opts.waitSeconds * 1000;
  let pause = 500;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - now();
      if (!isDatabaseUnreachable(err) || left <= 0) throw err;
      const wait = Math.min(pause, left);
      opts.log(`database unreachable (${err instanceof Error ? err.message : String(err)}); attempt ${tries}, retrying in ${wait} ms`);
      await sleep(wait);
      pause = Math.min(pause * 2, 5000);
    }
  }
}
