// The site link's wire protocol (docs/site-link.md): what a recorder and the platform say to each other
// over the one WebSocket the recorder opens. Both ends import only this file from each other's side.
//
// A text message is one JSON message. A binary message carries a payload (a JPEG, a playlist, a
// segment): a 4-byte big-endian length, that many bytes of JSON header, then the payload bytes.
// Every message is checked against its schema on arrival; one that does not fit closes the link with
// PROTOCOL_ERROR.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';

export const SUBPROTOCOL = 'overlook-site-link.v1';
/** Where the recorder connects, below the platform's public URL. */
export const CONNECT_PATH = '/v2/recorder-links/connect';
/** Where the recorder exchanges a pairing code for its credential. */
export const PAIR_PATH = '/v2/recorder-links/pair';
/** The prefix of a link credential, so a leaked one is recognisable. */
export const CREDENTIAL_PREFIX = 'orl_';

export const CloseCode = {
  /** The link was revoked, or the credential is unknown: do not reconnect until linked again. */
  REVOKED: 4403,
  /** Another connection with the same credential took the link over. */
  REPLACED: 4409,
  /** Nothing was heard for SILENCE_MS. */
  SILENT: 4408,
  /** A message did not fit the protocol. */
  PROTOCOL_ERROR: 4400,
} as const;

export const HEARTBEAT_MS = 10_000;
export const SILENCE_MS = 30_000;
/** Frames and events a recorder may have sent and not yet seen acknowledged. */
export const MAX_UNACKED = 16;
/** Largest payload of one binary message (a JPEG frame or a live segment). */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
/** Largest image an event carries (a number-plate read's crop); a bigger one is scaled down or left out. */
export const MAX_EVENT_IMAGE_BYTES = 512 * 1024;

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Time = Type.String({ format: 'date-time', maxLength: 40 });
const Seq = Type.Integer({ minimum: 1 });

/** A device the recorder shares with the platform, as it is now. */
export const SharedDevice = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  state: Type.Union([Type.Literal('stopped'), Type.Literal('streaming'), Type.Literal('recording'), Type.Literal('failed')]),
  timezone: Type.String({ maxLength: 100 }),
});
export type SharedDevice = Static<typeof SharedDevice>;

/** How often and when the platform wants cloud frames of one device (its camera's recording settings). */
export const FrameSchedule = Type.Object({
  device_id: Id,
  camera_exid: Id,
  /** Frames a minute, 0 when cloud recording is off or paused. */
  frequency: Type.Integer({ minimum: 0, maximum: 60 }),
  /** Weekly windows in `timezone`, as the platform's recording schedule; null is always. */
  schedule: Type.Union([Type.Record(Type.String(), Type.Array(Type.String())), Type.Null()]),
  timezone: Type.String({ maxLength: 100 }),
});
export type FrameSchedule = Static<typeof FrameSchedule>;

// Recorder → platform

/** First message after connecting, and again whenever the shared devices change. */
const Devices = Type.Object({
  type: Type.Literal('devices'),
  recorder_version: Type.String({ maxLength: 50 }),
  devices: Type.Array(SharedDevice, { maxItems: 500 }),
});
/** A cloud frame (binary, the payload is the JPEG), owed since `taken_at`; acknowledged by `seq`. */
const Frame = Type.Object({ type: Type.Literal('frame'), seq: Seq, device_id: Id, taken_at: Time });
/**
 * A recorder event of a device; number-plate reads carry kind `plate` and `plate` in data, and come as a
 * binary message whose payload is the plate crop (a JPEG of at most MAX_EVENT_IMAGE_BYTES) when there is one.
 */
const DeviceEvent = Type.Object({
  type: Type.Literal('event'),
  seq: Seq,
  device_id: Id,
  kind: Type.String({ minLength: 1, maxLength: 50 }),
  at: Time,
  data: Type.Record(Type.String(), Type.Unknown()),
});
/** The answer to a request (binary when it carries a body); status follows HTTP. */
const Reply = Type.Object({
  type: Type.Literal('reply'),
  req: Type.Integer({ minimum: 1 }),
  status: Type.Integer({ minimum: 100, maximum: 599 }),
  content_type: Type.Optional(Type.String({ maxLength: 100 })),
  message: Type.Optional(Type.String({ maxLength: 500 })),
});
const Ping = Type.Object({ type: Type.Literal('ping'), at: Time });
const Pong = Type.Object({ type: Type.Literal('pong'), at: Time });

