// The project record as the API shows it, and exids in Evercam's style.
import { randomInt } from 'node:crypto';
import { Type, type Static } from 'typebox';

export const ProjectRecord = Type.Object(
  {
    exid: Type.String(),
    name: Type.String(),
    status: Type.String(),
    timezone: Type.String(),
    role: Type.Union([Type.String(), Type.Null()], { description: 'The caller’s role on the project (the key owner’s, for keys)' }),
    owner: Type.Union([Type.Object({ id: Type.String(), email: Type.String() }), Type.Null()]),
    camera_count: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ProjectRecord' },
);
export type ProjectRecord = Static<typeof ProjectRecord>;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `Harbour Tower` → `harbo-qwxyz`: the name's first five letters, a dash, five random letters. */
export function makeExid(name: string): string {
  const base = (
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z]/g, '') + 'xxxxx'
  ).slice(0, 5);
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += LETTERS[randomInt(LETTERS.length)];
  return `${base}-${suffix}`;
}

export { isTimeZone } from '../../lib/time-zone.js';
