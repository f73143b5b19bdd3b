// The process's stdout log: lines gathered into writes of about 16 kB (some sixty request lines), each
// written at most a quarter second after it was logged; one write per line cost a tenth of a small
// request's CPU. Lines are encoded into one reused buffer as they come, and the request line is written
// straight into it (request-line.ts), so no line is kept, copied or encoded as a string on the way
// (docs/benchmarks.md, The request path, seventh pass). The writes are synchronous, as pino's default
// destination and Node's stdout are: an asynchronous write is a trip through the thread pool and back
// (docs/decisions.md, The request line). What is still gathered is written when the process exits; a
// SIGKILL loses it.
import { type RequestLineFields, requestLineBound, requestLineText, writeRequestLineBytes } from './request-line.js';

/** Where batches go: a destination that takes bytes (pino's `destination` with `contentMode: 'buffer'`). */
export interface ByteDestination {
  write(bytes: Buffer): unknown;
  flushSync(): void;
  readonly destroyed?: boolean;
}

/** The longest a log line waits to be written, and the size of a write. */
const FLUSH_MS = 250;
const BATCH_BYTES = 16_384;
/** Room for the batch and a few long lines past it; a longer line is written on its own. */
const BUFFER_BYTES = 4 * BATCH_BYTES;

/** Every batch made, written out when the process exits (one listener for them all). */
const batches = new Set<BatchedLog>();
let exitListener = false;

export class BatchedLog {
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: ByteDestination) {
    batches.add(this);
    if (!exitListener) {
      exitListener = true;
      process.once('exit', () => {
        for (const batch of batches) batch.atExit();
      });
    }
  }

  /** A line of text (pino's own lines). */
  write(line: string): void {
    // A UTF-16 code unit takes at most three bytes in UTF-8.
    if (!this.room(3 * line.length)) {
      this.send(Buffer.from(line));
      return;
    }
    this.used += this.buffer.write(line, this.used);
    this.written();
  }

  /** The request line, written straight into the batch (request-line.ts). */
  writeRequestLine(fields: RequestLineFields): void {
    if (!this.room(requestLineBound(fields))) {
      this.write(requestLineText(fields));
      return;
    }
    this.used = writeRequestLineBytes(this.buffer, this.used, fields);
    this.written();
  }

  /** Makes room for `bytes` more (writing the batch out if need be); false when they would never fit. */
  private room(bytes: number): boolean {
    if (this.used + bytes <= BUFFER_BYTES) return true;
    this.flush();
    return bytes <= BUFFER_BYTES;
  }

  private written(): void {
    if (this.used >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** Writes out what is gathered. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.used === 0) return;
    // A copy: the destination may keep what a failed write left, and the buffer is reused at once.
    const bytes = Buffer.from(this.buffer.subarray(0, this.used));
    this.used = 0;
    this.send(bytes);
  }

  private atExit(): void {
    this.flush();
    if (!this.out.destroyed) this.out.flushSync();
  }

  private send(bytes: Buffer): void {
    if (!this.out.destroyed) this.out.write(bytes);
  }
}
