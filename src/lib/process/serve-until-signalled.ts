// What every serving command does once it listens, in one place so that none forgets a step: serve until
// SIGINT or SIGTERM closes it (close-on-signals.ts).
import { closeOnSignals } from './close-on-signals.js';

export function serveUntilSignalled(close: () => Promise<void>): void {
  closeOnSignals(close);
}
