// The two ways a planned clip reaches the client. On a plain HTTP/1.1 connection ffmpeg is handed the
// client's socket and writes the MP4 into it itself, so Node never touches the bytes: no copy through
// the event loop, no garbage for the collector (an hour is 550 MB; through Node it cost as much CPU
// again as ffmpeg itself, see docs/benchmarks.md). Everywhere else (TLS, HTTP/2, app.inject) ffmpeg's
// stdout is piped into the reply. Either way a failed export is never a clean download: the pipe's
// body errors, and the socket is reset.
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { once } from 'node:events';
import type { Clip } from './clip.js';

/** The longest an export may run before ffmpeg is stopped. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

interface Run {
  child: ChildProcess;
  /** Resolves when ffmpeg wrote the whole clip; rejects with its error otherwise. */
  done: Promise<void>;
}

/** Starts ffmpeg on the clip's concat list, with its output where `stdio` puts it. */
function runFfmpeg(ffmpeg: string, clip: Clip, output: string, stdio: ['pipe', 'pipe' | 'ignore', 'pipe', ...Socket[]]): Run {
  const child = spawn(ffmpeg, clip.args(output), { stdio });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (stderr.length < 8000) stderr += d;
  });
  child.stdin!.on('error', () => {}); // ffmpeg may stop reading early; its exit code tells.
  child.stdin!.end(clip.list);
  const timer = setTimeout(() => child.kill('SIGKILL'), EXPORT_TIMEOUT_MS);
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // The concat demuxer ends cleanly (exit 0) when a listed segment cannot be opened, for example
      // one retention removed during the export: that clip is short, so it is a failure too.
      if (code === 0 && !/Impossible to open/.test(stderr)) resolve();
      else reject(new Error(`ffmpeg failed (${signal ?? code}): ${stderr.slice(-500)}`));
    });
  });
  done.catch(() => {});
  return { child, done };
}

/**
 * ffmpeg's stdout as the body, returned once the first bytes are out, so a failure before that is
 * still an ordinary error (a 5xx), not a broken download. The body ends only when ffmpeg succeeded.
 */
export async function pipeClip(ffmpeg: string, clip: Clip): Promise<Readable> {
  const { child, done } = runFfmpeg(ffmpeg, clip, 'pipe:1', ['pipe', 'pipe', 'pipe']);
  const body = new PassThrough();
  child.stdout!.pipe(body, { end: false });
  done.then(
    () => body.end(),
    (err: Error) => body.destroy(err),
  );
  // A client that goes away stops the export.
  body.once('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await Promise.race([new Promise((r) => child.stdout!.once('readable', r)), done]);
  if (body.destroyed) await done; // throws ffmpeg's error
  return body;
}

/** The client's socket, when ffmpeg can be given it: a plain TCP connection speaking HTTP/1.x. */
export function handOverSocket(req: IncomingMessage): Socket | null {
  const socket = req.socket;
  // TLSSocket is a Socket too, but its fd carries ciphertext; inject's fake socket is not a Socket.
  if (!(socket instanceof Socket) || 'encrypted' in socket || req.httpVersionMajor !== 1 || req.method !== 'GET') return null;
  return socket.writable && !socket.destroyed ? socket : null;
}

/**
 * Sends the head through Node, then lets ffmpeg write the body into the socket as its fd 3 (not
 * 0–2, which the child would switch to blocking mode, and the flag is shared with Node's copy). The
 * body is delimited by the connection's end (`Connection: close`, no length): ffmpeg's success
 * closes it cleanly, a failure resets it, and a client that goes away stops ffmpeg.
 */
export async function sendClipOverSocket(ffmpeg: string, clip: Clip, res: ServerResponse, socket: Socket, headers: Record<string, string>): Promise<void> {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('connection', 'close');
  // Neither a length nor chunked encoding: Node then marks the response close-delimited.
  res.removeHeader('content-length');
  res.removeHeader('transfer-encoding');
  res.writeHead(200);
  res.flushHeaders();
  // A client gone before the head is out would never drain: stop there rather than wait for ever.
  if (socket.writableLength > 0) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
  if (socket.destroyed) throw new Error('the client went away before the export started');
  const { child, done } = runFfmpeg(ffmpeg, clip, 'pipe:3', ['pipe', 'ignore', 'pipe', socket]);
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  socket.once('close', stop);
  try {
    await done;
    res.end();
  } catch (err) {
    socket.resetAndDestroy();
    throw err;
  } finally {
    socket.off('close', stop);
  }
}
