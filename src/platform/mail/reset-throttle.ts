// Password-reset requests per client address (docs/email.md, Password reset): more than a few in a
// quarter of an hour get 429, whatever the addresses asked for, so the answer still says nothing about
// accounts. Counted where every node sees it (the sign-in throttle's store).
import type { FastifyBaseLogger } from 'fastify';
import { countAttempt } from '../../lib/auth/counted-attempt.js';
import { failureCounter } from '../auth/index.js';
import type { PlatformDb } from '../database.js';

const REQUESTS = 10;
const WINDOW_SECONDS = 15 * 60;

export class ResetThrottle {
  private readonly perAddress;

  constructor(
    db: PlatformDb,
    private readonly log: FastifyBaseLogger,
  ) {
    this.perAddress = failureCounter(db, { keyPrefix: 'pwreset', points: REQUESTS, duration: WINDOW_SECONDS, blockDuration: 0 });
  }

  /** Counts a request from the address; 429 with Retry-After over the limit. */
  check(ip: string): Promise<void> {
    return countAttempt(this.perAddress, ip, this.log, {
      unreachable: 'password reset: could not count the request',
      unavailable: 'Password resets cannot be asked for a moment; try again shortly',
      tooMany: (wait) => `Too many password resets asked from this address; try again in ${wait} s`,
    });
  }
}
