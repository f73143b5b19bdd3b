// The activity timeline's answers (docs/analysis.md, Activity), one definition for the main API, which
// computes them, and the AI API, which passes them on.
import { Type } from 'typebox';

/** A local day, or a range instead of it. */
export const ActivitySpanQuery = {
  date: Type.Optional(Type.String({ maxLength: 10, description: 'A local day, YYYY-MM-DD (the camera’s or project’s time zone)' })),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'RFC 3339; with `to`, instead of `date`' })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
};

const Quarter = Type.Object({
  start: Type.String({ description: 'Start of the quarter hour (UTC)' }),
  score: Type.Number({ description: 'Sum of the frames’ activity scores' }),
  frames: Type.Integer(),
  peak_at: Type.String({ description: 'The frame with the most activity in the quarter' }),
});

export const CameraActivity = Type.Object({
  camera_exid: Type.String(),
  timezone: Type.String(),
  from: Type.String(),
  to: Type.String(),
  quarters: Type.Array(Quarter),
});

export const ProjectActivity = Type.Object({
  project_exid: Type.String(),
  timezone: Type.String(),
  from: Type.String(),
  to: Type.String(),
  quarters: Type.Array(Quarter, { description: 'Summed over the project’s cameras' }),
  cameras: Type.Array(Type.Object({ camera_exid: Type.String(), quarters: Type.Array(Quarter) })),
});

export const BusiestMoments = Type.Object({
  project_exid: Type.String(),
  from: Type.String(),
  to: Type.String(),
  moments: Type.Array(
    Type.Object({
      camera_exid: Type.String(),
      start: Type.String(),
      end: Type.String(),
      score: Type.Number(),
      frames: Type.Integer(),
      peak_at: Type.String(),
    }),
  ),
});
