// The environment is read once, at startup, through src/lib/config/process-env.ts and handed down as
// config objects: no other module under src/ reads it (docs of every variable: README.md, Configuration).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const ALLOWED = ['lib/config/process-env.ts'];
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.[cm]?[jt]s$/.test(e.name) ? [join(dir, e.name)] : [],
  );

it('no module under src/ but the config module mentions process.env', () => {
  const readers = sources(SRC)
    .filter((file) => /process\s*\.\s*env\b|process\[['"]env['"]\]/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(SRC, file));
  expect(readers).toEqual(ALLOWED);
});
