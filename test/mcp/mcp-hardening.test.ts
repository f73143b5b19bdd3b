// The MCP server against a web page and against crafted tool arguments: a browser Origin other than
// the server's own is refused (DNS rebinding, cross-site requests), so is a Host it is not known by
// while bound to loopback; requests without Origin (assistants, command-line clients) go through. A
// tool argument can never move the main-API path (`..`, slashes, encoded slashes, control characters).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { seg, ToolArgumentError } from '../../src/mcp/main-api.js';
import { startOauthServers, type OauthServers } from '../helpers/oauth-servers.js';
import { connectWithBearer } from '../helpers/mcp-client.js';

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers();
});
afterAll(() => s.close());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw POST to /mcp (node:http, so Host can be set as a rebinding page's browser would send it). */
function post(headers: Record<string, string>): Promise<{ status: number; body: string; requestId?: string }> {
  const u = new URL(s.mcpUrl);
  const body = JSON.stringify(INIT);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, requestId: res.headers['x-request-id'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding and cross-site requests', () => {
  it('refuses a foreign Origin and an unknown Host with 403, takes no Origin and its own', async () => {
    const person = await s.tp.person('rebinding');
    const auth = { authorization: `Bearer ${person.token}` };
    const own = new URL(s.mcpUrl);

    const first = await post(auth);
    expect(first.status).toBe(200);
    // The MCP transport answers on the raw response (a hijacked reply): the request id is there too.
    expect(first.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post({ ...auth, origin: own.origin })).status).toBe(200);
    expect((await post({ ...auth, host: `localhost:${own.port}` })).status).toBe(200);

    for (const origin of ['http://evil.example', `http://evil.example:${own.port}`, 'null', `http://localhost:${Number(own.port) + 1}`]) {
      const res = await post({ ...auth, origin });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).code, origin).toBe('ORIGIN_NOT_ALLOWED');
    }
    // A rebinding page's requests name its own host, resolved to 127.0.0.1.
    for (const host of [`evil.example:${own.port}`, 'evil.example', '127.0.0.1.evil.example']) {
      const res = await post({ ...auth, host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body).code, host).toBe('HOST_NOT_ALLOWED');
    }
    // Refused before the credential is looked at.
    expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
  });
});

describe('configured origins', () => {
  it('OVERLOOK_MCP_ALLOWED_ORIGINS admits more browser origins', async () => {
    const { mcpConfig } = await import('../../src/lib/config.js');
    const cfg = mcpConfig({}, { OVERLOOK_MCP_ALLOWED_ORIGINS: 'http://localhost:6274, https://inspector.example' });
    expect(cfg.allowedOrigins).toEqual(['http://localhost:6274', 'https://inspector.example']);
    const { buildMcpApp } = await import('../../src/mcp/app.js');
    const app = await buildMcpApp({ apiUrl: s.apiUrl, resourceUrl: 'http://127.0.0.1:1/mcp', allowedOrigins: cfg.allowedOrigins, logger: false });
    try {
      const at = (origin: string) => app.inject({ method: 'POST', url: '/mcp', headers: { origin, host: '127.0.0.1:1' }, payload: {} });
      // Past the Origin check, the credential is missing: 401.
      expect((await at('http://localhost:6274')).statusCode).toBe(401);
      expect((await at('https://inspector.example')).statusCode).toBe(401);
      expect((await at('https://other.example')).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('tool arguments as path segments', () => {
  it('refuses dot segments, slashes, encoded slashes and control characters; encodes the rest', () => {
    for (const bad of ['', '.', '..', 'a/b', '../x', 'a\\b', 'a%2Fb', '%2e%2e', 'a%5cb', 'a\u0000b', 'a\nb', 'a\u007fb']) {
      expect(() => seg(bad), JSON.stringify(bad)).toThrow(ToolArgumentError);
    }
    expect(seg('gate-abcde')).toBe('gate-abcde');
    expect(seg('a b?c#d')).toBe('a%20b%3Fc%23d');
    expect(seg('...')).toBe('...');
    expect(seg(2026)).toBe('2026');
  });

  it('answers a tool call with such an argument as a tool error, calling nothing', async () => {
    const person = await s.tp.person('traversal');
    const client = await connectWithBearer(s.mcpUrl, person.token);
    try {
      for (const [name, args] of [
        ['camera_health', { camera_exid: '..' }],
        ['list_cameras', { project_exid: '..' }],
        ['ptz_presets', { camera_exid: 'x%2f..' }],
        ['go_to_ptz_preset', { camera_exid: 'gate-abcde', preset_token: '..' }],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(r.isError, name).toBe(true);
        expect((r.content[0] as { text: string }).text, name).toMatch(/^INVALID_ARGUMENT: /);
      }
    } finally {
      await client.close();
    }
  });
});
