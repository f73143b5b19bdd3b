// The gate report of a time range (docs/plates.md, Gate report): the paired visits and unmatched
// reads that fall in it, counted per hour of the day, per day and per vendor (the watch list's label).
import { type GateRead, type GateRole, type Movement, pairVisits, type Visit } from './pairing.js';
import { localDateHour } from './local-time.js';

export interface CorrectionNote {
  event_id: string;
  plate_before: string;
  corrected_by: string | null;
  created_at: string;
}

export interface ReportInput {
  reads: GateRead[];
  roles: Map<string, GateRole>;
  /** Plate → watch-list label (vendor or category). */
  labels: Map<string, string>;
  corrections: CorrectionNote[];
  from: number;
  to: number;
  timeZone: string;
}

const within = (at: string, i: ReportInput) => {
  const t = Date.parse(at);
  return t >= i.from && t < i.to;
};

interface Counts {
  entries: number;
  exits: number;
  visits: number;
}

export function buildReport(input: ReportInput) {
  const pairing = pairVisits(input.reads, input.roles);
  const vendor = (plate: string) => input.labels.get(plate) ?? null;
  const fixes = new Map<string, CorrectionNote[]>();
  for (const c of input.corrections) fixes.set(c.event_id, [...(fixes.get(c.event_id) ?? []), c]);
  const correctionsOf = (...ids: string[]) => ids.flatMap((id) => fixes.get(id) ?? []);

  const visits = pairing.visits.filter((v) => within(v.entry.at, input) || within(v.exit.at, input));
  const inRange = (ms: Movement[]) => ms.filter((m) => within(m.at, input));
  const unmatchedEntries = inRange(pairing.unmatched_entries);
  const unmatchedExits = inRange(pairing.unmatched_exits);
  const entries = [...visits.map((v) => v.entry), ...unmatchedEntries, ...pairing.on_site].filter((m) => within(m.at, input));
  const exits = [...visits.map((v) => v.exit), ...unmatchedExits].filter((m) => within(m.at, input));

  const perHour = Array.from({ length: 24 }, (_, hour) => ({ hour, entries: 0, exits: 0 }));
  const perDay = new Map<string, Counts>();
  const perVendor = new Map<string, Counts & { dwell: number }>();
  const hour = (at: string) => perHour[localDateHour(Date.parse(at), input.timeZone).hour] ?? { entries: 0, exits: 0 };
  const day = (at: string) => {
    const { date } = localDateHour(Date.parse(at), input.timeZone);
    const c = perDay.get(date) ?? { entries: 0, exits: 0, visits: 0 };
    perDay.set(date, c);
    return c;
  };
  const vendorCounts = (plate: string) => {
    const key = vendor(plate) ?? '';
    const c = perVendor.get(key) ?? { entries: 0, exits: 0, visits: 0, dwell: 0 };
    perVendor.set(key, c);
    return c;
  };
  for (const m of entries) {
    hour(m.at).entries++;
    day(m.at).entries++;
    vendorCounts(m.plate).entries++;
  }
  for (const m of exits) {
    hour(m.at).exits++;
    day(m.at).exits++;
    vendorCounts(m.plate).exits++;
  }
  // A visit counts on the day it ended (or began, when it ended after the range).
  for (const v of visits) {
    day(within(v.exit.at, input) ? v.exit.at : v.entry.at).visits++;
    const c = vendorCounts(v.plate);
    c.visits++;
    c.dwell += v.dwell_seconds;
  }

  const move = (m: Movement) => ({
    plate: m.plate,
    vendor: vendor(m.plate),
    at: m.at,
    camera_exid: m.camera_exid,
    event_id: m.id,
    corrections: correctionsOf(m.id),
  });
  const visit = (v: Visit) => ({
    plate: v.plate,
    vendor: vendor(v.plate),
    entry_at: v.entry.at,
    exit_at: v.exit.at,
    dwell_seconds: v.dwell_seconds,
    entry_camera: v.entry.camera_exid,
    exit_camera: v.exit.camera_exid,
    entry_event_id: v.entry.id,
    exit_event_id: v.exit.id,
    corrections: correctionsOf(v.entry.id, v.exit.id),
  });
  const dwell = visits.reduce((s, v) => s + v.dwell_seconds, 0);
  return {
    from: new Date(input.from).toISOString(),
    to: new Date(input.to).toISOString(),
    time_zone: input.timeZone,
    totals: {
      entries: entries.length,
      exits: exits.length,
      visits: visits.length,
      unmatched_entries: unmatchedEntries.length,
      unmatched_exits: unmatchedExits.length,
      on_site: pairing.on_site.length,
      mean_dwell_seconds: visits.length ? Math.round(dwell / visits.length) : null,
    },
    per_hour: perHour,
    per_day: [...perDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, c]) => ({ date, ...c })),
    per_vendor: [...perVendor]
      .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
      .map(([v, c]) => ({
        vendor: v || null,
        entries: c.entries,
        exits: c.exits,
        visits: c.visits,
        mean_dwell_seconds: c.visits ? Math.round(c.dwell / c.visits) : null,
      })),
    visits: visits.map(visit),
    unmatched_entries: unmatchedEntries.map(move),
    unmatched_exits: unmatchedExits.map(move),
    on_site: pairing.on_site.map(move),
    ignored_reads: pairing.ignored,
  };
}

export type GateReport = ReturnType<typeof buildReport>;
