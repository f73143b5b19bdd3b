// Media tokens: a token's signature is checked once and its claims kept until it expires, while what it
// was issued through is asked on every read (docs/security.md, Revocation; docs/architecture.md, Caches).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CacheRegistry } from '../../../src/lib/cache/index.js';
import { generateSigningKeyPem, jwtSigner, type JwtSigner } from '../../../src/lib/auth/jwt.js';
import { type MediaHolders, MediaTokens } from '../../../src/platform/live-view/media-tokens.js';

let signer: JwtSigner;
beforeAll(async () => {
  const pem = await generateSigningKeyPem();
  signer = jwtSigner(async () => [pem]);
});

function setup(live = true) {
  let now = 1_000_000;
  const caches = new CacheRegistry({ now: () => now });
  const holders: MediaHolders = {
    sessionLive: vi.fn(async () => live),
    keyLive: vi.fn(async () => live),
    seesCamera: vi.fn(async () => true),
  };
  const verifyFor = vi.spyOn(signer, 'verifyFor');
  verifyFor.mockClear();
  const tokens = new MediaTokens(signer, holders, caches);
  return { tokens, holders, verifyFor, advance: (ms: number) => (now += ms) };
}

const claims = { cameraExid: 'gate-1', subject: 'session:s1', userId: 'u1', viewerId: 'v1' };
/** What the verifier sees of a segment request. */
const request = (token: string) => ({ query: { token }, params: { camera_exid: 'gate-1' } }) as never;

describe('media token reads', () => {
  it('check the signature once and what it was issued through every time', async () => {
    const { tokens, holders, verifyFor } = setup();
    const { token } = await tokens.issue(claims, 60);
    const verify = tokens.verifier();
    expect(await verify(request(token))).toMatchObject({ kind: 'media', cameraExid: 'gate-1' });
    expect(await verify(request(token))).toMatchObject({ kind: 'media', cameraExid: 'gate-1' });
    expect(verifyFor).toHaveBeenCalledTimes(1);
    expect(holders.sessionLive).toHaveBeenCalledTimes(2);
    expect(holders.seesCamera).toHaveBeenCalledTimes(2);
  });

  it('refuse a cached token once what it was issued through has ended', async () => {
    const { tokens, holders } = setup();
    const { token } = await tokens.issue(claims, 60);
    const verify = tokens.verifier();
    expect(await verify(request(token))).not.toBeNull();
    vi.mocked(holders.sessionLive).mockResolvedValue(false);
    expect(await verify(request(token))).toBeNull();
  });

  it('check the signature again once the token has expired', async () => {
    const { tokens, verifyFor, advance } = setup();
    const { token } = await tokens.issue(claims, 5);
    expect(await tokens.read(token)).toEqual(claims);
    advance(5_001);
    await tokens.read(token);
    expect(verifyFor).toHaveBeenCalledTimes(2);
  });

  it('never keep a token that fails the check', async () => {
    const { tokens, verifyFor } = setup();
    const { token } = await tokens.issue(claims, 60);
    const tampered = `${token.slice(0, -4)}AAAA`;
    expect(await tokens.read(tampered)).toBeNull();
    expect(await tokens.read(tampered)).toBeNull();
    expect(verifyFor).toHaveBeenCalledTimes(2);
  });
});
