// ApiError: a 4xx carries no stack trace (it is an answer, not a fault), a 5xx keeps its trace, and the
// process's own stack trace limit is left as it was.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/errors.js';

const frames = (err: Error) => (err.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('ApiError', () => {
  it('captures no stack trace for a 4xx answer', () => {
    const err = new ApiError('INSUFFICIENT_SCOPE', 'This API key may not read cameras');
    expect(err.status).toBe(403);
    expect(frames(err)).toBe(0);
    expect(err.stack).toBe('ApiError: This API key may not read cameras');
  });

  it('keeps the stack trace of a server error', () => {
    expect(frames(new ApiError('SERVICE_UNAVAILABLE', 'try again shortly'))).toBeGreaterThan(0);
  });

  it('leaves Error.stackTraceLimit as it found it', () => {
    const before = Error.stackTraceLimit;
    new ApiError('UNAUTHORIZED', 'no');
    new ApiError('INTERNAL_ERROR', 'boom');
    expect(Error.stackTraceLimit).toBe(before);
    expect(frames(new Error('plain'))).toBeGreaterThan(0);
  });
});
