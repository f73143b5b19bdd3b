// What every serving command does once it listens, in one place so that none forgets a step: one full
// collection of the startup garbage (collect-startup-garbage.ts), then serve until SIGINT or SIGTERM
// closes it (close-on-signals.ts).
import { closeOnSignals } from './close-on-signals.js';
import { collectStartupGarbage } from './collect-startup-garbage.js';

export function serveUntilSignalled(close: () => Promise<void>): void {
  collectStartupGarbage();
  closeOnSignals(close);
}
