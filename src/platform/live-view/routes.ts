// Live view routes (camera:live_view): snapshots, the HLS entry point and stream details for
// people and keys; the media playlist and its segments for whoever holds the media token `/hls` issued,
// answered by the node running the camera's stream (passed there from any other node).
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { errorResponses, Nullable, StringEnum, Timestamp } from '../../lib/http/schemas.js';
import { fromPathCamera, scoped, tokenOnly } from '../access/index.js';
import type { MediaClaims } from './media-tokens.js';
import { FORWARDED_HEADER, forwardLive } from './live-proxy.js';
import { PLAYLIST_FILE } from './ffmpeg-args.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const SegmentParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }), segment: Type.String({ minLength: 1, maxLength: 64 }) });
const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096, description: 'The media token from the playlist that named this URI' }) });
const HlsQuery = Type.Object({
  format: Type.Optional(StringEnum(['m3u8', 'json'], { description: '`json`: the media playlist URL for a player, instead of the master playlist' })),
});
const SnapshotJson = Type.Object({ created_at: Timestamp, data: Type.String({ description: 'data:image/jpeg;base64,…' }) });
const HlsJson = Type.Object({ playlist_url: Type.String(), expires_at: Timestamp });
const Playlist = { description: 'An HLS playlist', content: { 'application/vnd.apple.mpegurl': { schema: Type.String() } } };
const Streaming = Type.Object({
  hls_url: Type.String(),
  rtsp_url: Nullable(Type.String({ description: 'Without credentials' })),
  rtmp_url: Nullable(Type.String()),
  source: Type.Union([StringEnum(['simulated', 'rtsp', 'linked']), Type.Null()]),
  codec: Nullable(Type.String()),
  profile: Nullable(Type.String()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  fps: Nullable(Type.Number()),
  source_error: Nullable(Type.String()),
  hls: Type.Object({
    running: Type.Boolean(),
    viewers: Type.Integer({ description: 'Viewers who fetched the playlist or a segment within the idle timeout' }),
    mode: Type.Union([StringEnum(['copy', 'encode', 'simulated', 'linked']), Type.Null()]),
  }),
});
const upstream = () => errorResponses(502, 503, 504);

const M3U8 = 'application/vnd.apple.mpegurl';
/** Bytes sent as they are (JPEG, MPEG-TS). */
const Binary = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });

/** The media token's claims, set by the verifier the access layer ran. */
const viewerOf = (req: FastifyRequest): MediaClaims => {
  if (!req.mediaViewer) throw new ApiError('UNAUTHORIZED', 'A media token is required');
  return req.mediaViewer;
};

/** Whether another node passed this request here (it is then answered here or not at all). */
const forwarded = (req: FastifyRequest) => req.headers[FORWARDED_HEADER] === '1';

export const liveViewRoutes = defineRoutes('live-view-routes', ['liveView'], async (fastify, { liveView }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['live view'];
  const live = scoped(['camera:live_view'], { project: fromPathCamera });
  const media = tokenOnly('media');

  app.get(
    '/v2/cameras/:camera_exid/live/snapshot',
    {
      config: { access: live },
      schema: {
        tags,
        operationId: 'getLiveSnapshot',
        summary: 'A frame from the camera now, as a data URI',
        params: CameraParams,
        response: { 200: SnapshotJson, ...upstream() },
      },
    },
    async (req, reply) => {
      const shot = await liveView.snapshot(req.params.camera_exid);
      reply.header('cache-control', 'no-store');
      return { created_at: shot.takenAt.toISOString(), data: `data:image/jpeg;base64,${shot.jpeg.toString('base64')}` };
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/live/snapshot.jpg',
    {
      config: { access: live },
      schema: {
        tags,
        operationId: 'getLiveSnapshotJpeg',
        summary: 'A frame from the camera now, as a JPEG; its time in x-snapshot-date',
        params: CameraParams,
        response: { 200: { description: 'The JPEG', content: { 'image/jpeg': { schema: Binary } } }, ...upstream() },
      },
    },
    async (req, reply) => {
      const shot = await liveView.snapshot(req.params.camera_exid);
      return reply.type('image/jpeg').header('cache-control', 'no-store').header('x-snapshot-date', shot.takenAt.toISOString()).send(shot.jpeg);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/hls',
    {
      config: { access: live },
      schema: {
        tags,
        operationId: 'getLiveHls',
        summary: 'The HLS master playlist, whose media playlist URI carries a short-lived media token (or that URL as JSON with ?format=json)',
        params: CameraParams,
        querystring: HlsQuery,
        response: {
          200: {
            description: 'The master playlist, or its media playlist URL',
            content: { [M3U8]: { schema: Type.String() }, 'application/json': { schema: HlsJson } },
          },
          ...upstream(),
        },
      },
    },
    async (req, reply) => {
      const entry = await liveView.master(req.params.camera_exid, req.principal);
      reply.header('cache-control', 'no-store');
      if (req.query.format === 'json')
        return reply.type('application/json; charset=utf-8').send({ playlist_url: entry.playlistUrl, expires_at: entry.expiresAt.toISOString() });
      return reply.type(M3U8).send(entry.playlist);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/hls/live.m3u8',
    {
      config: { access: media },
      schema: {
        tags,
        operationId: 'getLiveHlsMediaPlaylist',
        summary: 'The live media playlist (starts the stream on first fetch); every segment URI carries a token',
        params: CameraParams,
        querystring: TokenQuery,
        response: { 200: Playlist, ...upstream() },
      },
    },
    async (req, reply) => {
      const answer = await liveView.mediaPlaylist(req.params.camera_exid, viewerOf(req), forwarded(req));
      // The stream runs on another node: its answer is passed through (docs/deploy.md, Live view on several nodes).
      if ('node' in answer) return forwardLive(reply, answer.node, req.params.camera_exid, PLAYLIST_FILE, req.query.token);
      return reply.type(M3U8).header('cache-control', 'no-store').send(answer.here);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/hls/:segment',
    {
      config: { access: media },
      schema: {
        tags,
        operationId: 'getLiveHlsSegment',
        summary: 'One MPEG-TS segment of the live stream',
        params: SegmentParams,
        querystring: TokenQuery,
        response: { 200: { description: 'The segment', content: { 'video/mp2t': { schema: Binary } } }, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const answer = await liveView.segment(req.params.camera_exid, req.params.segment, viewerOf(req), forwarded(req));
      if ('node' in answer) return forwardLive(reply, answer.node, req.params.camera_exid, req.params.segment, req.query.token);
      return reply.type('video/mp2t').header('cache-control', 'private, max-age=60').send(answer.here);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/streaming',
    {
      config: { access: live },
      schema: {
        tags,
        operationId: 'getLiveStreaming',
        summary: 'Stream details: URLs, codec, size and frame rate as read from the source, and whether HLS is running',
        params: CameraParams,
        response: { 200: Streaming, ...upstream() },
      },
    },
    async (req) => liveView.streaming(req.params.camera_exid),
  );
});
