// Plates as cameras read them ("ab 12-cde") and as Overlook compares them ("AB12CDE"): every filter,
// count and watch-list match works on the normalised form, so one car is one plate whatever the spacing.
import { validation } from '../../lib/errors.js';

const MAX_PLATE_LENGTH = 20;
// Spaces of any kind, and the dashes and dots plates are printed or read with.
const SEPARATORS = /[\s\-‐‑‒–—―−.·]+/gu;
const PLATE = new RegExp(`^[\\p{L}\\p{N}]{1,${MAX_PLATE_LENGTH}}$`, 'u');

/** The normalised plate, or null when nothing of a plate is left (only letters and digits, any script). */
export function normalisePlate(raw: string): string | null {
  const plate = raw.normalize('NFKC').replace(SEPARATORS, '').toUpperCase();
  return PLATE.test(plate) ? plate : null;
}

export function plateOrFail(raw: string, field: string): string {
  const plate = normalisePlate(raw);
  if (!plate) throw validation(field, `must be a plate: letters and digits (spaces and dashes are ignored), at most ${MAX_PLATE_LENGTH}`);
  return plate;
}

/** A `plate` filter: exact (`AB12CDE`) or, with a trailing `*`, a prefix (`AB12*`). */
export type PlateFilter = { exact: string } | { prefix: string };

export function plateFilter(value: string | undefined): PlateFilter | undefined {
  if (value === undefined) return undefined;
  const prefix = value.endsWith('*');
  const plate = plateOrFail(prefix ? value.slice(0, -1) : value, 'plate');
  return prefix ? { prefix: plate } : { exact: plate };
}
