// The snapshot schedule of a remote storage takes every slot while the recorder runs, even when its
// timer fires late (an event loop held up past the next slot), and lets go of slots from before a
// long stop (a suspended machine) rather than making them up. The clock is faked; Date jumps ahead
// without firing timers to stand for a busy event loop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnapshotUploads } from '../../../src/recorder/uploads/snapshot-uploads.js';

const INTERVAL_S = 2;
const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

function schedule() {
  const slots: number[] = [];
  const uploads = new SnapshotUploads({
    storages: { targets: async () => [{ id: 's1', config: { snapshot_interval_seconds: INTERVAL_S } }] as never },
    devices: { list: async () => [{ id: 'd1', state: 'recording' }] as never, credentials: async () => null as never },
    snapshots: { current: async () => ({ jpeg: Buffer.from([0xff, 0xd8]), at: new Date() }) as never },
    queue: {
      addSnapshot: async (_storage: string, _device: string, slot: Date) => {
        slots.push(slot.getTime());
      },
    },
    queued: () => {},
    log: { warn: () => {} },
  });
  return { uploads, slots };
}

/** The slots from `first`, `count` of them, `INTERVAL_S` apart. */
const run = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i * INTERVAL_S * 1000);

afterEach(() => vi.useRealTimers());

describe('snapshot slots', () => {
  it('are each taken once, on time, from the next slot after the start', async () => {
    vi.useFakeTimers({ now: T0 + 500 });
    const { uploads, slots } = schedule();
    uploads.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await uploads.stop();
    expect(slots).toEqual(run(T0 + 2000, 5));
  });

  it('skip none when a timer fires late, past the next slot', async () => {
    vi.useFakeTimers({ now: T0 + 500 });
    const { uploads, slots } = schedule();
    uploads.start();
    await vi.advanceTimersByTimeAsync(2000);
    // The event loop is held up for 5 s just before the next slot is due.
    vi.setSystemTime(Date.now() + 5000);
    await vi.advanceTimersByTimeAsync(6000);
    await uploads.stop();
    const last = slots.at(-1)!;
    expect(last).toBeGreaterThanOrEqual(T0 + 12_000);
    expect(slots).toEqual(run(T0 + 2000, (last - (T0 + 2000)) / 2000 + 1));
  });

  it('let go of slots more than a minute behind, and go on from now', async () => {
    vi.useFakeTimers({ now: T0 + 500 });
    const { uploads, slots } = schedule();
    uploads.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(slots).toEqual([T0 + 2000]);
    // Suspended for ten minutes.
    vi.setSystemTime(Date.now() + 600_000);
    await vi.advanceTimersByTimeAsync(4000);
    await uploads.stop();
    const after = slots.slice(1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((t) => t > T0 + 600_000)).toBe(true);
  });
});
