// What the live view tests need around the app: a player that follows the playlists with no headers
// (only the token URIs), ffprobe on what it fetched, the processes running under a folder, and a real
// RTSP server (rtsp-server-perl) with ffmpeg publishing an H.264 test pattern to it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import { SIMULATED_INPUT_FPS, simulatedHlsArgs } from '../../../src/platform/live-view/ffmpeg-args.js';
import type { StreamSpec } from '../../../src/platform/live-view/hls-stream.js';
import { eventually } from '../../helpers/eventually.js';

const run = promisify(execFile);

/** URI lines of a playlist (not tags, not blank). */
export const uris = (playlist: string) =>
  playlist
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

export interface Played {
  mediaUrl: string;
  mediaPlaylist: string;
  segmentUrls: string[];
  /** The first segment, saved to a file for ffprobe. */
  segmentFile: string;
}

/**
 * What a header-less player does: resolves the master playlist's variant URI, fetches the media
 * playlist until it lists a segment, and fetches that segment, all without any credential header.
 */
export async function play(app: FastifyInstance, masterUrl: string, master: string, dir: string): Promise<Played> {
  const base = new URL(masterUrl, 'http://overlook.test');
  const [variant] = uris(master);
  expect(variant).toMatch(/^hls\/live\.m3u8\?token=[A-Za-z0-9_.%-]+$/);
  const media = new URL(variant!, base);
  const mediaUrl = media.pathname + media.search;
  const res = await app.inject({ method: 'GET', url: mediaUrl });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('application/vnd.apple.mpegurl');
  const mediaPlaylist = res.body;
  expect(mediaPlaylist).toContain('#EXTM3U');
  const segmentUrls = uris(mediaPlaylist).map((u) => {
    const s = new URL(u, media);
    return s.pathname + s.search;
  });
  expect(segmentUrls.length).toBeGreaterThan(0);
  for (const u of segmentUrls) expect(u).toMatch(/\/hls\/seg_\d+\.ts\?token=/);
  const seg = await app.inject({ method: 'GET', url: segmentUrls[0]! });
  expect(seg.statusCode, seg.body).toBe(200);
  expect(seg.headers['content-type']).toBe('video/mp2t');
  const segmentFile = join(dir, `seg-${Date.now()}-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(segmentFile, seg.rawPayload);
  return { mediaUrl, mediaPlaylist, segmentUrls, segmentFile };
}

export interface VideoFacts {
  codec: string;
  profile: string;
  width: number;
  height: number;
}

export async function probeFile(file: string): Promise<VideoFacts> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,profile,width,height',
    '-of',
    'json',
    file,
  ]);
  const s = JSON.parse(stdout).streams[0];
  return { codec: s.codec_name, profile: s.profile, width: s.width, height: s.height };
}

/** Decodes every frame of the file: throws when ffmpeg finds it broken. */
export async function decodes(file: string): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
}

/** Processes whose command line contains `needle` (optionally whose working folder is under `cwdUnder`). */
export function processesWith(needle: string, cwdUnder?: string): number[] {
  const found: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      if (!cmd.includes(needle)) continue;
      if (readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) continue;
      if (cwdUnder && !readlinkSync(`/proc/${p}/cwd`).startsWith(cwdUnder)) continue;
      found.push(Number(p));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

const alive = (pid: number) => processesWith('').includes(pid);

async function freeTcpPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** An even UDP port whose next one is free too (RTP and RTCP of the published stream). */
async function freeUdpPair(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 15_000);
    const ok = await Promise.all(
      [port, port + 1].map(
        (p) =>
          new Promise<boolean>((resolve) => {
            const s = createSocket('udp4');
            s.once('error', () => resolve(false));
            s.bind(p, '127.0.0.1', () => s.close(() => resolve(true)));
          }),
      ),
    );
    if (ok.every(Boolean)) return port;
  }
  throw new Error('no free UDP ports');
}

const tcpOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

export interface RtspRig {
  /** Where players pull the H.264 stream (what a camera's rtsp_url is). */
  url: string;
  /** What the publisher sends: H.264 of this profile and size. */
  published: VideoFacts;
  /** Publishes another stream (e.g. another codec) and answers its URL once it plays. */
  publish(codecArgs: string[], size: string): Promise<string>;
  pids: number[];
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((r) => child.once('close', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 3000);
  await closed;
  clearTimeout(t);
}

/**
 * rtsp-server-perl on free loopback ports, listening. Ports found free can be taken by another test process
 * before the server binds them, and Perl starts slowly on a loaded machine: a server that exits or does not
 * listen in time is replaced by one on new ports, three times at most.
 */
async function startRtspServer(): Promise<{ server: ChildProcess; clientPort: number; sourcePort: number }> {
  for (let attempt = 1; ; attempt++) {
    const [clientPort, sourcePort, rtpPort] = [await freeTcpPort(), await freeTcpPort(), await freeUdpPair()];
    const server = spawn(
      'rtsp-server-perl',
      [
        '--clientport',
        String(clientPort),
        '--serverport',
        String(sourcePort),
        '--rtp_start_port',
        String(rtpPort),
        '--client_listen_address',
        '127.0.0.1',
        '--source_listen_address',
        '127.0.0.1',
        '--loglevel',
        '1',
      ],
      { stdio: 'ignore' },
    );
    try {
      await eventually(
        async () => {
          if (server.exitCode !== null || server.signalCode !== null) throw new Error('the RTSP server exited before it listened');
          return (await tcpOpen(clientPort)) && (await tcpOpen(sourcePort));
        },
        'the RTSP server to listen',
        30_000,
      );
      return { server, clientPort, sourcePort };
    } catch (err) {
      await stopChild(server);
      if (attempt === 3) throw err;
    }
  }
}

/**
 * rtsp-server-perl on free loopback ports, and ffmpeg publishing to it (ANNOUNCE/RECORD) a 320x240
 * H.264 High-profile test pattern: a profile and size the platform's own encoder never makes, so a
 * segment that has them was copied, not re-encoded.
 */
export async function startRtspRig(): Promise<RtspRig> {
  const { server, clientPort, sourcePort } = await startRtspServer();
  const children: ChildProcess[] = [server];

  const publish = async (codecArgs: string[], size: string): Promise<string> => {
    const path = `cam${Math.floor(Math.random() * 1e6)}`;
    const publisher = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${size}:rate=15`,
        ...codecArgs,
        '-f',
        'rtsp',
        '-rtsp_transport',
        'udp',
        `rtsp://127.0.0.1:${sourcePort}/${path}`,
      ],
      { stdio: 'ignore' },
    );
    children.unshift(publisher);
    const url = `rtsp://127.0.0.1:${clientPort}/${path}`;
    // Ready once a player can read the stream.
    await eventually(
      async () => {
        try {
          await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'udp', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', url], { timeout: 8000 });
          return true;
        } catch {
          return false;
        }
      },
      'the published RTSP stream',
      30_000,
    );
    return url;
  };

  const url = await publish(
    ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', '15'],
    '320x240',
  );
  return {
    url,
    published: { codec: 'h264', profile: 'High', width: 320, height: 240 },
    publish,
    get pids() {
      return children.map((c) => c.pid!);
    },
    async stop() {
      for (const c of children) await stopChild(c);
      expect(children.some((c) => alive(c.pid!))).toBe(false);
    },
  };
}

