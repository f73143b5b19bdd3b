// Pairing plate reads into visits: gate roles and read directions, repeats, missed exits and entries,
// vehicles still on site; and the report's counts and CSV for a small known day.
import { describe, expect, it } from 'vitest';
import { pairVisits, type GateRead, type GateRole } from '../../../src/ai/gate-report/pairing.js';
import { buildReport } from '../../../src/ai/gate-report/report.js';
import { reportCsv } from '../../../src/ai/gate-report/csv.js';
import { localDateHour, localMidnight } from '../../../src/ai/gate-report/local-time.js';

let n = 0;
const read = (plate: string, at: string, camera = 'gate', direction: GateRead['direction'] = 'unknown'): GateRead => ({
  id: `e${++n}`,
  camera_exid: camera,
  plate,
  plate_raw: plate,
  at: `2026-11-20T${at}:00.000Z`,
  direction,
});

describe('pairVisits', () => {
  it('pairs by camera role, drops repeats, and reports missed exits, missed entries and vehicles on site', () => {
    const roles = new Map<string, GateRole>([
      ['in', 'entry'],
      ['out', 'exit'],
    ]);
    const p = pairVisits(
      [
        read('AAA111', '08:00', 'in'),
        read('AAA111', '08:01', 'in'),
        read('AAA111', '10:00', 'out'),
        read('BBB222', '07:00', 'in'),
        read('BBB222', '09:00', 'in'),
        read('BBB222', '09:30', 'out'),
        read('CCC333', '06:00', 'out'),
        read('DDD444', '17:00', 'in'),
        read('EEE555', '12:00', 'yard'),
      ],
      roles,
    );
    expect(p.visits.map((v) => [v.plate, v.entry.at.slice(11, 16), v.exit.at.slice(11, 16), v.dwell_seconds])).toEqual([
      ['AAA111', '08:00', '10:00', 7200],
      ['BBB222', '09:00', '09:30', 1800],
    ]);
    expect(p.unmatched_entries.map((m) => [m.plate, m.at.slice(11, 16)])).toEqual([['BBB222', '07:00']]);
    expect(p.unmatched_exits.map((m) => m.plate)).toEqual(['CCC333']);
    expect(p.on_site.map((m) => m.plate)).toEqual(['DDD444']);
    expect(p.ignored).toEqual({ not_a_gate: 1, no_direction: 0, repeats: 1 });
  });

  it('uses each read’s direction on a camera marked both, or on every camera when none is marked', () => {
    const reads = [read('AAA111', '08:00', 'gate', 'in'), read('AAA111', '09:00', 'gate', 'unknown'), read('AAA111', '11:00', 'gate', 'out')];
    for (const roles of [new Map<string, GateRole>(), new Map<string, GateRole>([['gate', 'both']])]) {
      const p = pairVisits(reads, roles);
      expect(p.visits.map((v) => v.dwell_seconds)).toEqual([10800]);
      expect(p.ignored.no_direction).toBe(1);
    }
  });
});

describe('local time', () => {
  it('finds local midnight and hours across a daylight-saving change', () => {
    expect(new Date(localMidnight('2026-11-20', 'UTC')).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(new Date(localMidnight('2026-07-01', 'Europe/London')).toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect(new Date(localMidnight('2026-03-29', 'Europe/Berlin')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(localMidnight('2026-03-30', 'Europe/Berlin')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(localDateHour(Date.parse('2026-06-30T23:30:00Z'), 'Europe/London')).toEqual({ date: '2026-07-01', hour: 0 });
  });
});

describe('report and CSV', () => {
  it('counts a day per hour and vendor, and its CSV says the same', () => {
    const roles = new Map<string, GateRole>([
      ['in', 'entry'],
      ['out', 'exit'],
    ]);
    const reads = [read('AAA111', '08:00', 'in'), read('AAA111', '10:00', 'out'), read('BBB222', '08:30', 'in'), read('CCC333', '06:00', 'out')];
    const r = buildReport({
      reads,
      roles,
      labels: new Map([['AAA111', '=Concrete, "Mix" Co']]),
      corrections: [{ event_id: reads[1]?.id ?? '', plate_before: 'AAA11', corrected_by: 'ann@example.com', created_at: '2026-11-21T08:00:00Z' }],
      from: Date.parse('2026-11-20T00:00:00Z'),
      to: Date.parse('2026-11-21T00:00:00Z'),
      timeZone: 'UTC',
    });
    expect(r.totals).toEqual({ entries: 2, exits: 2, visits: 1, unmatched_entries: 0, unmatched_exits: 1, on_site: 1, mean_dwell_seconds: 7200 });
    expect(r.per_hour.filter((h) => h.entries || h.exits)).toEqual([
      { hour: 6, entries: 0, exits: 1 },
      { hour: 8, entries: 2, exits: 0 },
      { hour: 10, entries: 0, exits: 1 },
    ]);
    expect(r.per_vendor).toEqual([
      { vendor: '=Concrete, "Mix" Co', entries: 1, exits: 1, visits: 1, mean_dwell_seconds: 7200 },
      { vendor: null, entries: 1, exits: 1, visits: 0, mean_dwell_seconds: null },
    ]);
    expect(r.per_day).toEqual([{ date: '2026-11-20', entries: 2, exits: 2, visits: 1 }]);
    expect(reportCsv(r).split('\r\n')).toEqual([
      'kind,plate,vendor,entry_at,exit_at,dwell_seconds,entry_camera,exit_camera,corrected_by',
      `visit,AAA111,"'=Concrete, ""Mix"" Co",2026-11-20T08:00:00.000Z,2026-11-20T10:00:00.000Z,7200,in,out,ann@example.com`,
      'unmatched_exit,CCC333,,,2026-11-20T06:00:00.000Z,,,out,',
      'on_site,BBB222,,2026-11-20T08:30:00.000Z,,,in,,',
      '',
    ]);
  });
});
