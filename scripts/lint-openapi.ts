// Lints the main API's and the recorder's OpenAPI documents with Redocly's recommended rules
// (redocly.yaml): `npm run lint:openapi`. The documents come from freshly built apps
// (scripts/openapi-dump.ts) and are written to test-output/openapi/. Errors fail the run (none is
// accepted); warnings are printed.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'test-output', 'openapi');
rmSync(out, { recursive: true, force: true });
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
run(process.execPath, ['--import', 'tsx', join('scripts', 'openapi-dump.ts'), out]);
run(process.execPath, [
  join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
  'lint',
  '--config',
  'redocly.yaml',
  '--format',
  'stylish',
  join('test-output', 'openapi', 'platform.json'),
  join('test-output', 'openapi', 'recorder.json'),
]);
