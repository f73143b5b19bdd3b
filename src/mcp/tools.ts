// The MCP tools: what a person would ask an assistant about their sites. Each one is a call to the main
// API as that person (see main-api.ts); its answer is JSON text, or an image for recorded snapshots.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type MainApi, MainApiError, seg, ToolArgumentError } from './main-api.js';

const cameraExid = z.string().min(1).max(64).describe('The camera’s exid, as list_cameras shows it');
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });

async function run(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof MainApiError) return { isError: true, content: [{ type: 'text', text: `${err.status} ${err.code}: ${err.message}` }] };
    if (err instanceof ToolArgumentError) return { isError: true, content: [{ type: 'text', text: `INVALID_ARGUMENT: ${err.message}` }] };
    throw err;
  }
}

/** A recorded frame (`{created_at, data: "data:image/jpeg;base64,…"}`) as image content plus its time. */
function frame(body: { created_at?: string; data?: string }): CallToolResult {
  const m = /^data:(image\/[a-z+.-]+);base64,(.*)$/s.exec(body.data ?? '');
  if (!m) return { isError: true, content: [{ type: 'text', text: 'The main API returned no image' }] };
  return {
    content: [
      { type: 'image', data: m[2]!, mimeType: m[1]! },
      { type: 'text', text: `Recorded at ${body.created_at ?? 'an unknown time'}` },
    ],
  };
}

