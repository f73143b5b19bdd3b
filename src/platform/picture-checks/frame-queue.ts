// The in-process queue of frames waiting for analysis (docs/analysis.md, Where it runs): one FIFO per
// camera, so a camera's frames are analysed in the order they were stored, and at most `concurrency`
// frames analysed at once across cameras. Nothing is dropped: the service keeps waiting items small
// (see PictureChecksService.frameStored).
export class FrameQueue<T> {
  private readonly waiting = new Map<string, T[]>();
  /** Cameras with frames waiting and none being analysed, in turn. */
  private readonly ready: string[] = [];
  private readonly busy = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly work: (item: T) => Promise<void>,
    private readonly concurrency: number,
  ) {}

  push(key: string, item: T): void {
    if (this.closed) return;
    let list = this.waiting.get(key);
    if (!list) {
      list = [];
      this.waiting.set(key, list);
      if (!this.busy.has(key)) this.ready.push(key);
    }
    list.push(item);
    this.pump();
  }

  /** Resolves once nothing is waiting or being analysed. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking frames and waits for the ones under way. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    this.ready.length = 0;
    await this.idle();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.ready.length > 0) {
      const key = this.ready.shift()!;
      const list = this.waiting.get(key);
      if (!list || list.length === 0) continue;
      const item = list.shift()!;
      if (list.length === 0) this.waiting.delete(key);
      this.busy.add(key);
      this.running++;
      // `work` logs its own failures; one frame failing never stops the queue.
      void this.work(item)
        .catch(() => {})
        .finally(() => {
          this.running--;
          this.busy.delete(key);
          if (this.waiting.has(key)) this.ready.push(key);
          this.pump();
          if (this.running === 0 && this.waiting.size === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }
}
