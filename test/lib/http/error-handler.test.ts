// Every 503 tells the client when to try again, whichever service and whichever cause; a 503 that
// names its own wait keeps it.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/errors.js';
import { installErrorHandling } from '../../../src/lib/http/error-handler.js';

describe('the error handler', () => {
  it('adds Retry-After to a 503 that has none, and keeps one that has', async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    app.get('/busy', async () => {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The live stream is restarting; try again');
    });
    app.get('/later', async () => {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Full', { headers: { 'retry-after': '30' } });
    });
    const busy = await app.inject('/busy');
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(busy.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await app.inject('/later')).headers['retry-after']).toBe('30');
    await app.close();
  });
});
