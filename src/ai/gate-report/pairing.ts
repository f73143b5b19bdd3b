// Pairs number-plate reads at a site's gates into visits (docs/plates.md, Gate report). Each read is
// an entry or an exit: by its camera's gate role, or by its own direction on a camera marked `both`
// (or on any camera when none is marked). A plate's reads, in time order: an entry opens a visit, the
// next exit closes it; an entry while a visit is open leaves that one an unmatched entry (its exit was
// missed); an exit with no open visit is an unmatched exit (its entry was missed). A read repeating
// the same plate and movement within two minutes is the same passage seen twice and is dropped.

export type GateRole = 'entry' | 'exit' | 'both';

export interface GateRead {
  id: string;
  camera_exid: string;
  plate: string;
  /** The camera's own read when the plate was corrected since. */
  plate_raw: string;
  at: string;
  direction: 'in' | 'out' | 'unknown';
}

export interface Movement extends GateRead {
  movement: 'entry' | 'exit';
}

export interface Visit {
  plate: string;
  entry: Movement;
  exit: Movement;
  dwell_seconds: number;
}

export interface Pairing {
  visits: Visit[];
  unmatched_entries: Movement[];
  unmatched_exits: Movement[];
  /** Entries with no later read of the plate: still on site at the end of the reads. */
  on_site: Movement[];
  /** Reads dropped: on a camera that is not a gate, with no direction, or repeats. */
  ignored: { not_a_gate: number; no_direction: number; repeats: number };
}

const REPEAT_MS = 120_000;

/** The movement a read stands for, or why it stands for none. */
function movementOf(r: GateRead, roles: Map<string, GateRole>): Movement['movement'] | 'not_a_gate' | 'no_direction' {
  const role = roles.size === 0 ? 'both' : roles.get(r.camera_exid);
  if (!role) return 'not_a_gate';
  if (role !== 'both') return role;
  if (r.direction === 'in') return 'entry';
  if (r.direction === 'out') return 'exit';
  return 'no_direction';
}

export function pairVisits(reads: GateRead[], roles: Map<string, GateRole>): Pairing {
  const out: Pairing = { visits: [], unmatched_entries: [], unmatched_exits: [], on_site: [], ignored: { not_a_gate: 0, no_direction: 0, repeats: 0 } };
  const byPlate = new Map<string, Movement[]>();
  const sorted = [...reads].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.id.localeCompare(b.id));
  for (const r of sorted) {
    const m = movementOf(r, roles);
    if (m === 'not_a_gate' || m === 'no_direction') {
      out.ignored[m]++;
      continue;
    }
    const list = byPlate.get(r.plate) ?? [];
    const last = list.at(-1);
    if (last && last.movement === m && Date.parse(r.at) - Date.parse(last.at) < REPEAT_MS) {
      out.ignored.repeats++;
      continue;
    }
    list.push({ ...r, movement: m });
    byPlate.set(r.plate, list);
  }
  for (const [plate, moves] of byPlate) {
    let open: Movement | null = null;
    for (const m of moves) {
      if (m.movement === 'entry') {
        if (open) out.unmatched_entries.push(open);
        open = m;
      } else if (open) {
        out.visits.push({ plate, entry: open, exit: m, dwell_seconds: Math.round((Date.parse(m.at) - Date.parse(open.at)) / 1000) });
        open = null;
      } else out.unmatched_exits.push(m);
    }
    if (open) out.on_site.push(open);
  }
  const byTime = (a: { at: string }, b: { at: string }) => Date.parse(a.at) - Date.parse(b.at);
  out.visits.sort((a, b) => byTime(a.entry, b.entry));
  out.unmatched_entries.sort(byTime);
  out.unmatched_exits.sort(byTime);
  out.on_site.sort(byTime);
  return out;
}
