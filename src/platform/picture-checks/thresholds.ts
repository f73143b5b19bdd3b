// Per-camera thresholds of the picture checks (docs/analysis.md, Thresholds): the defaults, their
// bounds (the schema GET and PATCH use) and how a camera's stored changes combine with the defaults.
import { Type, type Static } from 'typebox';

export const Thresholds = Type.Object(
  {
    black_level: Type.Integer({ minimum: 0, maximum: 127, description: 'Black when 95 % of the picture is at or below this grey level (0–255)' }),
    blown_out_level: Type.Integer({
      minimum: 128,
      maximum: 255,
      description: 'Blown out (reported as black) when 95 % of the picture is at or above this level',
    }),
    frozen_frames: Type.Integer({ minimum: 2, maximum: 1000, description: 'Frozen after this many frames in a row show the same picture' }),
    frozen_change_percent: Type.Number({
      minimum: 0,
      maximum: 20,
      description: 'Two frames are the same picture when at most this share of pixels changed (room for a timestamp overlay)',
    }),
    blur_ratio: Type.Number({ minimum: 0.05, maximum: 0.95, description: 'Blurred when the detail falls below this fraction of the camera’s usual detail' }),
    covered_contrast: Type.Integer({ minimum: 0, maximum: 128, description: 'Covered (reported as blurred) when the 5–95 % brightness range is below this' }),
    moved_percent: Type.Number({ minimum: 1, maximum: 7, description: 'Moved when the view shifted by this share of its width against the reference' }),
  },
  { additionalProperties: false, $id: 'PictureCheckThresholds' },
);
export type Thresholds = Static<typeof Thresholds>;

export const ThresholdsPatch = Type.Partial(Thresholds, { additionalProperties: false, minProperties: 1 });
export type ThresholdsPatch = Static<typeof ThresholdsPatch>;

export const DEFAULT_THRESHOLDS: Thresholds = {
  black_level: 16,
  blown_out_level: 245,
  frozen_frames: 10,
  frozen_change_percent: 1,
  blur_ratio: 0.5,
  covered_contrast: 10,
  moved_percent: 3,
};

/** The camera's thresholds: its stored changes over the defaults. */
export function thresholdsOf(stored: string | null): Thresholds {
  if (!stored) return { ...DEFAULT_THRESHOLDS };
  const changed = JSON.parse(stored) as Partial<Thresholds>;
  return { ...DEFAULT_THRESHOLDS, ...changed };
}
