// What the shared logger writes for a request: never a key or JWT value, whatever the parameter is
// called (decoded as the query parser decodes it) or where in the URL the value is, and the rest of
// the URL as it came.
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions, redactHeaders, redactUrl, requestLogOptions } from '../../src/lib/logger.js';
import { generateApiKey } from '../../src/lib/auth/api-key-format.js';
import { requestIdOptions } from '../../src/lib/http/request-id.js';

const KEY = generateApiKey();
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJwZXJzb24ifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const MEDIA_TOKEN = 'mt-4f9d0c2a7b';

/** A stream that keeps every line written to it in `into`. */
const collecting = (into: string[]) =>
  new Writable({
    write(chunk, _enc, done) {
      into.push(String(chunk));
      done();
    },
  });

/** An app with this logger, the shared request log and request ids, and two routes (one logs through req.log). */
async function loggingApp(logger: unknown): Promise<FastifyInstance> {
  const a = Fastify({ logger: logger as never, ...requestLogOptions(), ...requestIdOptions });
  a.get('/*', async (req) => ({ query: req.query }));
  a.get('/noisy', async (req) => {
    req.log.warn({ step: 1 }, 'handler says');
    return {};
  });
  await a.ready();
  return a;
}

const lines: string[] = [];
let app: FastifyInstance;
beforeAll(async () => {
  app = await loggingApp(loggerOptions('info', collecting(lines)));
});
afterAll(() => app.close());

/** The URL the logger wrote for the request (its one line, written when it was answered). */
async function loggedUrl(url: string): Promise<string> {
  lines.length = 0;
  await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${JWT}`, 'x-access-key': KEY } });
  const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.req?.url);
  expect(logged, url).toHaveLength(1);
  const all = lines.join('\n');
  for (const secret of [KEY, JWT, MEDIA_TOKEN]) expect(all, url).not.toContain(secret);
  return logged[0].req.url as string;
}

describe('request URLs in the log', () => {
  it('redacts a credential parameter, by its decoded name', async () => {
    expect(await loggedUrl(`/v2/media/a.jpg?token=${MEDIA_TOKEN}&w=640`)).toBe('/v2/media/a.jpg?token=[redacted]&w=640');
    // The query parser decodes names: `%74oken` authenticates as `token`, so it is redacted as one.
    expect(await loggedUrl(`/v2/media/a.jpg?%74oken=${MEDIA_TOKEN}&w=640`)).toBe('/v2/media/a.jpg?%74oken=[redacted]&w=640');
    expect(await loggedUrl(`/v2/x?TOKEN=${MEDIA_TOKEN}`)).toBe('/v2/x?TOKEN=[redacted]');
  });

  it('redacts a key sent by mistake under another name', async () => {
    for (const name of ['access_key', 'x-access-key', 'apikey', 'api_key', 'key', 'access_token', 'x%2Daccess%2Dkey']) {
      expect(await loggedUrl(`/v2/projects?${name}=${KEY}&page=2`)).toBe(`/v2/projects?${name}=[redacted]&page=2`);
    }
  });

  it('redacts key and JWT values whatever the parameter’s name or their place in the URL', async () => {
    expect(await loggedUrl(`/v2/projects?q=${KEY}&page=2`)).toBe('/v2/projects?q=[redacted]&page=2');
    expect(await loggedUrl(`/v2/projects?q=${encodeURIComponent(JWT)}&sort=name`)).toBe('/v2/projects?q=[redacted]&sort=name');
    expect(await loggedUrl(`/v2/projects?${KEY}`)).toBe('/v2/projects?[redacted]');
    expect(await loggedUrl(`/v2/keys/${KEY}/explain?x=1`)).toBe('/v2/keys/[redacted]/explain?x=1');
    expect(await loggedUrl(`/v2/share/${JWT}`)).toBe('/v2/share/[redacted]');
  });

  it('keeps ordinary URLs as they came', async () => {
    for (const url of [
      '/v2/projects',
      '/v2/projects?page=2&page_size=50',
      '/v2/cameras?q=folk_music&project_exid=site-1',
      '/v2/x?state=abc&redirect=%2Fhome',
    ]) {
      expect(await loggedUrl(url)).toBe(url);
    }
  });

  it('never logs the credential headers', async () => {
    await loggedUrl('/v2/projects');
    expect(lines.join('\n')).not.toContain('authorization');
  });
});

describe('one line per request', () => {
  it('holds method, URL, address, status, time and the request id', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/v2/projects?page=2' });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/v2/projects?page=2' }, res: { statusCode: 200 } });
    expect(typeof line.responseTime).toBe('number');
    expect(line.reqId).toBeTruthy();
  });

  it('names the request in lines its handler logs, and the request line still holds its id once', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/noisy', headers: { 'x-request-id': 'abc-1' } });
    expect(lines).toHaveLength(2);
    const [said, done] = lines.map((l) => JSON.parse(l));
    expect(said).toMatchObject({ msg: 'handler says', step: 1 });
    expect(said.reqId).toBe(done.reqId);
    expect(done.msg).toBe('request completed');
    expect(lines[1]!.match(/"reqId"/g)).toHaveLength(1);
  });
});

describe('headers, when code logs them', () => {
  it('censors every credential header, whatever its case', () => {
    expect(redactHeaders({ Authorization: `Bearer ${JWT}`, 'x-access-key': KEY, cookie: 'a=b', 'set-cookie': 'c=d', accept: 'image/jpeg' })).toEqual({
      Authorization: '[redacted]',
      'x-access-key': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      accept: 'image/jpeg',
    });
  });

  it('applies under the `headers` key of a log line', () => {
    lines.length = 0;
    app.log.info({ headers: { authorization: `Bearer ${JWT}`, host: 'x' } }, 'headers');
    expect(lines.join('')).not.toContain(JWT);
    expect(JSON.parse(lines[0]!).headers).toEqual({ authorization: '[redacted]', host: 'x' });
  });
});

describe('redactUrl', () => {
  it('leaves a URL without a query or a marker as the same string', () => {
    const url = '/v2/cameras/gate-1/recordings/snapshots/latest';
    expect(redactUrl(url)).toBe(url);
  });
  it('keeps an empty credential value and bad percent-encoding readable', () => {
    expect(redactUrl('/a?token=&x=%zz')).toBe('/a?token=&x=%zz');
    expect(redactUrl('/a?%zztoken=1')).toBe('/a?%zztoken=[redacted]');
  });
});

describe('the request line', () => {
  it('is written by pino through the logger’s serializers', async () => {
    const written: string[] = [];
    let serialized = 0;
    const options = loggerOptions('info', collecting(written)) as { serializers: { req: (r: unknown) => unknown } };
    const req = options.serializers.req;
    options.serializers.req = (r) => {
      serialized++;
      return req(r);
    };
    const counted = await loggingApp(options);
    await counted.inject({ method: 'GET', url: `/v2/projects?access_key=${KEY}`, headers: { 'x-request-id': 'same-id' } });
    await counted.close();
    expect(serialized).toBe(1);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: 'same-id',
      pid: process.pid,
      req: { method: 'GET', url: '/v2/projects?access_key=[redacted]' },
      res: { statusCode: 200 },
    });
  });

  it('writes nothing below the logger’s level', async () => {
    const quiet: string[] = [];
    const warnApp = await loggingApp(loggerOptions('warn', collecting(quiet)));
    await warnApp.inject({ method: 'GET', url: '/v2/projects' });
    await warnApp.close();
    expect(quiet).toEqual([]);
  });
});
