// `overlook mcp` and `overlook up` as outside programs run them: real processes, real HTTP, loopback only.
import { describe, expect, it } from 'vitest';
import { serve, tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/oauth-servers.js';
import { buildTestPlatform } from '../helpers/platform.js';

/** Starts `overlook …` (no recording loop) and waits until its output matches `ready`. */
const start = (args: string[], env: Record<string, string>, ready: RegExp) => serve(args, { ready, env: { OVERLOOK_RECORDING_LOOP: '0', ...env } });

describe('overlook mcp', () => {
  it('listens where told (port 0 too), names its real address as resource, and serves a signed-in person', async () => {
    const tp = await buildTestPlatform();
    const apiPort = await freePort();
    await tp.app.listen({ host: '127.0.0.1', port: apiPort });
    const person = await tp.person('cli');
    const mcp = await start(
      ['mcp', '--port', '0', '--data-dir', tempDir(), '--api-url', `http://127.0.0.1:${apiPort}`],
      {},
      /MCP server listening on (http:\/\/\S+) \(resource (\S+),/,
    );
    try {
      const [, url, resource] = mcp.match;
      expect(resource).toBe(`${url}/mcp`);
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
      const prm = await (await fetch(`${url}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(prm).toMatchObject({ resource, authorization_servers: [`http://127.0.0.1:${apiPort}`] });
      const res = await fetch(resource!, {
        method: 'POST',
        headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).result.content[0].text).toBe('[]');
    } finally {
      expect(await mcp.stop()).toBe(0);
      await tp.close();
    }
  });
});

describe('overlook up', () => {
  it('starts the main API, MCP, AI and Labs with demo data and prints where each is', async () => {
    const [api, mcp, ai, labs] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const up = await start(
      ['up', '--port', String(api), '--data-dir', tempDir()],
      { OVERLOOK_MCP_PORT: String(mcp), OVERLOOK_AI_PORT: String(ai), OVERLOOK_LABS_PORT: String(labs) },
      /Labs API\s+(http:\/\/\S+)/,
    );
    try {
      const out = up.output();
      expect(out).toContain('demo data created');
      expect(out).toMatch(new RegExp(`main API\\s+http://127\\.0\\.0\\.1:${api}`));
      expect(out).toContain(`MCP       http://127.0.0.1:${mcp}/mcp`);
      for (const port of [api, mcp, ai, labs]) expect(await (await fetch(`http://127.0.0.1:${port}/health`)).json()).toEqual({ status: 'ok' });
      // The MCP server's resource is the one the authorization server issues tokens for.
      const prm = await (await fetch(`http://127.0.0.1:${mcp}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(prm.authorization_servers).toEqual([`http://127.0.0.1:${api}`]);
      const [, email, password] = /sign in as (\S+) \/ (\S+)/.exec(out)!;
      const login = await fetch(`http://127.0.0.1:${api}/v2/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      });
      const { token } = await login.json();
      const me = await fetch(`http://127.0.0.1:${labs}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect((await me.json()).email).toBe(email);
      const tools = await fetch(`http://127.0.0.1:${mcp}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } }),
      });
      expect(JSON.parse((await tools.json()).result.content[0].text).length).toBeGreaterThan(0);
    } finally {
      expect(await up.stop()).toBe(0);
    }
  });
});
