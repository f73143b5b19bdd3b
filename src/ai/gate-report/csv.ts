// The gate report as CSV (RFC 4180): one row per visit, unmatched entry, unmatched exit and vehicle
// still on site. A cell that a spreadsheet would run as a formula (= + - @ first) gets a leading quote.
import type { GateReport } from './report.js';

const CSV_COLUMNS = ['kind', 'plate', 'vendor', 'entry_at', 'exit_at', 'dwell_seconds', 'entry_camera', 'exit_camera', 'corrected_by'] as const;

function cell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function reportCsv(r: GateReport): string {
  const who = (cs: { corrected_by: string | null }[]) => [...new Set(cs.map((c) => c.corrected_by ?? 'unknown'))].join(' ') || null;
  const rows: (string | number | null)[][] = [
    ...r.visits.map((v) => ['visit', v.plate, v.vendor, v.entry_at, v.exit_at, v.dwell_seconds, v.entry_camera, v.exit_camera, who(v.corrections)]),
    ...r.unmatched_entries.map((m) => ['unmatched_entry', m.plate, m.vendor, m.at, null, null, m.camera_exid, null, who(m.corrections)]),
    ...r.unmatched_exits.map((m) => ['unmatched_exit', m.plate, m.vendor, null, m.at, null, null, m.camera_exid, who(m.corrections)]),
    ...r.on_site.map((m) => ['on_site', m.plate, m.vendor, m.at, null, null, m.camera_exid, null, who(m.corrections)]),
  ];
  return [[...CSV_COLUMNS], ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
