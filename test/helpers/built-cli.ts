// The tests start the CLI as users do, from the build in dist/ (plain Node, nothing compiled per start).
// As a vitest globalSetup, this builds dist/ first when any source file is newer than it.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BUILT_CLI = join(ROOT, 'dist', 'cli.js');

const mtime = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : mtime(path));
  }
  return newest;
}

export default function setup(): void {
  const sources = Math.max(newestSource(join(ROOT, 'src')), mtime(join(ROOT, 'tsconfig.build.json')), mtime(join(ROOT, 'package.json')));
  if (mtime(BUILT_CLI) >= sources) return;
  process.stderr.write('[overlook] dist/ is older than src/: building it (npm run build) for the CLI tests\n');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
}
