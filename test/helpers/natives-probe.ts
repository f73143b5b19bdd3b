// Runs a probe script in a child Node that may ask V8 about hidden classes (`--allow-natives-syntax`,
// e.g. `%HaveSameMap(a, b)`); the script pushes what it finds to `out`, which comes back as JSON text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `prelude` sets the probe up (imports, helpers); `body` runs after it with `out` in scope. */
export function runNativesProbe(prelude: string, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-natives-'));
  try {
    const file = join(dir, 'probe.mjs');
    writeFileSync(file, `${prelude}\nconst out = [];\n${body}\nconsole.log(JSON.stringify(out));`);
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
