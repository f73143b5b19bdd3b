// The ANPR event as the API shows it, and its response schemas (the serializer keeps to these fields).
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import { BBOX_UNITS, DIRECTIONS, type AnprEventsTable, type Direction } from './anpr-tables.js';

const eventFields = {
  id: Type.String(),
  camera_exid: Type.String(),
  plate: Type.String({ description: 'Normalised: upper-case, without spaces or dashes' }),
  plate_raw: Type.String({ description: 'The text as the camera read it' }),
  captured_at: Type.String({ format: 'date-time' }),
  direction: StringEnum(DIRECTIONS),
  confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  bounding_box: Type.Union([Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[x1, y1, x2, y2]' }), Type.Null()]),
  bounding_box_units: Type.Union([StringEnum(BBOX_UNITS), Type.Null()]),
  has_plate_image: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: 'date-time' }),
};

export const AnprEvent = Type.Object(eventFields);
export const MatchedEvent = Type.Object({ ...eventFields, watchlist_label: Type.String() });
export const AnprEventWithImage = Type.Object({
  ...eventFields,
  plate_image: Nullable(Type.String({ description: 'data:image/jpeg;base64,… (or ask with Accept: image/jpeg for the bytes)' })),
});

export interface AnprEventRecord {
  id: string;
  camera_exid: string;
  plate: string;
  plate_raw: string;
  captured_at: string;
  direction: Direction;
  confidence: number | null;
  bounding_box: number[] | null;
  bounding_box_units: (typeof BBOX_UNITS)[number] | null;
  has_plate_image: boolean;
  metadata: Record<string, unknown>;
  created_at: string;
}

export const toEventRecord = (r: AnprEventsTable, cameraExid: string): AnprEventRecord => ({
  id: r.id,
  camera_exid: cameraExid,
  plate: r.plate,
  plate_raw: r.plate_raw,
  captured_at: r.captured_at,
  direction: r.direction as Direction,
  confidence: r.confidence === null ? null : Number(r.confidence),
  bounding_box: r.bbox ? (JSON.parse(r.bbox) as number[]) : null,
  bounding_box_units: r.bbox_units as AnprEventRecord['bounding_box_units'],
  has_plate_image: r.image_key !== null,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  created_at: r.created_at,
});
