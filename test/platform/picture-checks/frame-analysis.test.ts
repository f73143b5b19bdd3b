// The picture checks on synthetic frame sequences, one frame a minute: a 20-minute freeze, black frames,
// a blur, a 5 % shift of the view and a fade from day to night. Each fault must start at the frame it
// began with and clear at the first good frame; the fade must raise nothing.
import { describe, expect, it } from 'vitest';
import { analyse, type CheckChange, emptyMemory, resetReference } from '../../../src/platform/picture-checks/frame-analysis.js';
import { frameFeatures } from '../../../src/platform/picture-checks/frame-features.js';
import { DEFAULT_THRESHOLDS } from '../../../src/platform/picture-checks/thresholds.js';
import { frame, type FrameOptions } from './synthetic-frames.js';

const T0 = Date.UTC(2026, 10, 2, 6, 0);
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

/** Runs the frames through the checks; returns every state change and the activity scores. */
async function run(frames: FrameOptions[]) {
  let memory = emptyMemory();
  const changes: (CheckChange & { minute: number })[] = [];
  const activity: (number | null)[] = [];
  for (const [minute, o] of frames.entries()) {
    const v = analyse(memory, await frameFeatures(await frame(o)), at(minute), DEFAULT_THRESHOLDS);
    memory = v.memory;
    activity.push(v.activity);
    for (const c of v.changes) changes.push({ ...c, minute });
  }
  return { changes, activity, memory };
}

/** A working site: people about, a clock ticking in the corner. */
const normal = (n: number): FrameOptions => ({ n, people: 3, seed: n });
const faultsOf = (changes: (CheckChange & { minute: number })[]) => changes.filter((c) => c.minute > 0).map((c) => [c.check, c.state, c.since]);

describe('picture checks on synthetic sequences', () => {
  it('finds each fault at its first frame and clears it at the first good one', async () => {
    const frames: FrameOptions[] = [];
    for (let n = 0; n < 180; n++) {
      if (n >= 30 && n < 50)
        frames.push({ n, people: 3, seed: 30 }); // frozen 20 minutes; the camera's clock still ticks
      else if (n >= 60 && n < 65) frames.push({ n, black: true });
      else if (n >= 75 && n < 85) frames.push({ ...normal(n), blur: 3 });
      else if (n >= 95 && n < 110)
        frames.push({ ...normal(n), dx: 32 }); // 5 % of 640 pixels
      else frames.push(normal(n));
    }
    const { changes } = await run(frames);
    expect(changes.filter((c) => c.minute === 0).map((c) => [c.check, c.state])).toEqual([
      ['black', 'ok'],
      ['frozen', 'ok'],
      ['blurred', 'ok'],
      ['moved', 'ok'],
    ]);
    expect(faultsOf(changes)).toEqual([
      ['frozen', 'fault', at(30)],
      ['frozen', 'ok', at(50)],
      ['black', 'fault', at(60)],
      ['black', 'ok', at(65)],
      ['blurred', 'fault', at(75)],
      ['blurred', 'ok', at(85)],
      ['moved', 'fault', at(95)],
      ['moved', 'ok', at(110)],
    ]);
  });

  it('raises nothing while the day fades to night, and scores the fade as no activity', async () => {
    const frames: FrameOptions[] = [];
    for (let n = 0; n < 60; n++) frames.push({ n, people: 1, seed: 1, light: 1 - (0.8 * n) / 59 }); // one still figure, the light going
    const { changes, activity } = await run(frames);
    expect(faultsOf(changes)).toEqual([]);
    for (const a of activity.slice(1)) expect(a).toBeLessThan(1.5);
  });

  it('scores people moving higher than a still scene', async () => {
    const still = await run([0, 1, 2, 3].map((n) => ({ n, people: 2, seed: 5 })));
    const busy = await run([0, 1, 2, 3].map((n) => ({ n, people: 8, seed: n })));
    expect(Math.max(...still.activity.slice(1).map(Number))).toBeLessThan(1);
    expect(Math.min(...busy.activity.slice(1).map(Number))).toBeGreaterThan(3);
  });

  it('accepts the moved view as the new reference when it is reset', async () => {
    const { memory } = await run([normal(0), { ...normal(1), dx: 32 }]);
    expect(memory.checks.moved?.state).toBe('fault');
    const reset = resetReference(memory, at(2));
    expect(reset.checks.moved).toEqual({ state: 'ok', since: at(2) });
    const v = analyse(reset, await frameFeatures(await frame({ ...normal(3), dx: 32 })), at(3), DEFAULT_THRESHOLDS);
    expect(v.changes).toEqual([]);
  });

  it('reports a covered lens (no contrast) as blurred', async () => {
    let memory = emptyMemory();
    memory = analyse(memory, await frameFeatures(await frame(normal(0))), at(0), DEFAULT_THRESHOLDS).memory;
    const v = analyse(memory, await frameFeatures(await frame({ ...normal(1), blur: 60 })), at(1), DEFAULT_THRESHOLDS);
    expect(v.changes).toEqual([{ check: 'blurred', state: 'fault', since: at(1) }]);
  });
});
