// The stdout batch (log-batch.ts): the request line written into it byte by byte is exactly the request
// line as text (request-line.ts) in UTF-8, for plain values and for every kind that must be escaped or
// encoded, and lines come out whole and in order across batches, long ones included.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchedLog } from '../../src/lib/log-batch.js';
import { type RequestLineFields, requestLineText } from '../../src/lib/request-line.js';

/** A batch over a destination that keeps what it is given. */
function batch() {
  const written: Buffer[] = [];
  const log = new BatchedLog({ write: (b: Buffer) => written.push(Buffer.from(b)), flushSync: () => {} });
  const output = () => {
    log.flush();
    return Buffer.concat(written).toString('utf8');
  };
  return { log, output, written };
}

const plain: RequestLineFields = {
  chindings: ',"pid":7512,"hostname":"vm"',
  id: '65d724ea-1716-4051-a73f-b79d0a23acf2',
  method: 'GET',
  url: '/v2/cameras/gate-1?limit=5',
  ip: '127.0.0.1',
  status: 200,
  ms: 0.0523,
};

const cases: RequestLineFields[] = [
  plain,
  { ...plain, id: undefined, ip: undefined },
  { ...plain, url: '/a"b' },
  { ...plain, url: '/a\\b' },
  { ...plain, url: '/a"b\\c' },
  { ...plain, url: '/tab\there/nul\u0000/del\u007f' },
  { ...plain, url: '/caf\u00e9/\u2028/\ud83d\ude00' },
  { ...plain, url: '/lone\ud800surrogate' },
  { ...plain, ip: '::ffff:10.0.0.1', method: 'M-SEARCH', status: 404, ms: 12345.6789 },
  { ...plain, chindings: ',"pid":1,"hostname":"h\u00f4te-\u6771\u4eac","reqId":"x"', id: undefined },
  { ...plain, ms: Number.NaN },
  { ...plain, ms: Number.POSITIVE_INFINITY, status: 500 },
  { ...plain, ms: 2 ** 21, status: 101 },
  { ...plain, ms: 1e30, status: 999 },
  { ...plain, url: `/${'\u00e9'.repeat(8000)}` },
  { ...plain, url: `/${'x'.repeat(30_000)}` },
];

afterEach(() => vi.restoreAllMocks());

describe('the request line written into the batch', () => {
  it('is byte for byte the request line as text, in UTF-8', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1795769286155);
    for (const fields of cases) {
      const { log, output } = batch();
      log.writeRequestLine(fields);
      const expected = requestLineText(fields);
      expect(output(), fields.url.slice(0, 40)).toBe(expected);
      expect(JSON.parse(expected).req.url).toBe(fields.url);
    }
  });

  it('holds the time of its own millisecond and its own bindings, whatever the line before it held', () => {
    let now = 1795769286155;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { log, output } = batch();
    let expected = '';
    for (let i = 0; i < 40; i++) {
      if (i % 3 === 0) now += i;
      const fields = { ...cases[i % 2]!, chindings: i % 5 === 0 ? ',"pid":2,"hostname":"other"' : plain.chindings };
      log.writeRequestLine(fields);
      expected += requestLineText(fields);
    }
    expect(output()).toBe(expected);
    expect(new Set(output().match(/"time":\d+/g)).size).toBeGreaterThan(10);
  });

  it('comes out whole and in order among text lines, across many batches', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1795769286155);
    const { log, output, written } = batch();
    let expected = '';
    for (let i = 0; i < 3000; i++) {
      const fields = cases[i % cases.length]!;
      log.writeRequestLine(fields);
      expected += requestLineText(fields);
      const text = `{"n":${i},"s":"${'\u00e9'.repeat(i % 50)}"}\n`;
      log.write(text);
      expected += text;
    }
    expect(output()).toBe(expected);
    expect(written.length).toBeGreaterThan(100);
  });
});
