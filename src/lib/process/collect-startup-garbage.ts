// One full garbage collection once a service has started and before it serves (docs/benchmarks.md,
// "Hidden classes after startup"). Compiling the routes' schemas adds thousands of distinct first
// property names to short-lived plain objects (fast-json-stringify files each schema under its own
// `__fjs_root_<n>` key). V8 remembers at most 1 536 shapes grown from the empty object; past that, an
// object grown from it gets a new hidden class each time. Node's own `process.nextTick` records are such
// objects, several per request, so every request built three to five hidden classes and the code reading
// them went megamorphic. The names die with startup, but only a full collection forgets them, and a busy
// server may not run one for a long while. A collection also drops the hidden class of any object that
// happens to have no instance alive at that moment; the nextTick record's is pinned first, since losing
// it made every later nextTick slow (pin-next-tick-shape.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pinNextTickShape } from './pin-next-tick-shape.js';

/**
 * Runs a full collection now. Node exposes `gc` only behind a flag: it is set for as long as it takes
 * to make one context that holds `gc`, then unset, so no other context (or the main one) gains it.
 */
export function collectStartupGarbage(): void {
  pinNextTickShape();
  setFlagsFromString('--expose-gc');
  let gc: (() => void) | undefined;
  try {
    gc = runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  gc();
}
