// The config builders read a plain environment object through the schemas: defaults, coercion, the
// messages a bad value stops a service with, and what an empty value means.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { companionConfig, defaultApiUrl, mcpConfig, platformConfig } from '../../../src/lib/config.js';
import { recorderConfig } from '../../../src/recorder/config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'overlook-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const platform = (env: Record<string, string | undefined>) => platformConfig({ dataDir }, env);

describe('platformConfig', () => {
  it('fills in the defaults', () => {
    const c = platform({});
    expect(c).toMatchObject({
      sessionDays: 14,
      bodyLimit: 1024 * 1024,
      storage: { kind: 'fs' },
      ffmpegPath: 'ffmpeg',
      logLevel: 'info',
      trustProxy: false,
      recordingLoop: true,
      mediaPollMs: 5000,
    });
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
    expect(c.mcpUrl).toBe('http://127.0.0.1:3100/mcp');
    expect(c.weatherArchiveUrl).toBe('https://archive-api.open-meteo.com');
  });

  it('coerces numbers and reads switches', () => {
    const c = platform({
      OVERLOOK_SESSION_DAYS: '2.5',
      OVERLOOK_TRUST_PROXY: '1',
      OVERLOOK_LOG_LEVEL: 'warn',
      OVERLOOK_RECORDING_LOOP: 'Off',
      OVERLOOK_MEDIA_MAX_FRAMES: '1',
      OVERLOOK_MEDIA_POLL_SECONDS: '0.5',
    });
    expect(c).toMatchObject({ sessionDays: 2.5, trustProxy: true, logLevel: 'warn', recordingLoop: false, mediaMaxFrames: 2, mediaPollMs: 500 });
  });

  it('stops on a bad value with a message naming the variable', () => {
    for (const bad of ['abc', '0', '-1', 'Infinity', '1e400'])
      expect(() => platform({ OVERLOOK_SESSION_DAYS: bad })).toThrow(`OVERLOOK_SESSION_DAYS must be a positive number, got ${bad}`);
    expect(() => platform({ OVERLOOK_STORAGE: 'S3' })).toThrow('OVERLOOK_STORAGE must be fs or s3, got S3');
    expect(() => platform({ OVERLOOK_STORAGE: 's3' })).toThrow('OVERLOOK_STORAGE=s3 needs OVERLOOK_S3_BUCKET');
    expect(() => platform({ OVERLOOK_OIDC_PROVIDERS: '{' })).toThrow('OVERLOOK_OIDC_PROVIDERS must be a JSON array');
  });

  it('takes an empty number, choice or URL as unset, and an empty public URL as given', () => {
    const c = platform({ OVERLOOK_SESSION_DAYS: '', OVERLOOK_STORAGE: '', DATABASE_URL: '', OVERLOOK_WEATHER_URL: '', OVERLOOK_PUBLIC_URL: '' });
    expect(c).toMatchObject({ sessionDays: 14, storage: { kind: 'fs' }, databaseUrl: undefined, weatherUrl: 'https://api.open-meteo.com', publicUrl: '' });
  });

  it('reads OVERLOOK_NODE_URL: unset by default (the listening address is used), an http(s) URL without its trailing slash', () => {
    expect(platform({}).nodeUrl).toBeUndefined();
    expect(platform({ OVERLOOK_NODE_URL: '' }).nodeUrl).toBeUndefined();
    expect(platform({ OVERLOOK_NODE_URL: 'http://10.0.0.11:3000/' }).nodeUrl).toBe('http://10.0.0.11:3000');
    expect(platform({ OVERLOOK_NODE_URL: 'https://n1.internal/overlook/' }).nodeUrl).toBe('https://n1.internal/overlook');
    for (const bad of ['n1:3000', 'ftp://n1/', 'http://u:p@n1/', 'http://n1/?a=1'])
      expect(() => platform({ OVERLOOK_NODE_URL: bad })).toThrow('OVERLOOK_NODE_URL must be an http or https URL');
  });

  it('hands the connectors every OVERLOOK_* variable as given', () => {
    const c = platform({ OVERLOOK_PROCORE_URL: 'http://procore.test', HOME: '/root' });
    expect(c.connectors.env).toEqual({ OVERLOOK_PROCORE_URL: 'http://procore.test' });
  });
});

describe('the other services', () => {
  it('recorderConfig: defaults, log level and the same messages', () => {
    expect(recorderConfig({ dataDir }, { OVERLOOK_LOG_LEVEL: 'silent' })).toMatchObject({
      segmentSeconds: 60,
      liveWindow: 6,
      logLevel: 'silent',
      dataDir: join(dataDir, 'recorder'),
      linkSilenceMs: 30_000,
    });
    expect(() => recorderConfig({ dataDir }, { OVERLOOK_RECORDER_LIVE_WINDOW: 'x' })).toThrow('OVERLOOK_RECORDER_LIVE_WINDOW must be a positive number, got x');
    expect(recorderConfig({ dataDir }, { OVERLOOK_RECORDER_LINK_SILENCE_SECONDS: '5' }).linkSilenceMs).toBe(5000);
    expect(() => recorderConfig({ dataDir }, { OVERLOOK_RECORDER_LINK_SILENCE_SECONDS: '1' })).toThrow(
      'OVERLOOK_RECORDER_LINK_SILENCE_SECONDS must be a number from 3 to 3600, got 1',
    );
  });

  it('companions: address from flags over variables, MCP resource URL, --api-url default', () => {
    expect(companionConfig('ai', { host: '::1' }, { OVERLOOK_AI_PORT: '0', OVERLOOK_HOST: '0.0.0.0' })).toEqual({
      address: { host: '::1', port: 0 },
      logLevel: 'info',
    });
    expect(() => companionConfig('labs', {}, { OVERLOOK_LABS_PORT: 'x' })).toThrow('port must be an integer from 0 to 65535, got x');
    expect(mcpConfig({}, { OVERLOOK_MCP_URL: 'https://mcp.test/mcp' })).toMatchObject({
      address: { host: '127.0.0.1', port: 3100 },
      resourceUrl: 'https://mcp.test/mcp',
    });
    expect(defaultApiUrl({})).toBe('http://127.0.0.1:3000');
    expect(defaultApiUrl({ OVERLOOK_API_URL: 'http://api.test' })).toBe('http://api.test');
  });
});
