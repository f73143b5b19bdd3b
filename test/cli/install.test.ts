// Installing Overlook as an operator does (docs/install.md): `npm pack` of the repository, then
// `npm install -g` of that tarball into a temporary prefix, from the npm cache where it can (the
// registry only for what the cache lacks). The installed `overlook` runs from a directory outside the
// repository, on a data dir of its own, with only the package's production dependencies.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, SLOW } from '../helpers/cli.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 600_000;
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/**
 * The environment without what npm puts in it when the suite runs through `npm test` (npm_config_*
 * would steer the install), with the Node running the tests first on the PATH.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  env.PATH = `${join(process.execPath, '..')}:${process.env.PATH ?? ''}`;
  env.DATABASE_URL = '';
  return env;
}

interface PackedFile {
  path: string;
}

/** Starts the installed `overlook serve` and resolves with its URL once it listens. */
function serveInstalled(bin: string, cwd: string, dataDir: string): Promise<{ url: string; proc: ChildProcess; output: () => string }> {
  const proc = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir], { cwd, env: { ...cleanEnv(), OVERLOOK_LOG_LEVEL: 'info' } });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the installed overlook did not start:\n${out}`));
    }, SLOW);
    proc.stdout.on('data', () => {
      const m = /main API listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: m[1]!, proc, output: () => out });
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the installed overlook exited ${code}:\n${out}`));
    });
  });
}

describe('npm pack, then npm install -g of the tarball', () => {
  const work = mkdtempSync(join(tmpdir(), 'overlook-install-'));
  // Some 20,000 files installed: removing them takes minutes on a busy machine.
  afterAll(() => rm(work, { recursive: true, force: true }), SLOW);

  it(
    'gives a package of the build, the web pages and the systemd units only, whose installed `overlook` serves outside the repository',
    async () => {
      const prefix = join(work, 'prefix');
      const started = Date.now();

      // The build in dist/ is fresh (test/helpers/built-cli.ts); packing must not rebuild it under the
      // other CLI tests, hence no scripts.
      const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env: cleanEnv() });
      const [pack] = JSON.parse(packed.stdout) as [{ filename: string; files: PackedFile[] }];
      const paths = pack.files.map((f) => f.path);
      expect(paths).toContain('dist/cli.js');
      expect(paths).toContain('public/app/index.html');
      expect(paths).toContain('public/recorder/index.html');
      expect(paths).toContain('deploy/systemd/overlook.service');
      const stray = paths.filter((p) => !/^(dist|public|deploy\/systemd)\//.test(p) && !['package.json', 'README.md', 'LICENSE'].includes(p));
      expect(stray, 'only the build, the web pages, the units and the package description').toEqual([]);
      expect(paths.filter((p) => /\.map$|\.test\.|^test\/|^data\/|\.ts$/.test(p))).toEqual([]);
      const packedAt = Date.now();

      // --ignore-scripts: no dependency needs an install script (sharp, better-sqlite3 and
      // onnxruntime-node ship their binaries), and onnxruntime-node's would fetch GPU files.
      await run(
        'npm',
        ['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, pack.filename)],
        { cwd: work, env: cleanEnv(), timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      );
      const installedAt = Date.now();
      const installed = join(prefix, 'lib', 'node_modules', 'overlook');
      for (const dev of ['vitest', 'typescript', 'tsx', '@biomejs']) expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);

      const bin = join(prefix, 'bin', 'overlook');
      const shown = await run(bin, ['--version'], { cwd: work, env: cleanEnv() });
      expect(shown.stdout.trim()).toBe(version);

      const node = await serveInstalled(bin, work, join(work, 'data'));
      try {
        for (const [path, body] of [
          ['/health', { status: 'ok' }],
          ['/ready', { status: 'ready' }],
        ] as const) {
          const res = await fetch(`${node.url}${path}`);
          expect(res.status, path).toBe(200);
          expect(await res.json()).toEqual(body);
        }
        // The web app and a browser module it takes from a production dependency.
        expect((await fetch(`${node.url}/`)).status).toBe(200);
        expect((await fetch(`${node.url}/app/vendor/preact.mjs`)).status).toBe(200);
        expect(existsSync(join(work, 'data', 'overlook.sqlite'))).toBe(true);
      } finally {
        const exited = new Promise<number | null>((r) => node.proc.once('exit', (code) => r(code)));
        node.proc.kill('SIGTERM');
        expect(await exited, node.output()).toBe(0);
      }
      process.stderr.write(
        `[install] pack ${packedAt - started} ms, npm install -g ${installedAt - packedAt} ms, start and answer ${Date.now() - installedAt} ms\n`,
      );
    },
    INSTALL_TIMEOUT_MS + SLOW,
  );
});
