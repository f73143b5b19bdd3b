// A plain tar file (POSIX ustar, with pax headers for long names and sizes), written and read with
// positional file I/O so a reader can check every entry before anything is extracted. Only regular
// files: what a backup holds (docs/deploy.md, Backup and restore). GNU and BSD tar read these files.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

const BLOCK = 512;
const CHUNK = 1 << 20;
const USTAR_NAME = 100;
const USTAR_PREFIX = 155;
const USTAR_MAX_SIZE = 0o77777777777;

export interface TarEntry {
  path: string;
  size: number;
  /** Where the entry's bytes start in the file. */
  offset: number;
}

/** A tar file that cannot be read as one: cut short, damaged, or not a tar file at all. */
export class BadArchiveError extends Error {}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(path: string, size: number, typeflag: '0' | 'x', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > USTAR_NAME) {
    // ustar splits a long name at a slash into prefix and name; longer ones get a pax `path` record.
    const cut = path.lastIndexOf('/', USTAR_PREFIX);
    if (cut > 0 && Buffer.byteLength(path.slice(cut + 1)) <= USTAR_NAME) [prefix, name] = [path.slice(0, cut), path.slice(cut + 1)];
    else name = path.slice(0, USTAR_NAME);
  }
  block.write(name, 0, USTAR_NAME, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(Math.min(size, USTAR_MAX_SIZE), 12), 124, 'ascii');
  block.write(octal(mtime, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(typeflag, 156, 'ascii');
  block.write('ustar\0' + '00', 257, 'ascii');
  block.write(prefix, 345, USTAR_PREFIX, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The pax records an entry needs when ustar cannot hold its name or size. */
function paxRecords(path: string, size: number): Buffer | null {
  const records: string[] = [];
  const record = (key: string, value: string) => {
    const body = ` ${key}=${value}\n`;
    let len = Buffer.byteLength(body) + 1;
    while (Buffer.byteLength(`${len}${body}`) !== len) len = Buffer.byteLength(`${len}${body}`);
    records.push(`${len}${body}`);
  };
  const fits =
    Buffer.byteLength(path) <= USTAR_NAME ||
    (() => {
      const cut = path.lastIndexOf('/', USTAR_PREFIX);
      return cut > 0 && Buffer.byteLength(path.slice(cut + 1)) <= USTAR_NAME;
    })();
  if (!fits) record('path', path);
  if (size > USTAR_MAX_SIZE) record('size', String(size));
  return records.length ? Buffer.from(records.join('')) : null;
}

/** Appends files to a tar file, each hashed (SHA-256) as it is written. */
export class TarWriter {
  private position = 0;
  private readonly mtime = Math.floor(Date.now() / 1000);

  constructor(private readonly file: FileHandle) {}

  private async write(bytes: Buffer): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.file.write(bytes, done, bytes.length - done, this.position);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }

  private async entryHeader(path: string, size: number): Promise<void> {
    const pax = paxRecords(path, size);
    if (pax) {
      await this.write(header(`PaxHeader/${path.slice(-80)}`, pax.length, 'x', this.mtime));
      await this.write(Buffer.concat([pax, Buffer.alloc(padding(pax.length))]));
    }
    await this.write(header(path, size, '0', this.mtime));
  }

  /** Adds bytes held in memory; returns their SHA-256 (hex). */
  async addBytes(path: string, bytes: Buffer): Promise<string> {
    await this.entryHeader(path, bytes.length);
    await this.write(Buffer.concat([bytes, Buffer.alloc(padding(bytes.length))]));
    return createHash('sha256').update(bytes).digest('hex');
  }

  /**
   * Adds `size` bytes read from an open file; returns their SHA-256 (hex). A file that turns out
   * shorter than `size` fails the backup rather than writing a torn entry.
   */
  async addFile(path: string, source: FileHandle, size: number): Promise<string> {
    await this.entryHeader(path, size);
    const hash = createHash('sha256');
    const buf = Buffer.alloc(Math.min(CHUNK, Math.max(size, 1)));
    for (let read = 0; read < size; ) {
      const { bytesRead } = await source.read(buf, 0, Math.min(buf.length, size - read), read);
      if (bytesRead === 0) throw new Error(`${path} became shorter while it was being copied`);
      const chunk = buf.subarray(0, bytesRead);
      hash.update(chunk);
      await this.write(chunk);
      read += bytesRead;
    }
    await this.write(Buffer.alloc(padding(size)));
    return hash.digest('hex');
  }

  /**
   * Adds the `size` bytes a stream yields (an object read from S3); returns their SHA-256 (hex). A
   * stream that yields more or fewer bytes than `size` fails the backup: the header is already written.
   */
  async addStream(path: string, source: AsyncIterable<Uint8Array>, size: number): Promise<string> {
    await this.entryHeader(path, size);
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of source) {
      read += chunk.byteLength;
      if (read > size) throw new Error(`${path} became longer while it was being copied`);
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      hash.update(bytes);
      await this.write(bytes);
    }
    if (read < size) throw new Error(`${path} became shorter while it was being copied`);
    await this.write(Buffer.alloc(padding(size)));
    return hash.digest('hex');
  }

  /** The end-of-archive marker: two zero blocks. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
  }
}

function readOctal(block: Buffer, start: number, width: number, what: string): number {
  const text = block
    .toString('ascii', start, start + width)
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]*$/.test(text)) throw new BadArchiveError(`bad ${what} field in a tar header`);
  return text ? Number.parseInt(text, 8) : 0;
}

const cString = (block: Buffer, start: number, width: number) => {
  const end = block.indexOf(0, start);
  return block.toString('utf8', start, end === -1 || end > start + width ? start + width : end);
};

function parsePax(bytes: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const len = Number(bytes.toString('ascii', at, space));
    if (space === -1 || !Number.isInteger(len) || len <= 0 || at + len > bytes.length) throw new BadArchiveError('bad pax header in the tar file');
    const record = bytes.toString('utf8', space + 1, at + len - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

async function readExactly(file: FileHandle, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw new BadArchiveError('the file ends in the middle of an entry: it is truncated');
    done += bytesRead;
  }
  return buf;
}

/**
 * Every regular file of a tar file, from its headers only. Refuses a file that ends before its
 * end-of-archive marker (truncated), a header whose checksum is wrong, and any entry that is not a
 * regular file (links and devices have no place in a backup).
 */
export async function listTar(file: FileHandle): Promise<TarEntry[]> {
  const { size: fileSize } = await file.stat();
  const entries: TarEntry[] = [];
  let pax: Record<string, string> = {};
  for (let at = 0; ; ) {
    if (at + BLOCK > fileSize) throw new BadArchiveError('the file ends before the end of the archive: it is truncated');
    const block = await readExactly(file, BLOCK, at);
    if (block.every((b) => b === 0)) {
      // The end-of-archive marker is two zero blocks: one alone is a file cut short.
      if (at + 2 * BLOCK > fileSize || !(await readExactly(file, BLOCK, at + BLOCK)).every((b) => b === 0)) {
        throw new BadArchiveError('the file ends before the end of the archive: it is truncated');
      }
      return entries;
    }
    const stored = readOctal(block, 148, 8, 'checksum');
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    if (sum !== stored) throw new BadArchiveError(`a tar header at byte ${at} is damaged (checksum)`);
    const type = String.fromCharCode(block[156] ?? 0);
    const size = pax.size !== undefined ? Number(pax.size) : readOctal(block, 124, 12, 'size');
    if (!Number.isSafeInteger(size) || size < 0) throw new BadArchiveError('bad entry size in the tar file');
    const offset = at + BLOCK;
    if (offset + size + padding(size) > fileSize) throw new BadArchiveError('the file ends in the middle of an entry: it is truncated');
    at = offset + size + padding(size);
    if (type === 'x') {
      pax = parsePax(await readExactly(file, size, offset));
      continue;
    }
    if (type !== '0' && type !== '\0') throw new BadArchiveError(`the tar file holds an entry of type ${JSON.stringify(type)}, not a regular file`);
    const prefix = cString(block, 345, USTAR_PREFIX);
    const name = cString(block, 0, USTAR_NAME);
    entries.push({ path: pax.path ?? (prefix ? `${prefix}/${name}` : name), size, offset });
    pax = {};
  }
}

/** An entry's bytes, in chunks of at most 1 MiB. */
export async function* entryChunks(file: FileHandle, entry: TarEntry): AsyncGenerator<Buffer> {
  for (let done = 0; done < entry.size; ) {
    const chunk = await readExactly(file, Math.min(CHUNK, entry.size - done), entry.offset + done);
    done += chunk.length;
    yield chunk;
  }
}

/** An entry's SHA-256 (hex). */
export async function entrySha256(file: FileHandle, entry: TarEntry): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of entryChunks(file, entry)) hash.update(chunk);
  return hash.digest('hex');
}