export function registerTools(server: McpServer, api: MainApi): void {
  server.registerTool(
    'list_projects',
    { title: 'List projects', description: 'The construction projects you are a member of.', inputSchema: {}, annotations: readOnly },
    () => run(async () => json(await api.call('GET', '/v2/projects'))),
  );

  server.registerTool(
    'list_cameras',
    {
      title: 'List cameras',
      description: 'The cameras you can see, optionally only those of one project.',
      inputSchema: { project_exid: z.string().min(1).max(64).optional().describe('Only this project’s cameras') },
      annotations: readOnly,
    },
    ({ project_exid }) => run(async () => json(await api.call('GET', project_exid ? `/v2/projects/${seg(project_exid)}/cameras` : '/v2/cameras'))),
  );

  server.registerTool(
    'camera_health',
    {
      title: 'Camera health',
      description: 'Whether a camera is online and recording, and when it was last seen.',
      inputSchema: { camera_exid: cameraExid },
      annotations: readOnly,
    },
    ({ camera_exid }) => run(async () => json(await api.call('GET', `/v2/cameras/${seg(camera_exid)}/health`))),
  );

  server.registerTool(
    'latest_snapshot',
    {
      title: 'Latest recorded snapshot',
      description: 'The most recent recorded picture of a camera, as an image.',
      inputSchema: { camera_exid: cameraExid },
      annotations: readOnly,
    },
    ({ camera_exid }) => run(async () => frame(await api.call('GET', `/v2/cameras/${seg(camera_exid)}/recordings/snapshots/latest`))),
  );

  server.registerTool(
    'nearest_snapshot',
    {
      title: 'Recorded snapshot nearest a time',
      description: 'The recorded picture of a camera closest to a moment, as an image.',
      inputSchema: { camera_exid: cameraExid, timestamp: z.string().min(1).max(64).describe('ISO 8601 time, e.g. 2026-11-20T09:30:00Z') },
      annotations: readOnly,
    },
    ({ camera_exid, timestamp }) =>
      run(async () => frame(await api.call('GET', `/v2/cameras/${seg(camera_exid)}/recordings/snapshots/${seg(timestamp)}/nearest`))),
  );

  server.registerTool(
    'recording_days',
    {
      title: 'Days with recordings',
      description: 'The days of a month on which a camera recorded pictures (in the camera’s time zone).',
      inputSchema: { camera_exid: cameraExid, year: z.number().int().min(1970).max(9999), month: z.number().int().min(1).max(12) },
      annotations: readOnly,
    },
    ({ camera_exid, year, month }) =>
      run(async () => json(await api.call('GET', `/v2/cameras/${seg(camera_exid)}/recordings/snapshots/${year}/${String(month).padStart(2, '0')}/days`))),
  );

  server.registerTool(
    'recording_hours',
    {
      title: 'Hours with recordings',
      description: 'The hours (0–23) of a day in which a camera recorded pictures (in the camera’s time zone).',
      inputSchema: {
        camera_exid: cameraExid,
        year: z.number().int().min(1970).max(9999),
        month: z.number().int().min(1).max(12),
        day: z.number().int().min(1).max(31),
      },
      annotations: readOnly,
    },
    ({ camera_exid, year, month, day }) =>
      run(async () =>
        json(
          await api.call(
            'GET',
            `/v2/cameras/${seg(camera_exid)}/recordings/snapshots/${year}/${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/hours`,
          ),
        ),
      ),
  );

  server.registerTool(
    'ptz_presets',
    {
      title: 'PTZ presets',
      description: 'The saved pan/tilt/zoom positions of a PTZ camera.',
      inputSchema: { camera_exid: cameraExid },
      annotations: readOnly,
    },
    ({ camera_exid }) => run(async () => json(await api.call('GET', `/v2/cameras/${seg(camera_exid)}/ptz/presets`))),
  );

  server.registerTool(
    'go_to_ptz_preset',
    {
      title: 'Move a camera to a preset',
      description: 'Turns a PTZ camera to one of its saved presets (needs the editor role on its project).',
      inputSchema: { camera_exid: cameraExid, preset_token: z.string().min(1).max(64).describe('The preset’s token, as ptz_presets shows it') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ camera_exid, preset_token }) => run(async () => json(await api.call('POST', `/v2/cameras/${seg(camera_exid)}/ptz/presets/go/${seg(preset_token)}`))),
  );

  const projectExid = z.string().min(1).max(64).describe('The project’s exid, as list_projects shows it');
  const isoDate = z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('A local date, YYYY-MM-DD');

  server.registerTool(
    'weather',
    {
      title: 'Weather at a site',
      description: 'Current conditions at a project’s site, or the hourly weather of a past day when `date` is given.',
      inputSchema: { project_exid: projectExid, date: isoDate.optional() },
      annotations: readOnly,
    },
    ({ project_exid, date }) =>
      run(async () =>
        json(await api.call('GET', date ? `/v2/projects/${seg(project_exid)}/weather?date=${date}` : `/v2/projects/${seg(project_exid)}/weather/current`)),
      ),
  );

  server.registerTool(
    'list_comments',
    {
      title: 'Comments on a project’s cameras',
      description: 'The comments people left on a project’s cameras, newest first, optionally for one camera.',
      inputSchema: { project_exid: projectExid, camera_exid: cameraExid.optional() },
      annotations: readOnly,
    },
    ({ project_exid, camera_exid }) =>
      run(async () => json(await api.call('GET', `/v2/projects/${seg(project_exid)}/comments${camera_exid ? `?camera_exid=${seg(camera_exid)}` : ''}`))),
  );

  server.registerTool(
    'add_comment',
    {
      title: 'Comment on a camera',
      description: 'Leaves a comment on a camera at a moment of its recording (needs the editor role); `@email` mentions notify members.',
      inputSchema: {
        project_exid: projectExid,
        camera_exid: cameraExid,
        content: z.string().min(1).max(2000),
        timestamp: z.string().min(1).max(40).describe('When, in ISO 8601'),
        x: z.number().min(0).max(1).default(0.5).describe('Horizontal position on the picture, 0..1'),
        y: z.number().min(0).max(1).default(0.5).describe('Vertical position on the picture, 0..1'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ project_exid, camera_exid, content, timestamp, x, y }) =>
      run(async () => json(await api.call('POST', `/v2/projects/${seg(project_exid)}/comments`, { camera_exid, content, timestamp, position2d: { x, y } }))),
  );
}
