// The project:settings scope reaches exactly 32 operations (docs/access-model.md), all under
// /v2/projects/{exid}… or /v2/cameras/{camera_exid}…, as GET /v2/openapi.json publishes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(async () => tp.close());

describe('project:settings scope', () => {
  it('is on exactly 32 operations under its prefixes, each with a declared role', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, { 'x-scopes'?: string[]; operationId?: string }>> };
    const ops: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) if (op['x-scopes']?.includes('project:settings')) ops.push(`${method.toUpperCase()} ${path}`);
    }
    expect(ops.length, ops.sort().join('\n')).toBe(32);
    for (const op of ops) expect(op).toMatch(/^[A-Z]+ \/v2\/(projects\/\{exid\}|cameras\/\{camera_exid\})/);
  });
});
