// Plate formats: a country's (plates without spaces or dashes) or the device's own regular expression.
// A read that does not match is tried again with the characters OCR confuses swapped (O for 0, I for
// 1, …), fewest swaps first, so `AB12CDE` read as `A812CDE` still comes out right where the format
// says which positions are letters and which digits.

export const COUNTRIES = ['any', 'GB', 'IE', 'DE', 'FR', 'IT', 'ES', 'NL', 'PL', 'US'] as const;

const PRESETS: Record<(typeof COUNTRIES)[number], string> = {
  any: '^(?=.*[0-9])(?=.*[A-Z])[A-Z0-9]{4,10}$',
  GB: '^[A-Z]{2}[0-9]{2}[A-Z]{3}$',
  IE: '^[0-9]{2,3}[A-Z]{1,2}[0-9]{1,6}$',
  DE: '^[A-Z]{1,3}[A-Z]{1,2}[0-9]{1,4}[EH]?$',
  FR: '^[A-Z]{2}[0-9]{3}[A-Z]{2}$',
  IT: '^[A-Z]{2}[0-9]{3}[A-Z]{2}$',
  ES: '^[0-9]{4}[B-DF-HJ-NP-TV-Z]{3}$',
  NL: '^[A-Z0-9]{6}$',
  PL: '^[A-Z]{2,3}[A-Z0-9]{4,5}$',
  US: '^[A-Z0-9]{2,8}$',
};

/** Letter ↔ digit pairs the recogniser mixes up. */
const CONFUSED: Record<string, string> = {
  O: '0',
  '0': 'O',
  D: '0',
  Q: '0',
  I: '1',
  '1': 'I',
  Z: '2',
  '2': 'Z',
  S: '5',
  '5': 'S',
  B: '8',
  '8': 'B',
  G: '6',
  '6': 'G',
  T: '7',
  '7': 'T',
  A: '4',
  '4': 'A',
};
const MAX_SWAPPABLE = 10;

export function compilePattern(source: string): { regex?: RegExp; error?: string } {
  try {
    return { regex: new RegExp(source) };
  } catch (err) {
    return { error: `is not a regular expression: ${(err as Error).message}` };
  }
}

export function plateFormat(country: (typeof COUNTRIES)[number], pattern: string | null): RegExp {
  return new RegExp(pattern ?? PRESETS[country]);
}

/** The read made to fit the format with the fewest swaps of confused characters, or null when none fits. */
export function fitToFormat(plate: string, format: RegExp): string | null {
  if (format.test(plate)) return plate;
  const positions = [...plate].flatMap((c, i) => (CONFUSED[c] ? [i] : [])).slice(0, MAX_SWAPPABLE);
  const combos = Array.from({ length: 2 ** positions.length - 1 }, (_, k) => k + 1).sort((a, b) => bits(a) - bits(b));
  for (const mask of combos) {
    const chars = [...plate];
    positions.forEach((p, bit) => {
      const swapped = CONFUSED[chars[p] ?? ''];
      if (mask & (1 << bit) && swapped) chars[p] = swapped;
    });
    const candidate = chars.join('');
    if (format.test(candidate)) return candidate;
  }
  return null;
}

function bits(n: number): number {
  let c = 0;
  for (let v = n; v; v &= v - 1) c++;
  return c;
}
