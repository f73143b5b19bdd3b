// Keeps one `process.nextTick` record alive for the life of the process (docs/benchmarks.md, fifth pass,
// "the nextTick record's shape"). Every request makes nine such records, all of one hidden class that V8
// keeps only while an object of it lives. A full collection that finds none alive (at startup, or any
// idle moment) drops the class; after that, in a process with a Fastify logger (why the logger matters
// is not known), each nextTick cost some 300 ns instead of 40 for the rest of the process's life.
// Importing this module pins the class; cli.ts imports it first, before any other code has run.
import { createHook } from 'node:async_hooks';

let pinned: object | undefined;

/** Captures one record through an async hook that lives only for this call. Idempotent. */
export function pinNextTickShape(): void {
  if (pinned) return;
  const hook = createHook({
    init(_asyncId, type, _trigger, resource) {
      if (type === 'TickObject' && !pinned) pinned = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}

/** The record kept alive (for tests). */
export const pinnedNextTickRecord = (): object | undefined => pinned;

pinNextTickShape();
