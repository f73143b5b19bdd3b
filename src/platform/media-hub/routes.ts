// Media hub routes (project:media_hub, 18 operations: docs/access-model.md). Under the project: the item list
// (filters, pagination, sort), url/file items, clips, compares and timelapses (create, get, edit,
// delete), the requesters, and retry of a failed render. Under /v2/media-hub: an item's stored file
// (MP4, compare GIF, upload) and thumbnail, reached by item id with the project taken from the item.
// Viewers read; editors write.
import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, fromRecord, scoped } from '../access/index.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { MAX_PAGE_SIZE, PageMeta } from '../../lib/http/pagination.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { MediaItem } from './media-item-record.js';
import { KINDS } from './media-hub-tables.js';
import { FILE_TYPES } from './uploads.js';
import { defineRoutes } from '../plugins/feature.js';

const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Id = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'The item id (exid)' });
const ItemParams = Type.Object({ exid: ProjectParams.properties.exid, id: Id });
const MediaParams = Type.Object({ id: Id });
const Title = Type.String({ minLength: 1, maxLength: 200 });
const Time = Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 (no offset: UTC) or Unix seconds' });
const CameraExid = Type.String({ minLength: 1, maxLength: 64 });
const Width = Type.Integer({ minimum: 64, maximum: 1920, multipleOf: 2, description: 'Output width in pixels (even); height follows the frames. Default 640' });
const Timestamp = Type.Boolean({ description: 'Draw each frame’s local time on it (default true)' });
const Logo = Type.String({ minLength: 1, description: 'A logo image (PNG, JPEG, WebP, GIF), base64 or a data: URI, overlaid in a corner' });
const LogoPosition = StringEnum(['top-left', 'top-right', 'bottom-left', 'bottom-right'], { description: 'Default top-right' });
const Schedule = Type.Object(
  {
    from: Type.String({ maxLength: 5, description: 'Local HH:MM, inclusive' }),
    to: Type.String({ maxLength: 5, description: 'Local HH:MM, exclusive (earlier than from: crosses midnight)' }),
    days: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7, description: 'Weekdays kept, 0 = Sunday; default all' })),
  },
  { additionalProperties: false, description: 'Daily window in the camera’s time zone: only frames inside it are used' },
);
const Duration = Type.Integer({ minimum: 1, maximum: 600, description: 'Seconds of video' });

