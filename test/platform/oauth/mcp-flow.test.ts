// End to end, on real loopback ports: an MCP client (the SDK's Client over Streamable HTTP) meets a
// 401, discovers the authorization server through the MCP server's protected-resource metadata,
// registers itself, sends the person through sign-in and consent with PKCE, gets its token and calls
// tools, which act on the main API as that person. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startOauthServers, type OauthServers } from '../../helpers/oauth-servers.js';
import { connectWithOAuth } from '../../helpers/mcp-client.js';

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers();
});
afterAll(() => s.close());

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe('MCP client with OAuth', () => {
  it('completes registration, authorization with PKCE, sign-in, consent and token, then calls tools as the person', async () => {
    const person = await s.tp.person('assistant-user');
    const project = await s.tp.project(person, 'Riverside Tower');
    const camera = await s.tp.camera(person, project.exid, 'Crane cam');
    const stranger = await s.tp.person('stranger');
    const hidden = await s.tp.project(stranger, 'Someone else’s site');

    const session = await connectWithOAuth(s.mcpUrl, person);
    try {
      expect(session.consentPage).toContain('Site Assistant (MCP test)');
      expect(session.consentPage).toContain('<code>mcp</code>');
      expect(session.provider.client?.client_id).toBeTruthy();
      expect(session.provider.saved?.refresh_token).toBeTruthy();

      const tools = (await session.client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual([
        'add_comment',
        'camera_health',
        'go_to_ptz_preset',
        'latest_snapshot',
        'list_cameras',
        'list_comments',
        'list_projects',
        'nearest_snapshot',
        'ptz_presets',
        'recording_days',
        'recording_hours',
        'weather',
      ]);

      const projects = JSON.parse(text(await session.client.callTool({ name: 'list_projects', arguments: {} })));
      expect(projects.map((p: { exid: string }) => p.exid)).toEqual([project.exid]);
      expect(JSON.stringify(projects)).not.toContain(hidden.exid);

      const cameras = JSON.parse(text(await session.client.callTool({ name: 'list_cameras', arguments: { project_exid: project.exid } })));
      expect(JSON.stringify(cameras)).toContain(camera.exid);

      const health = await session.client.callTool({ name: 'camera_health', arguments: { camera_exid: camera.exid } });
      expect(health.isError).toBeFalsy();
      expect(JSON.parse(text(health))).toBeTypeOf('object');

      // The HTTP API's rules apply: another person's project is not found for this person.
      const denied = await session.client.callTool({ name: 'list_cameras', arguments: { project_exid: hidden.exid } });
      expect(denied.isError).toBe(true);
      expect(text(denied)).toMatch(/^404 /);
    } finally {
      await session.close();
    }
  });
});
