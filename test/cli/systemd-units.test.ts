// The systemd units in deploy/systemd (docs/install.md): `systemd-analyze verify` accepts them without a
// word (an unknown or misspelt key, a bad value or a missing ExecStart binary is a warning), and they keep
// what the install guide promises: the `overlook` user, data under /var/lib/overlook, a sandbox, restart
// on failure, and SIGTERM with time to drain.
import { execFile } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const run = promisify(execFile);
const UNITS = { 'overlook.service': 'serve', 'overlook-recorder.service': 'recorder serve' } as const;
const INSTALLED_BIN = '/usr/local/bin/overlook';

/** Every `Key=value` line of a unit, the last value of each key winning as systemd reads them. */
function settings(unit: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of unit.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) map.set(m[1]!, m[2]!);
  }
  return map;
}

describe('deploy/systemd units', () => {
  it('pass systemd-analyze verify without a warning, with ExecStart pointing at an executable', async () => {
    const dir = tempDir('overlook-units-');
    // verify checks that ExecStart's binary exists: a stand-in where the unit names /usr/local/bin/overlook.
    const bin = join(dir, 'overlook');
    writeFileSync(bin, '#!/bin/sh\nexit 0\n');
    chmodSync(bin, 0o755);
    const copies = Object.keys(UNITS).map((name) => {
      const text = readFileSync(join(ROOT, 'deploy', 'systemd', name), 'utf8');
      expect(text).toContain(`ExecStart=${INSTALLED_BIN} `);
      const copy = join(dir, name);
      writeFileSync(copy, text.replaceAll(INSTALLED_BIN, bin));
      return copy;
    });
    const { stdout, stderr } = await run('systemd-analyze', ['verify', ...copies], { cwd: dir });
    expect(`${stdout}${stderr}`).toBe('');
  });

  it('fails verify when a key is misspelt (the check above can see a mistake)', async () => {
    const dir = tempDir('overlook-units-');
    const copy = join(dir, 'overlook.service');
    writeFileSync(copy, readFileSync(join(ROOT, 'deploy', 'systemd', 'overlook.service'), 'utf8').replace('ProtectSystem=', 'ProtectSytem='));
    const { stdout, stderr } = await run('systemd-analyze', ['verify', copy], { cwd: dir }).catch((err: { stdout: string; stderr: string }) => err);
    expect(`${stdout}${stderr}`).toMatch(/Unknown key 'ProtectSytem'/);
  });

  it.each(Object.entries(UNITS))('%s runs `overlook %s` as the overlook user, sandboxed, restarted on failure', (name, command) => {
    const unit = settings(readFileSync(join(ROOT, 'deploy', 'systemd', name), 'utf8'));
    expect(unit.get('ExecStart')).toBe(`${INSTALLED_BIN} ${command}`);
    expect(unit.get('User')).toBe('overlook');
    expect(unit.get('StateDirectory')).toBe('overlook');
    expect(unit.get('Environment')).toBe('OVERLOOK_DATA_DIR=/var/lib/overlook');
    expect(unit.get('EnvironmentFile')).toMatch(/^-\/etc\/overlook\/[a-z]+\.env$/);
    expect(unit.get('Restart')).toBe('on-failure');
    expect(unit.get('KillSignal')).toBe('SIGTERM');
    // Longer than a drain: the longest wait of a closing node is a webhook delivery's 10 s.
    expect(Number.parseInt(unit.get('TimeoutStopSec') ?? '0', 10)).toBeGreaterThanOrEqual(30);
    for (const [key, value] of Object.entries({
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      NoNewPrivileges: 'yes',
      CapabilityBoundingSet: '',
      SystemCallFilter: '@system-service',
    })) {
      expect(unit.get(key), key).toBe(value);
    }
    expect(unit.get('RestrictAddressFamilies')).toBe('AF_UNIX AF_INET AF_INET6 AF_NETLINK');
  });
});
