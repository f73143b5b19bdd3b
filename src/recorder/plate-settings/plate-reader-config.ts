// A device's plate-reader settings as the API takes and shows them, with their defaults and checks.
import { Type, type Static } from 'typebox';
import { validation } from '../../lib/errors.js';
import { StringEnum } from '../../lib/http/schemas.js';
import { COUNTRIES, compilePattern } from './plate-pattern.js';
import { normalisePlate } from './plate-text.js';

const WatchEntry = Type.Object(
  {
    plate: Type.String({ minLength: 1, maxLength: 32 }),
    list_type: Type.Optional(StringEnum(['white', 'black', 'other'])),
    label: Type.Optional(Type.String({ maxLength: 200, description: 'Vendor, category or note, copied into the event' })),
  },
  { additionalProperties: false },
);

export const PlateReaderInput = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Read plates from this device’s stream' }),
    country: Type.Optional(StringEnum(COUNTRIES, { description: 'Plate format the reads must match (any: 4 to 10 letters and digits, both present)' })),
    pattern: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Own plate format, a regular expression on the plate without spaces; replaces `country`' }),
    ),
    fps: Type.Optional(Type.Number({ minimum: 0.2, maximum: 10, description: 'Frames read per second (fewer when the CPU cannot keep up)' })),
    frame_width: Type.Optional(Type.Integer({ minimum: 160, maximum: 1920, description: 'Frames are scaled to this width before reading' })),
    direction: Type.Optional(
      StringEnum(['in', 'out', 'unknown'], { description: 'The direction every vehicle this camera sees travels (entry or exit camera)' }),
    ),
    min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Reads below this confidence are ignored' })),
    gap_seconds: Type.Optional(Type.Number({ minimum: 0.5, maximum: 60, description: 'A vehicle has passed when its plate is not read for this long' })),
    watch_list: Type.Optional(Type.Array(WatchEntry, { maxItems: 2000 })),
    watch_max_distance: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3, description: 'A read this many characters from a watch-list plate (edit distance) still matches it' }),
    ),
  },
  { additionalProperties: false },
);
export type PlateReaderInput = Static<typeof PlateReaderInput>;

export interface WatchListEntry {
  plate: string;
  list_type: 'white' | 'black' | 'other';
  label: string | null;
}

export interface PlateReaderConfig {
  enabled: boolean;
  country: (typeof COUNTRIES)[number];
  pattern: string | null;
  fps: number;
  frame_width: number;
  direction: 'in' | 'out' | 'unknown';
  min_confidence: number;
  gap_seconds: number;
  watch_list: WatchListEntry[];
  watch_max_distance: number;
}

export const PlateReaderView = Type.Object({
  enabled: Type.Boolean(),
  country: Type.String(),
  pattern: Type.Union([Type.String(), Type.Null()]),
  fps: Type.Number(),
  frame_width: Type.Integer(),
  direction: Type.String(),
  min_confidence: Type.Number(),
  gap_seconds: Type.Number(),
  watch_list: Type.Array(Type.Object({ plate: Type.String(), list_type: Type.String(), label: Type.Union([Type.String(), Type.Null()]) })),
  watch_max_distance: Type.Integer(),
});

export const PLATE_READER_DEFAULTS: PlateReaderConfig = {
  enabled: false,
  country: 'any',
  pattern: null,
  fps: 2,
  frame_width: 640,
  direction: 'unknown',
  min_confidence: 0.8,
  gap_seconds: 2,
  watch_list: [],
  watch_max_distance: 1,
};

/** The stored settings, merged with the defaults (null: never configured). */
export function plateReaderConfig(stored: string | null): PlateReaderConfig {
  return { ...PLATE_READER_DEFAULTS, ...(stored ? (JSON.parse(stored) as Partial<PlateReaderConfig>) : {}) };
}

/** New settings over the current ones, checked; the JSON to store. */
export function mergePlateReader(current: string | null, input: PlateReaderInput): string {
  const { watch_list, pattern, ...rest } = input;
  const next: PlateReaderConfig = { ...plateReaderConfig(current), ...rest };
  if (pattern !== undefined) next.pattern = pattern;
  else if (input.country !== undefined) next.pattern = null;
  if (next.pattern !== null) {
    const why = compilePattern(next.pattern).error;
    if (why) throw validation('plate_reader.pattern', why);
  }
  if (watch_list) {
    next.watch_list = watch_list.map((w, i) => {
      const plate = normalisePlate(w.plate);
      if (!plate) throw validation(`plate_reader.watch_list.${i}.plate`, 'must contain letters or digits');
      return { plate, list_type: w.list_type ?? 'other', label: w.label?.trim() || null };
    });
  }
  return JSON.stringify(next);
}
