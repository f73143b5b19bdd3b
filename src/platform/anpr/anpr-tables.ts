// The ANPR feature's tables: number-plate reads (plate images in the object store under `image_key`),
// the tokens cameras push them with (only the SHA-256 of a value is kept), and each project's watch list.
import { json, nullable, oneOf, real, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export const DIRECTIONS = ['in', 'out', 'unknown'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const BBOX_UNITS = ['pixels', 'normalized'] as const;

/** One number-plate read of a camera. */
const anprEvents = table({
  id: text(),
  camera_id: text(),
  /** Normalised: upper-case, no spaces or dashes. */
  plate: text(),
  /** As the camera read it. */
  plate_raw: text(),
  captured_at: timestamp(),
  direction: oneOf(DIRECTIONS),
  confidence: nullable(real()),
  /** [x1, y1, x2, y2] in `bbox_units`. */
  bbox: nullable(json()),
  bbox_units: nullable(oneOf(BBOX_UNITS)),
  image_key: nullable(text()),
  /** Object. */
  metadata: json(),
  token_id: nullable(text()),
  created_at: timestamp(),
});
export type AnprEventsTable = TableType<typeof anprEvents>;

/** A camera's or recorder's token for pushing ANPR events. */
const anprIngestionTokens = table({
  id: text(),
  camera_id: text(),
  name: text(),
  token_hash: text(),
  token_hint: text(),
  created_by: nullable(text()),
  created_at: timestamp(),
  last_used_at: nullable(timestamp()),
  revoked_at: nullable(timestamp()),
});
export type AnprIngestionTokensTable = TableType<typeof anprIngestionTokens>;

/** Plates a project watches for (`GET …/anpr/matched`), keyed by the normalised plate. */
const anprWatchlist = table({
  project_id: text(),
  plate: text(),
  label: text(),
  created_by: nullable(text()),
  created_at: timestamp(),
});
export type AnprWatchlistTable = TableType<typeof anprWatchlist>;

export const GATE_ROLES = ['entry', 'exit', 'both'] as const;
export type GateRole = (typeof GATE_ROLES)[number];

/** A correction of a misread plate: the event's plate before and after, and who changed it. */
const anprCorrections = table({
  id: text(),
  event_id: text(),
  camera_id: text(),
  project_id: text(),
  plate_before: text(),
  plate_after: text(),
  note: nullable(text()),
  corrected_by: nullable(text()),
  created_at: timestamp(),
});
export type AnprCorrectionsTable = TableType<typeof anprCorrections>;

/** A camera that watches a gate: entry, exit, or both (each read's own direction then decides). */
const anprGates = table({
  camera_id: text(),
  project_id: text(),
  role: oneOf(GATE_ROLES),
  updated_by: nullable(text()),
  updated_at: timestamp(),
});
export type AnprGatesTable = TableType<typeof anprGates>;

export const anprTables = {
  anpr_events: anprEvents,
  anpr_ingestion_tokens: anprIngestionTokens,
  anpr_watchlist: anprWatchlist,
  anpr_corrections: anprCorrections,
  anpr_gates: anprGates,
};
export type AnprTables = TablesType<typeof anprTables>;
