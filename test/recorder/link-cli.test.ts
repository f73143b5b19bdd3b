// `overlook recorder link` / `unlink` as users run them (the built CLI), and the link going through an
// HTTPS proxy: a platform on TLS, a tiny CONNECT proxy, `HTTPS_PROXY` and `NO_PROXY`.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBPROTOCOL } from '../../src/lib/site-link/protocol.js';
import { openRecorderDb } from '../../src/recorder/db/recorder-db.js';
import { overlookAsync, serve, SLOW, tempDir } from '../helpers/cli.js';
import { CODE, CREDENTIAL, FakePlatform } from '../helpers/fake-site-platform.js';
import { eventually } from '../helpers/recorder.js';

let platform: FakePlatform;
let proxy: Server;
let proxyUrl: string;
const tunnels: string[] = [];
let tlsEnv: Record<string, string>;

beforeAll(async () => {
  // A certificate for 127.0.0.1, trusted by the CLI processes through NODE_EXTRA_CA_CERTS.
  const certs = tempDir('overlook-link-tls-');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(certs, 'key.pem'),
      '-out',
      join(certs, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  platform = new FakePlatform({ key: readFileSync(join(certs, 'key.pem'), 'utf8'), cert: readFileSync(join(certs, 'cert.pem'), 'utf8') });
  await platform.start();
  // The tiny CONNECT proxy: notes each tunnel's target and pipes the bytes.
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((res) => proxy.listen(0, '127.0.0.1', res));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  tlsEnv = { NODE_EXTRA_CA_CERTS: join(certs, 'cert.pem'), HTTPS_PROXY: proxyUrl, HTTP_PROXY: '', NO_PROXY: '', OVERLOOK_LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await platform?.stop();
  proxy?.closeAllConnections();
  await new Promise((res) => proxy?.close(res));
});

describe('overlook recorder link', () => {
  it(
    'refuses a wrong code with a message and a non-zero exit (here without the proxy: NO_PROXY)',
    async () => {
      const data = tempDir();
      const res = await overlookAsync(['recorder', 'link', '--platform', platform.url, '--code', 'WRONG', '--data-dir', data], {
        ...tlsEnv,
        NO_PROXY: '127.0.0.1',
      });
      expect(res.status, res.stderr).not.toBe(0);
      expect(res.stderr).toMatch(/refused the pairing code/);
      expect(tunnels).toEqual([]);
    },
    SLOW,
  );

  it(
    'says so when the platform cannot be reached',
    async () => {
      const data = tempDir();
      const res = await overlookAsync(['recorder', 'link', '--platform', 'http://127.0.0.1:9', '--code', CODE, '--data-dir', data], {
        OVERLOOK_LOG_LEVEL: 'silent',
      });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toMatch(/could not be reached/);
    },
    SLOW,
  );

  it(
    'links through the HTTPS proxy, stores the credential sealed, and `serve` keeps the link open through it',
    async () => {
      const data = tempDir();
      const res = await overlookAsync(['recorder', 'link', '--platform', platform.url, '--code', CODE, '--data-dir', data], tlsEnv);
      expect(res.status, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/linked to project project-1/);
      expect(tunnels).toEqual([`127.0.0.1:${platform.port}`]);
      const db = await openRecorderDb(join(data, 'recorder'));
      const row = await db.kysely.selectFrom('platform_link').selectAll().executeTakeFirstOrThrow();
      await db.close();
      expect(row.platform_url).toBe(platform.url);
      expect(row.credential).not.toContain(CREDENTIAL);

      const served = await serve(['recorder', 'serve', '--data-dir', data, '--port', '0'], { ready: /recorder listening on (http:\/\/\S+)/, env: tlsEnv });
      try {
        const conn = await eventually(async () => platform.current, 30_000, 'the recorder connected');
        expect(conn.authorization).toBe(`Bearer ${CREDENTIAL}`);
        expect(conn.protocol).toBe(SUBPROTOCOL);
        expect(tunnels).toEqual([`127.0.0.1:${platform.port}`, `127.0.0.1:${platform.port}`]);
        await eventually(async () => conn.received.some((m) => m.message.type === 'devices'), 10_000, 'the devices message');
      } finally {
        await served.stop();
      }

      const unlinked = await overlookAsync(['recorder', 'unlink', '--data-dir', data], tlsEnv);
      expect(unlinked.status).toBe(0);
      expect(unlinked.stdout).toMatch(/unlinked/);
      const again = await openRecorderDb(join(data, 'recorder'));
      expect(await again.kysely.selectFrom('platform_link').selectAll().execute()).toEqual([]);
      await again.close();
    },
    SLOW,
  );
});
