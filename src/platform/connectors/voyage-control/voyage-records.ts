// Voyage Control's shapes as Overlook shows them: a booking (delivery, collection or visit slot at a
// venue) and a gate event pushed by its webhook. Fields follow the provider's names.
import { Type, type Static } from 'typebox';
import { validation } from '../../../lib/errors.js';
import { Nullable } from '../../../lib/http/schemas.js';
import { isoTime } from './site-routes-common.js';

export const Booking = Type.Object({
  id: Type.String(),
  reference: Nullable(Type.String()),
  status: Nullable(Type.String()),
  type: Nullable(Type.String({ description: 'delivery, collection, visit…' })),
  company: Nullable(Type.String()),
  vehicle_registration: Nullable(Type.String()),
  vehicle_type: Nullable(Type.String()),
  gate: Nullable(Type.String()),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
  arrived_at: Nullable(Type.String()),
});
export type Booking = Static<typeof Booking>;

const s = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const o = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export function toBooking(raw: unknown): Booking {
  const b = o(raw);
  const gate = o(b.gate);
  return {
    id: s(b.id) ?? '',
    reference: s(b.reference),
    status: s(b.status),
    type: s(b.type),
    company: s(b.company) ?? s(o(b.company).name),
    vehicle_registration: s(b.vehicle_registration),
    vehicle_type: s(b.vehicle_type),
    gate: s(b.gate) ?? s(gate.name),
    start_time: s(b.start_time),
    end_time: s(b.end_time),
    arrived_at: s(b.arrived_at),
  };
}

export interface GateEvent {
  id: string;
  type: string;
  occurred_at: string;
  gate: string | null;
  booking_id: string | null;
  booking_reference: string | null;
  vehicle_registration: string | null;
  company: string | null;
}

const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A gate event body: `{ id, type, occurred_at, gate?, booking? }`; anything else is a 400. */
export function parseGateEvent(body: unknown): GateEvent {
  const b = o(body);
  if (typeof b.id !== 'string' || !ID.test(b.id)) throw validation('id', 'an event id (1–128 letters, digits, _ . : -) is required');
  if (typeof b.type !== 'string' || !/^[a-z][a-z_.]{0,63}$/.test(b.type)) throw validation('type', 'an event type such as gate.entry is required');
  const occurred = isoTime('occurred_at', b.occurred_at);
  const booking = o(b.booking);
  const gate = o(b.gate);
  const short = (v: unknown) => s(v)?.slice(0, 200) ?? null;
  return {
    id: b.id,
    type: b.type,
    occurred_at: occurred.toISOString(),
    gate: short(s(b.gate) ?? gate.name),
    booking_id: short(booking.id),
    booking_reference: short(booking.reference),
    vehicle_registration: short(booking.vehicle_registration ?? b.vehicle_registration),
    company: short(s(booking.company) ?? o(booking.company).name),
  };
}
