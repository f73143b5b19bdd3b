// Collects "this id was used at this time" marks and writes them in one batch every interval,
// so a hot path never waits on a database write (API keys' last_used_at, sessions' last_seen_at).

export class WriteBehind {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (entries: Map<string, number>) => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** `at` in epoch milliseconds (no formatting on the hot path). */
  mark(id: string, at: number): void {
    this.pending.set(id, at);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is pending now; also called on shutdown. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.flushing;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch)).catch(this.onError);
    return this.flushing;
  }
}

/** Groups a batch by timestamp (as ISO text) so each group is one `UPDATE … WHERE id IN (…)`. */
export function groupByTime(entries: Map<string, number>): Map<string, string[]> {
  const byTime = new Map<string, string[]>();
  for (const [id, ms] of entries) {
    const at = new Date(ms).toISOString();
    const ids = byTime.get(at) ?? [];
    ids.push(id);
    byTime.set(at, ids);
  }
  return byTime;
}
