// The tar module backups are written with (src/lib/archive/tar.ts): what it writes it reads back, long
// names included, streams (objects read from S3) as files, and a file cut short or with a damaged
// header is refused rather than half read; a stream longer or shorter than its size fails the write.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BadArchiveError, entrySha256, listTar, TarWriter } from '../../src/lib/archive/tar.js';

const dir = mkdtempSync(join(tmpdir(), 'overlook-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function writeArchive(name: string, files: [string, Buffer][]): Promise<string[]> {
  const path = join(dir, name);
  const out = await open(path, 'w');
  const tar = new TarWriter(out);
  const sums: string[] = [];
  for (const [p, bytes] of files) {
    const src = join(dir, 'src');
    writeFileSync(src, bytes);
    const fh = await open(src, 'r');
    sums.push(await tar.addFile(p, fh, bytes.length));
    await fh.close();
  }
  await tar.finish();
  await out.close();
  return sums;
}

const list = async (name: string) => {
  const fh = await open(join(dir, name), 'r');
  try {
    const entries = await listTar(fh);
    return await Promise.all(entries.map(async (e) => ({ path: e.path, size: e.size, sha256: await entrySha256(fh, e) })));
  } finally {
    await fh.close();
  }
};

describe('tar files', () => {
  const long = `data/objects/${'a'.repeat(120)}/${'b'.repeat(150)}.jpg`;
  const files: [string, Buffer][] = [
    ['manifest.json', Buffer.from('{}')],
    ['data/objects/cameras/c1/snapshots/2026/11/28/09/00_00_000.jpg', Buffer.alloc(1500, 7)],
    [long, Buffer.alloc(0)],
    [`${'p'.repeat(140)}/${'n'.repeat(90)}`, Buffer.from('split at a slash into prefix and name')],
  ];

  it('reads back every file with its name, size and SHA-256, long names included', async () => {
    const sums = await writeArchive('good.tar', files);
    expect(sums).toEqual(files.map(([, b]) => sha(b)));
    expect(await list('good.tar')).toEqual(files.map(([path, b]) => ({ path, size: b.length, sha256: sha(b) })));
  });

  it('refuses a file cut short, a damaged header, and an entry that is not a regular file', async () => {
    const good = await readFile(join(dir, 'good.tar'));
    for (const cut of [100, 512 + 700, good.length - 512]) {
      await writeFile(join(dir, 'cut.tar'), good.subarray(0, cut));
      await expect(list('cut.tar'), `cut at ${cut}`).rejects.toThrow(/truncated/);
    }
    const damaged = Buffer.from(good);
    damaged[10] = (damaged[10] ?? 0) ^ 1;
    await writeFile(join(dir, 'damaged.tar'), damaged);
    await expect(list('damaged.tar')).rejects.toThrow(/damaged/);

    const link = Buffer.from(good);
    link[156] = '2'.charCodeAt(0); // a symbolic link: the header's checksum fixed up to match
    link.write('        ', 148, 'ascii');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += link[i] ?? 0;
    link.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    await writeFile(join(dir, 'link.tar'), link);
    const err = await list('link.tar').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadArchiveError);
    expect(String(err)).toContain('not a regular file');
  });

  it('writes a stream of chunks as one entry, and refuses a stream that is not the size it said', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    async function* chunks(of: Buffer) {
      for (let at = 0; at < of.length; at += 700) yield new Uint8Array(of.subarray(at, at + 700));
    }
    const out = await open(join(dir, 'stream.tar'), 'w');
    const tar = new TarWriter(out);
    expect(await tar.addStream('data/objects/cameras/c1/a.jpg', chunks(bytes), bytes.length)).toBe(sha(bytes));
    await tar.finish();
    await out.close();
    expect(await list('stream.tar')).toEqual([{ path: 'data/objects/cameras/c1/a.jpg', size: 3000, sha256: sha(bytes) }]);

    const bad = await open(join(dir, 'bad-stream.tar'), 'w');
    const writer = new TarWriter(bad);
    await expect(writer.addStream('x.jpg', chunks(bytes), 2999)).rejects.toThrow(/became longer/);
    await expect(writer.addStream('y.jpg', chunks(bytes), 3001)).rejects.toThrow(/became shorter/);
    await bad.close();
  });
});
