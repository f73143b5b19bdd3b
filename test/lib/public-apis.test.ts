// Libraries through their public APIs only (docs/decisions.md, Public APIs only): no code reads pino's
// private symbols, sets V8 flags at run time, asks V8 about its internals (natives syntax, exposed gc)
// or hooks into every async resource. A gain that needs one of these is a patch to propose upstream.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const THIS_FILE = relative(ROOT, import.meta.filename);
const FOLDERS = ['src', 'bench', 'test', 'scripts'];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : sources(join(dir, e.name))) : /\.[cm]?[jt]sx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

const files = FOLDERS.flatMap((f) => sources(join(ROOT, f)))
  .map((file) => ({ path: relative(ROOT, file), text: readFileSync(file, 'utf8') }))
  .filter((f) => f.path !== THIS_FILE);

/** What is refused, each with a test of a file's text. */
const REFUSED: [string, (text: string) => boolean][] = [
  ['pino.symbols (pino: not for general use)', (t) => /\bpino\s*\.\s*symbols\b/.test(t) || /import\s*\{[^}]*\bsymbols\b[^}]*\}\s*from\s*['"]pino['"]/.test(t)],
  ['v8.setFlagsFromString (flags set after start are unpredictable)', (t) => /\bsetFlagsFromString\b/.test(t)],
  ['V8 natives syntax (%Function calls)', (t) => /(^|[^\w'"`%])%[A-Z][A-Za-z]+\(/m.test(t)],
  ['--allow-natives-syntax', (t) => /--allow[-_]natives[-_]syntax/.test(t)],
  ['--expose-gc', (t) => /--expose[-_]gc\b/.test(t)],
  ['async_hooks.createHook', (t) => /\bcreateHook\b/.test(t) && /async_hooks/.test(t)],
];

describe('public APIs only', () => {
  it('scans the sources it means to', () => {
    expect(files.some((f) => f.path.startsWith('src/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('bench/'))).toBe(true);
  });

  for (const [what, found] of REFUSED) {
    it(`no file uses ${what}`, () => {
      expect(files.filter((f) => found(f.text)).map((f) => f.path)).toEqual([]);
    });
  }

  it('recognises each refused use', () => {
    const samples = [
      "import { symbols } from 'pino';",
      'const s = pino.symbols.streamSym;',
      "v8.setFlagsFromString('--expose-gc');",
      'assert(%HaveSameMap(a, b));',
      "spawn(node, ['--allow-natives-syntax'])",
      "spawn(node, ['--expose-gc'])",
      "import { createHook } from 'node:async_hooks';",
    ];
    for (const sample of samples)
      expect(
        REFUSED.some(([, found]) => found(sample)),
        sample,
      ).toBe(true);
  });
});
