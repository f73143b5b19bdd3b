// The gate report's response schema (report.ts builds it; the serializer keeps to these fields).
import { Type } from 'typebox';
import { Nullable } from '../../lib/http/schemas.js';

const Counts = { entries: Type.Integer(), exits: Type.Integer() };
const Correction = Type.Object({ event_id: Type.String(), plate_before: Type.String(), corrected_by: Nullable(Type.String()), created_at: Type.String() });
const Move = Type.Object({
  plate: Type.String(),
  vendor: Nullable(Type.String()),
  at: Type.String({ format: 'date-time' }),
  camera_exid: Type.String(),
  event_id: Type.String(),
  corrections: Type.Array(Correction),
});
const Visit = Type.Object({
  plate: Type.String(),
  vendor: Nullable(Type.String({ description: 'The plate’s label on the project’s watch list' })),
  entry_at: Type.String({ format: 'date-time' }),
  exit_at: Type.String({ format: 'date-time' }),
  dwell_seconds: Type.Integer(),
  entry_camera: Type.String(),
  exit_camera: Type.String(),
  entry_event_id: Type.String(),
  exit_event_id: Type.String(),
  corrections: Type.Array(Correction, { description: 'Corrections of the entry’s or exit’s plate, with who made them' }),
});

export const GateReportSchema = Type.Object({
  project: Type.String(),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  time_zone: Type.String(),
  totals: Type.Object({
    ...Counts,
    visits: Type.Integer(),
    unmatched_entries: Type.Integer(),
    unmatched_exits: Type.Integer(),
    on_site: Type.Integer(),
    mean_dwell_seconds: Nullable(Type.Integer()),
  }),
  per_hour: Type.Array(Type.Object({ hour: Type.Integer({ description: 'Local hour of the day, 0–23' }), ...Counts })),
  per_day: Type.Array(Type.Object({ date: Type.String(), ...Counts, visits: Type.Integer() })),
  per_vendor: Type.Array(
    Type.Object({
      vendor: Nullable(Type.String({ description: 'null: plates not on the watch list' })),
      ...Counts,
      visits: Type.Integer(),
      mean_dwell_seconds: Nullable(Type.Integer()),
    }),
  ),
  visits: Type.Array(Visit),
  unmatched_entries: Type.Array(Move, { description: 'Entries whose exit was missed (the plate entered again first)' }),
  unmatched_exits: Type.Array(Move, { description: 'Exits with no entry before them' }),
  on_site: Type.Array(Move, { description: 'Entries with no later read of the plate: still on site at the end of the range' }),
  ignored_reads: Type.Object({ not_a_gate: Type.Integer(), no_direction: Type.Integer(), repeats: Type.Integer() }),
});
