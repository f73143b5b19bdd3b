// Answers made in one turn of the event loop are written together at its end (docs/decisions.md, Answers
// written together). Each answer written on its own wakes the client's process (a proxy, a load balancer,
// any client that holds many connections) once per answer; written back to back, one wake-up serves them
// all. On a busy server that wake-up was the larger part of a small answer's cost: a µs of work in a
// handler cost two of throughput (docs/benchmarks.md, The request path, ninth pass). The turn's first answer
// goes out at once, so a lone request waits for nothing; the others wait at most for the rest of the turn.
import type { FastifyInstance, FastifyReply } from 'fastify';

type Done = (err: Error | null, payload?: unknown) => void;

/** The answers held in this turn, in the order they were made: each reply, its payload and Fastify's callback (three arrays, no object per answer). */
const replies: FastifyReply[] = [];
const payloads: unknown[] = [];
const callbacks: Done[] = [];
/** Whether an answer was made in this turn already (the turn's end is then scheduled). */
let answered = false;

function writeAll(): void {
  answered = false;
  // By index and length read afresh: an answer written may let another be made (never seen, but safe).
  for (let i = 0; i < callbacks.length; i++) {
    try {
      callbacks[i]!(null, payloads[i]);
    } catch (err) {
      // Fastify refused to write it (never seen): the client is told by a closed connection, not left waiting.
      const reply = replies[i]!;
      reply.log.error({ err }, 'writing the answer failed');
      reply.raw.destroy(err as Error);
    }
  }
  replies.length = 0;
  payloads.length = 0;
  callbacks.length = 0;
}

/** Whether the payload is written at once by Fastify (text, bytes or nothing), rather than streamed. */
const isWhole = (payload: unknown) => payload === null || payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload);

/** The app's onSend hook that holds whole answers to the end of the turn; streams go out as they come. */
export function coalesceWrites(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (!isWhole(payload)) return done(null, payload);
    // The turn's first answer goes out at once: a lone request waits for nothing.
    if (!answered) {
      answered = true;
      setImmediate(writeAll);
      return done(null, payload);
    }
    replies.push(reply);
    payloads.push(payload);
    callbacks.push(done as Done);
  });
}
