// The doorbell provider's shapes as Overlook shows them: a device of the account, and an event its
// webhook pushes (a ring, a motion, the door opened…).
import { Type, type Static } from 'typebox';
import { validation } from '../../../lib/errors.js';
import { Nullable } from '../../../lib/http/schemas.js';
import { isoTime } from '../voyage-control/site-routes-common.js';

export const Device = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  model: Nullable(Type.String()),
  online: Nullable(Type.Boolean()),
  location: Nullable(Type.String()),
});
export type Device = Static<typeof Device>;

const s = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const o = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export function toDevice(raw: unknown): Device {
  const d = o(raw);
  return { id: s(d.id) ?? '', name: s(d.name), model: s(d.model), online: typeof d.online === 'boolean' ? d.online : null, location: s(d.location) };
}

export interface DoorbellEvent {
  id: string;
  type: string;
  device_id: string;
  occurred_at: string;
}

/** `{ id, type, device_id, occurred_at }` from the linked device; anything else is a 400. */
export function parseDoorbellEvent(body: unknown, linkedDevice: string): DoorbellEvent {
  const b = o(body);
  if (typeof b.id !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(b.id)) throw validation('id', 'an event id (1–128 letters, digits, _ . : -) is required');
  if (typeof b.type !== 'string' || !/^[a-z][a-z_.]{0,63}$/.test(b.type)) throw validation('type', 'an event type such as ring is required');
  const device = s(b.device_id);
  if (device !== linkedDevice) throw validation('device_id', 'is not the device this webhook was created for');
  return { id: b.id, type: b.type, device_id: device, occurred_at: isoTime('occurred_at', b.occurred_at).toISOString() };
}