const ListQuery = Type.Object(
  {
    type: Type.Optional(StringEnum(KINDS)),
    camera_exid: Type.Optional(CameraExid),
    requester: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Requester e-mail' })),
    from_date: Type.Optional(Type.String({ maxLength: 40, description: 'Created at or after' })),
    to_date: Type.Optional(Type.String({ maxLength: 40, description: 'Created at or before' })),
    sort: Type.Optional(StringEnum(['created_at_desc', 'created_at_asc', 'title_asc', 'title_desc'], { description: 'Default created_at_desc' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Alias of page_size' })),
  },
  { additionalProperties: false },
);

const ItemBody = Type.Object(
  {
    type: StringEnum(['url', 'file'], { description: 'Clips, compares and timelapses have their own create endpoints' }),
    title: Title,
    camera_exid: Type.Optional(CameraExid),
    public: Type.Optional(Type.Boolean()),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'url items: an http or https link' })),
    file: Type.Optional(Type.String({ minLength: 1, description: `file items: the file, base64 or a data: URI (${FILE_TYPES.join(', ')})` })),
    file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    content_type: Type.Optional(Type.String({ maxLength: 100, description: 'Checked against the file’s real type' })),
  },
  { additionalProperties: false },
);
const ItemPatch = Type.Object(
  { title: Type.Optional(Title), public: Type.Optional(Type.Boolean()), url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })) },
  { additionalProperties: false, minProperties: 1 },
);
const video = { width: Type.Optional(Width), timestamp: Type.Optional(Timestamp), logo_position: Type.Optional(LogoPosition) };
const ClipBody = Type.Object(
  {
    title: Title,
    camera_exid: CameraExid,
    from_date: Time,
    to_date: Time,
    fps: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, description: 'Recorded frames per second of video (default 4)' })),
    public: Type.Optional(Type.Boolean()),
    logo: Type.Optional(Logo),
    ...video,
  },
  { additionalProperties: false },
);
const timelapseFields = {
  from_date: Type.Optional(Time),
  to_date: Type.Optional(Time),
  from_datetime: Type.Optional(Time),
  to_datetime: Type.Optional(Time),
  schedule: Type.Optional(Type.Union([Schedule, Type.Null()])),
  public: Type.Optional(Type.Boolean()),
  ...video,
};
const TimelapseBody = Type.Object(
  { title: Title, camera_exid: CameraExid, duration: Duration, logo: Type.Optional(Logo), ...timelapseFields },
  { additionalProperties: false },
);
const TimelapsePatch = Type.Object(
  {
    title: Type.Optional(Title),
    duration: Type.Optional(Duration),
    logo: Type.Optional(Type.Union([Logo, Type.Null()], { description: 'null removes the logo' })),
    ...timelapseFields,
  },
  { additionalProperties: false, minProperties: 1, description: 'Changing anything but title and public renders the timelapse again' },
);
const CompareBody = Type.Object(
  {
    title: Title,
    camera_exid: CameraExid,
    before_date: Time,
    after_date: Time,
    width: Type.Optional(Width),
    timestamp: Type.Optional(Timestamp),
    public: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ComparePatch = Type.Object(
  {
    title: Type.Optional(Title),
    before_date: Type.Optional(Time),
    after_date: Type.Optional(Time),
    width: Type.Optional(Width),
    timestamp: Type.Optional(Timestamp),
    public: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, description: 'Changing the dates, width or timestamp renders the compare again' },
);
const Requesters = Type.Object({
  users: Type.Array(Type.Object({ email: Type.String(), name: Type.Union([Type.String(), Type.Null()]), count: Type.Integer() })),
});
const Binary = Type.Unsafe<Buffer | Readable>({ type: 'string', format: 'binary' });

export const mediaHubRoutes = defineRoutes('media-hub-routes', ['mediaHub', 'config'], async (fastify, { mediaHub, config }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['media-hub'];
  const read = scoped(['project:media_hub'], { project: fromPathProject });
  const write = scoped(['project:media_hub'], { project: fromPathProject, role: 'editor' });
  const readItem = scoped(['project:media_hub'], { project: fromRecord((req) => mediaHub.projectOfItem((req.params as { id: string }).id)) });
  const base = '/v2/projects/:exid/media-hub';
  // Uploads travel as base64 (4/3 of the bytes) in JSON.
  const uploadLimit = Math.max(config.bodyLimit, Math.ceil((config.mediaFileMaxBytes * 4) / 3) + 64 * 1024);
  const one = { 200: MediaItem, ...errorResponses() };
  const created = { 201: MediaItem, ...errorResponses(409, 415) };
  const gone = { 204: Type.Null(), ...errorResponses() };

  app.get(
    base,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listMediaHubItems',
        summary: 'The project’s media hub items, filtered, sorted and paginated',
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(MediaItem) }), ...errorResponses() },
      },
    },
    async (req) => mediaHub.list(allowedProject(req).project, req.query),
  );

  app.post(
    base,
    {
      bodyLimit: uploadLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'createMediaHubItem',
        summary: 'Adds a link (url) or an uploaded file (file) to the media hub',
        params: ProjectParams,
        body: ItemBody,
        response: created,
      },
    },
    async (req, reply) => reply.code(201).send(await mediaHub.create(allowedProject(req).project, actingUserId(req), req.body)),
  );

  app.get(
    `${base}/users`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listMediaHubRequesters',
        summary: 'The people who requested the project’s items, with how many each',
        params: ProjectParams,
        response: { 200: Requesters, ...errorResponses() },
      },
    },
    async (req) => mediaHub.requesters(allowedProject(req).project),
  );

  app.post(
    `${base}/clips`,
    {
      bodyLimit: uploadLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'createMediaHubClip',
        summary: 'Renders a clip of a camera’s recordings over a time range (up to 24 hours) as MP4',
        description: 'Refused (400, on from_date) when the camera recorded no frame in the range: such a clip could never render.',
        params: ProjectParams,
        body: ClipBody,
        response: created,
      },
    },
    async (req, reply) => reply.code(201).send(await mediaHub.createClip(allowedProject(req).project, actingUserId(req), req.body)),
  );

  app.post(
    `${base}/compares`,
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'createMediaHubCompare',
        summary: 'Renders a before/after compare of two recorded frames as GIF and MP4',
        params: ProjectParams,
        body: CompareBody,
        response: created,
      },
    },
    async (req, reply) => reply.code(201).send(await mediaHub.createCompare(allowedProject(req).project, actingUserId(req), req.body)),
  );
  app.get(
    `${base}/compares/:id`,
    { config: { access: read }, schema: { tags, operationId: 'getMediaHubCompare', summary: 'One compare', params: ItemParams, response: one } },
    async (req) => mediaHub.get(allowedProject(req).project, req.params.id, 'compare'),
  );
  app.patch(
    `${base}/compares/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'updateMediaHubCompare',
        summary: 'Edits a compare (new dates render it again)',
        params: ItemParams,
        body: ComparePatch,
        response: one,
      },
    },
    async (req) => mediaHub.patchCompare(allowedProject(req).project, req.params.id, req.body),
  );
  app.delete(
    `${base}/compares/:id`,
    {
      config: { access: write },
      schema: { tags, operationId: 'deleteMediaHubCompare', summary: 'Deletes a compare and its GIF and MP4', params: ItemParams, response: gone },
    },
    async (req, reply) => {
      await mediaHub.delete(allowedProject(req).project, req.params.id, 'compare');
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/timelapses`,
    {
      bodyLimit: uploadLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'createMediaHubTimelapse',
        summary: 'Renders a timelapse of a camera’s recordings (range, daily schedule, duration, size, timestamp, logo) as MP4',
        params: ProjectParams,
        body: TimelapseBody,
        response: created,
      },
    },
    async (req, reply) => reply.code(201).send(await mediaHub.createTimelapse(allowedProject(req).project, actingUserId(req), req.body)),
  );
  app.get(
    `${base}/timelapses/:id`,
    { config: { access: read }, schema: { tags, operationId: 'getMediaHubTimelapse', summary: 'One timelapse', params: ItemParams, response: one } },
    async (req) => mediaHub.get(allowedProject(req).project, req.params.id, 'timelapse'),
  );
  app.patch(
    `${base}/timelapses/:id`,
    {
      bodyLimit: uploadLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'updateMediaHubTimelapse',
        summary: 'Edits a timelapse (new render options render it again)',
        params: ItemParams,
        body: TimelapsePatch,
        response: one,
      },
    },
    async (req) => mediaHub.patchTimelapse(allowedProject(req).project, req.params.id, req.body),
  );
  app.delete(
    `${base}/timelapses/:id`,
    {
      config: { access: write },
      schema: { tags, operationId: 'deleteMediaHubTimelapse', summary: 'Deletes a timelapse and its video', params: ItemParams, response: gone },
    },
    async (req, reply) => {
      await mediaHub.delete(allowedProject(req).project, req.params.id, 'timelapse');
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: read },
      schema: { tags, operationId: 'getMediaHubItem', summary: 'One media hub item of any kind', params: ItemParams, response: one },
    },
    async (req) => mediaHub.get(allowedProject(req).project, req.params.id),
  );
  app.patch(
    `${base}/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'updateMediaHubItem',
        summary: 'Edits an item’s title, visibility, or a url item’s link',
        params: ItemParams,
        body: ItemPatch,
        response: one,
      },
    },
    async (req) => mediaHub.patch(allowedProject(req).project, req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    {
      config: { access: write },
      schema: { tags, operationId: 'deleteMediaHubItem', summary: 'Deletes an item of any kind and its stored files', params: ItemParams, response: gone },
    },
    async (req, reply) => {
      await mediaHub.delete(allowedProject(req).project, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    `${base}/:id/retry`,
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'retryMediaHubItem',
        summary: 'Queues a failed clip, compare or timelapse render again',
        description: 'Refused (409) when the render would fail again: the range (a compare: the camera) still has no recorded frames.',
        params: ItemParams,
        response: { 200: MediaItem, ...errorResponses(409) },
      },
    },
    async (req) => mediaHub.retry(allowedProject(req).project, req.params.id),
  );

  app.get(
    '/v2/media-hub/:id/file',
    {
      config: { access: readItem },
      schema: {
        tags,
        operationId: 'getMediaHubFile',
        summary: 'The item’s stored media: the rendered MP4, a compare’s GIF (format=gif), or the uploaded file',
        params: MediaParams,
        querystring: Type.Object(
          { format: Type.Optional(StringEnum(['mp4', 'gif'])), download: Type.Optional(Type.Boolean({ description: 'As an attachment' })) },
          { additionalProperties: false },
        ),
        response: {
          206: { description: 'A byte range of the file (Range: bytes=a-b)', content: { 'application/octet-stream': { schema: Binary } } },
          200: {
            description: 'The file',
            content: { 'video/mp4': { schema: Binary }, 'image/gif': { schema: Binary }, 'application/octet-stream': { schema: Binary } },
          },
          ...errorResponses(409),
        },
      },
    },
    async (req, reply) => {
      const disposition = (fileName: string) => `${req.query.download ? 'attachment' : 'inline'}; filename="${fileName.replace(/[^\w.-]+/g, '_')}"`;
      reply.header('accept-ranges', 'bytes');
      // One byte range (video players seek with these); anything else is answered with the whole file.
      const range = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(req.headers.range ?? '');
      if (range && (range[2] === '' || Number(range[2]) >= Number(range[1]))) {
        const part = await mediaHub.fileRange(req.params.id, req.query.format, Number(range[1]), range[2] === '' ? Number.MAX_SAFE_INTEGER : Number(range[2]));
        if (part) {
          const last = Number(range[1]) + part.bytes.length - 1;
          return reply
            .code(206)
            .type(part.contentType)
            .header('content-range', `bytes ${range[1]}-${last}/${part.size}`)
            .header('content-disposition', disposition(part.fileName))
            .header('x-content-type-options', 'nosniff')
            .send(part.bytes);
        }
      }
      const f = await mediaHub.file(req.params.id, req.query.format);
      const name = f.fileName;
      return reply
        .type(f.contentType)
        .header('content-length', String(f.size))
        .header('content-disposition', disposition(name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .send(f.body);
    },
  );
  app.get(
    '/v2/media-hub/:id/thumbnail',
    {
      config: { access: readItem },
      schema: {
        tags,
        operationId: 'getMediaHubThumbnail',
        summary: 'The item’s thumbnail JPEG',
        params: MediaParams,
        response: { 200: { description: 'JPEG', content: { 'image/jpeg': { schema: Binary } } }, ...errorResponses() },
      },
    },
    async (req, reply) =>
      reply
        .type('image/jpeg')
        .header('cache-control', 'private, max-age=300')
        .send(await mediaHub.thumbnail(req.params.id)),
  );
});
