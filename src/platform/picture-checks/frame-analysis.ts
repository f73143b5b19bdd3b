// The picture checks and the activity score of one frame, given what the camera's checks remember
// from the frames before (docs/analysis.md). Pure: the service loads the memory, calls `analyse` and
// stores what it returns.
import { bestShift, changedShare, type FrameFeatures, movedShare, normalised, W } from './frame-features.js';
import { CHECKS, type CheckName, type CheckState } from './picture-checks-tables.js';
import type { Thresholds } from './thresholds.js';

/** A grey picture with the percentiles its normalisation needs. */
export interface Picture {
  gray: Uint8Array;
  p05: number;
  p50: number;
  p95: number;
}

interface CheckStatus {
  state: CheckState;
  since: string;
}

export interface CameraMemory {
  reference: Picture | null;
  referenceAt: string | null;
  previous: Picture | null;
  previousAt: string | null;
  detailLevel: number | null;
  unchangedRun: number;
  unchangedSince: string | null;
  checks: Partial<Record<CheckName, CheckStatus>>;
}

export const emptyMemory = (): CameraMemory => ({
  reference: null,
  referenceAt: null,
  previous: null,
  previousAt: null,
  detailLevel: null,
  unchangedRun: 0,
  unchangedSince: null,
  checks: {},
});

export interface CheckChange {
  check: CheckName;
  state: CheckState;
  since: string;
}

export interface Verdict {
  memory: CameraMemory;
  /** How much of the picture changed against the previous frame (0–100), brightness taken out; null when not measured. */
  activity: number | null;
  /** Checks whose state changed with this frame (every check on a camera's first frame). */
  changes: CheckChange[];
}

/** A pixel counts as changed for frozen when it moved by more than this many grey levels (JPEG noise stays below). */
const FROZEN_LEVELS = 2;
/** A pixel counts as active when its normalised value moved by more than this share of the picture's 5–95 % range. */
const ACTIVE_RANGE = 0.15;
/** How fast the usual detail follows the picture: a tenth of the way each good frame. */
const DETAIL_FOLLOW = 0.1;
/** Search for a moved view up to this many pixels of the 128-pixel picture (7.8 %). */
const MAX_SHIFT = 10;
/** A shift counts only when it matches clearly better than no shift. */
const SHIFT_GAIN = 0.5;

const pictureOf = (f: FrameFeatures): Picture => ({ gray: f.gray, p05: f.p05, p50: f.p50, p95: f.p95 });

export function analyse(before: CameraMemory, f: FrameFeatures, takenAt: string, t: Thresholds): Verdict {
  const m: CameraMemory = { ...before, checks: { ...before.checks } };
  const faults: Partial<Record<CheckName, boolean>> = {};
  let activity: number | null = null;

  const black = f.p95 <= t.black_level || f.p05 >= t.blown_out_level;
  faults.black = black;
  // A black picture says nothing about focus, movement or freezing: those keep their state.
  if (!black) {
    const current = normalised(f);
    if (m.previous) {
      const same = changedShare(m.previous.gray, f.gray, FROZEN_LEVELS) * 100 <= t.frozen_change_percent;
      if (same) {
        m.unchangedRun += 1;
        m.unchangedSince ??= m.previousAt;
      } else {
        m.unchangedRun = 0;
        m.unchangedSince = null;
      }
      activity = round2(movedShare(normalised(m.previous), current, ACTIVE_RANGE) * 100);
    }
    const frozen = m.unchangedRun + 1 >= t.frozen_frames;
    faults.frozen = frozen;

    const covered = f.p95 - f.p05 < t.covered_contrast;
    const blurred = covered || (m.detailLevel !== null && f.detail < t.blur_ratio * m.detailLevel);
    faults.blurred = blurred;
    if (!blurred && !frozen) m.detailLevel = m.detailLevel === null ? f.detail : m.detailLevel + DETAIL_FOLLOW * (f.detail - m.detailLevel);

    if (!covered) {
      if (!m.reference) {
        m.reference = pictureOf(f);
        m.referenceAt = takenAt;
        faults.moved = false;
      } else {
        const s = bestShift(normalised(m.reference), current, MAX_SHIFT);
        faults.moved = (Math.hypot(s.dx, s.dy) / W) * 100 >= t.moved_percent && s.best <= SHIFT_GAIN * s.still;
      }
    }
    m.previous = pictureOf(f);
    m.previousAt = takenAt;
  }

  const changes: CheckChange[] = [];
  for (const check of CHECKS) {
    const fault = faults[check];
    const was = m.checks[check];
    if (fault === undefined) {
      if (!was) {
        m.checks[check] = { state: 'ok', since: takenAt };
        changes.push({ check, state: 'ok', since: takenAt });
      }
      continue;
    }
    const state: CheckState = fault ? 'fault' : 'ok';
    if (was?.state === state) continue;
    // A freeze began with the first of the identical frames.
    const since = check === 'frozen' && fault ? (m.unchangedSince ?? takenAt) : takenAt;
    m.checks[check] = { state, since };
    changes.push({ check, state, since });
  }
  return { memory: m, activity, changes };
}

/** Takes the latest analysed frame as the reference view (the owner accepts the camera's new view). */
export function resetReference(before: CameraMemory, at: string): CameraMemory {
  const m: CameraMemory = { ...before, checks: { ...before.checks } };
  m.reference = m.previous;
  m.referenceAt = m.previous ? at : null;
  if (m.checks.moved?.state === 'fault') m.checks.moved = { state: 'ok', since: at };
  return m;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
