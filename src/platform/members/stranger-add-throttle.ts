// Adding people who share no project with the adder is counted per adder, on every node (docs/security.md,
// Adding members): adds stay immediate, as integrations rely on, but cannot be used to probe or spam
// strangers at scale. Adding colleagues (people already in one of the adder's projects) is never counted.
import type { FastifyBaseLogger } from 'fastify';
import { countAttempt } from '../../lib/auth/counted-attempt.js';
import { failureCounter } from '../auth/index.js';
import type { PlatformDb } from '../database.js';

const WINDOW_SECONDS = 60 * 60;

export class StrangerAddThrottle {
  private readonly perAdder;

  constructor(
    db: PlatformDb,
    perHour: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.perAdder = failureCounter(db, { keyPrefix: 'member-add', points: perHour, duration: WINDOW_SECONDS, blockDuration: 0 });
  }

  /** Counts one add of a stranger by the person; 429 with Retry-After over the limit, before anything is stored. */
  count(adderId: string): Promise<void> {
    return countAttempt(this.perAdder, adderId, this.log, {
      unreachable: 'members: could not count an add',
      unavailable: 'Members cannot be added for a moment; try again shortly',
      tooMany: (wait) => `Too many people who share no project with you were added in the last hour; try again in ${wait} s`,
    });
  }
}
