// A camera's password never reaches the recorder's log, though ffmpeg repeats its input URL
// (`rtsp://user:password@…`) in every error it prints.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRecorderApp } from '../../../src/recorder/app.js';
import { recorderConfig } from '../../../src/recorder/config.js';
import { openRecorderDb } from '../../../src/recorder/db/recorder-db.js';
import { redactUrlCredentials } from '../../../src/lib/redact-url-credentials.js';
import { eventually } from '../../helpers/recorder.js';

const PASSWORD = 'Sup3r-Secret-Cam-Pw';
const dir = mkdtempSync(join(tmpdir(), 'overlook-recorder-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('redactUrlCredentials', () => {
  it('hides the userinfo of every URL in a text, and leaves the rest alone', () => {
    expect(redactUrlCredentials('rtsp://admin:s3cr%40t@10.0.0.1:554/live: Connection refused')).toBe('rtsp://***@10.0.0.1:554/live: Connection refused');
    expect(redactUrlCredentials('a rtsp://u:p@ss@cam/x b RTSPS://u@c/ d')).toBe('a rtsp://***@cam/x b RTSPS://***@c/ d');
    expect(redactUrlCredentials('http://host/a@b and mail user@example.com')).toBe('http://host/a@b and mail user@example.com');
  });
});

describe('the recorder log', () => {
  it('holds ffmpeg’s errors about a camera whose URL carries credentials, without the password', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = recorderConfig({ dataDir: dir }, { OVERLOOK_RECORDER_SEGMENT_SECONDS: '1' });
    const db = await openRecorderDb(config.dataDir);
    const app = await buildRecorderApp({ config, db, logger: { level: 'info', stream } });
    try {
      await app.ready();
      // Nothing listens on port 1: ffmpeg fails at once and says so, URL included.
      const device = await app.recorder.devices.create({
        name: 'Gate',
        type: 'ip',
        stream_config: { stream_uri: `rtsp://camera:${PASSWORD}@127.0.0.1:1/stream` },
        credentials: { username: 'viewer', password: PASSWORD },
      });
      await app.recorder.manager.refresh(device.id);
      // ffmpeg names the URL on the line after its socket error: wait for that line itself.
      const redacted = /rtsp:\/\/\*\*\*@127\.0\.0\.1:1/;
      await eventually(async () => lines.some((l) => redacted.test(l)), 20_000, 'ffmpeg’s error naming the redacted URL in the log');
      const log = lines.join('');
      expect(log).not.toContain(PASSWORD);
      expect((await app.recorder.devices.get(device.id)).state_reason ?? '').not.toContain(PASSWORD);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