export const FromRecorder = Type.Union([Devices, Frame, DeviceEvent, Reply, Ping, Pong]);
export type FromRecorder = Static<typeof FromRecorder>;

// Platform → recorder

/** First message from the platform: which link and project this is. */
const Welcome = Type.Object({ type: Type.Literal('welcome'), link_id: Id, project_exid: Id });
/** Everything up to and including `seq` is stored; the recorder may forget it. */
const Ack = Type.Object({ type: Type.Literal('ack'), seq: Seq });
/** The cloud-frame schedules of every shared device, sent on connect and whenever they change. */
const Schedules = Type.Object({ type: Type.Literal('schedules'), schedules: Type.Array(FrameSchedule, { maxItems: 500 }) });
/**
 * Asks the recorder for something of a device: `snapshot` (a JPEG from the live stream),
 * `live_playlist` (the live HLS playlist; asking starts the live stream) or `live_segment` (`name`).
 */
const Request = Type.Object({
  type: Type.Literal('request'),
  req: Type.Integer({ minimum: 1 }),
  what: Type.Union([Type.Literal('snapshot'), Type.Literal('live_playlist'), Type.Literal('live_segment')]),
  device_id: Id,
  name: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$' })),
});

export const FromPlatform = Type.Union([Welcome, Ack, Schedules, Request, Ping, Pong]);
export type FromPlatform = Static<typeof FromPlatform>;

/** A decoded message: its JSON part, and the payload when it came as a binary message. */
export interface Decoded<M> {
  message: M;
  payload: Buffer | null;
}

const fromRecorder = Compile(FromRecorder);
const fromPlatform = Compile(FromPlatform);

/** Encodes a message: text when it has no payload, binary (length-prefixed header + payload) when it has. */
export function encode(message: FromRecorder | FromPlatform, payload?: Buffer): string | Buffer {
  const json = JSON.stringify(message);
  if (!payload) return json;
  const header = Buffer.from(json, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length, 0);
  return Buffer.concat([length, header, payload]);
}

function split(data: string | Buffer): { json: string; payload: Buffer | null } | null {
  if (typeof data === 'string') return { json: data, payload: null };
  if (data.length < 4) return null;
  const headerLength = data.readUInt32BE(0);
  if (headerLength > 64 * 1024 || 4 + headerLength > data.length) return null;
  if (data.length - 4 - headerLength > MAX_PAYLOAD_BYTES) return null;
  return { json: data.subarray(4, 4 + headerLength).toString('utf8'), payload: data.subarray(4 + headerLength) };
}

function decodeWith<M>(check: { Check(value: unknown): boolean }, data: string | Buffer): Decoded<M> | null {
  const parts = split(data);
  if (!parts) return null;
  let value: unknown;
  try {
    value = JSON.parse(parts.json);
  } catch {
    return null;
  }
  if (!check.Check(value)) return null;
  return { message: value as M, payload: parts.payload };
}

/** A message the recorder sent, or null when it does not fit the protocol. */
export function decodeFromRecorder(data: string | Buffer): Decoded<FromRecorder> | null {
  return decodeWith<FromRecorder>(fromRecorder, data);
}

/** A message the platform sent, or null when it does not fit the protocol. */
export function decodeFromPlatform(data: string | Buffer): Decoded<FromPlatform> | null {
  return decodeWith<FromPlatform>(fromPlatform, data);
}

/** `POST PAIR_PATH` body: the one-time code, and how the recorder calls itself. */
export const PairBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 40 }), recorder_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type PairBody = Static<typeof PairBody>;
/** `POST PAIR_PATH` answer (200): the link's long-lived credential, shown this once. */
export const PairAnswer = Type.Object({ link_id: Id, project_exid: Id, credential: Type.String() });
export type PairAnswer = Static<typeof PairAnswer>;
