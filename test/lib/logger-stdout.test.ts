// The process's stdout log (logger.ts): lines gathered by pino's destination into larger writes reach
// the pipe whole, in order and as UTF-8, however long; what is still gathered is written at exit.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs `body` in a child whose stdout is a pipe, with `log` a pino logger on the shared stdout stream. */
function childLog(body: string): string[] {
  const script = `
    import { pino } from 'pino';
    import { loggerOptions } from './src/lib/logger.ts';
    const { level, stream } = loggerOptions('info');
    const log = pino({ level }, stream);
    ${body}
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter((l) => l !== '');
}

describe('the stdout log', () => {
  it('writes every line whole and in order, across batches, with long and non-ASCII lines among them', () => {
    const lines = childLog(`
      for (let i = 0; i < 2000; i++) log.info({ i, text: i % 97 === 0 ? 'é€😀'.repeat(3000) : 'x'.repeat(i % 300) }, 'line');
      log.info({ last: true, text: 'z'.repeat(200000) }, 'longer than the buffer');
    `);
    expect(lines).toHaveLength(2001);
    const parsed = lines.map((l) => JSON.parse(l));
    parsed.slice(0, 2000).forEach((p, i) => {
      expect(p.i).toBe(i);
      expect(p.text).toBe(i % 97 === 0 ? 'é€😀'.repeat(3000) : 'x'.repeat(i % 300));
    });
    expect(parsed[2000].text).toHaveLength(200000);
  });

  it('writes what is still gathered when the process exits', () => {
    const lines = childLog(`log.info({ n: 1 }, 'only'); process.exit(0);`);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['only']);
  });
});