export function scratchDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-live-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The scene of a 640x360 picture (below the name bar, above the PTZ line) as 64x26 grey pixels. */
const SCENE = { left: 0, top: 50, width: 640, height: 260, small: { width: 64, height: 26 } };

/** The scene of a segment's last frame, decoded by ffmpeg. */
export async function lastFrameScene(file: string): Promise<Buffer> {
  const { width, height } = SCENE.small;
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `crop=${SCENE.width}:${SCENE.height}:${SCENE.left}:${SCENE.top},scale=${width}:${height},format=gray`,
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.subarray(stdout.length - width * height);
}

/** The same scene of a JPEG. */
export async function jpegScene(jpeg: Buffer): Promise<Buffer> {
  return sharp(jpeg)
    .extract({ left: SCENE.left, top: SCENE.top, width: SCENE.width, height: SCENE.height })
    .resize(SCENE.small.width, SCENE.small.height, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
}

/** Mean absolute difference of two grey scenes, 0 (the same) to 255. */
export function sceneDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** A stream of one still picture piped into ffmpeg, as the simulated camera's scene is (no camera needed). */
export function pictureSpec(): StreamSpec {
  const jpeg = sharp({ create: { width: 640, height: 360, channels: 3, background: '#6b5b45' } })
    .jpeg()
    .toBuffer();
  return { mode: 'encode', args: simulatedHlsArgs(), frames: { render: () => jpeg, fps: SIMULATED_INPUT_FPS, renderMs: 1000 } };
}
