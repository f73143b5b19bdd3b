// Shared by the connector tests: a real recorded JPEG for a camera, and the whole OAuth connect flow
// (connect → the fake's authorize → the shared callback) as a person.
import sharp from 'sharp';
import { expect } from 'vitest';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import type { FakeOAuthProvider } from '../../fakes/fake-oauth-provider.js';
import type { Person, TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

const jpegOf = (r: number, g: number, b: number) =>
  sharp({ create: { width: 320, height: 180, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

/** Stores a frame for real: bytes in the object store, the row in the snapshot index. */
export async function storeSnapshot(tp: TestPlatform, cameraExid: string, takenAt: string, colour: [number, number, number] = [200, 40, 40]): Promise<Buffer> {
  const { id } = await servicesOf(tp.app).cameras.row(cameraExid);
  const at = new Date(takenAt);
  const key = snapshotKey(id, at);
  const jpeg = await jpegOf(...colour);
  await servicesOf(tp.app).storage.put(key, jpeg, 'image/jpeg');
  await servicesOf(tp.app).snapshotIndex.add({ cameraId: id, takenAt: at, objectKey: key, size: jpeg.length, source: 'schedule', note: null });
  return jpeg;
}

/** connect → authorize at the fake → callback; returns the callback's answer. */
export async function connectOAuth(tp: TestPlatform, who: Person | { 'x-access-key': string }, providerId: string, fake: FakeOAuthProvider, withJwt = false) {
  const headers = 'auth' in who ? who.auth : who;
  const start = await tp.app.inject({ method: 'POST', url: `/v2/connectors/${providerId}/connect`, headers, payload: {} });
  expect(start.statusCode, start.body).toBe(200);
  const back = await fake.authorize(start.json().authorization_url);
  expect(back.pathname).toBe(`/v2/connectors/${providerId}/callback`);
  const res = await tp.app.inject({ method: 'GET', url: back.pathname + back.search, headers: withJwt && 'auth' in who ? who.auth : {} });
  return res;
}

/** Stores a connection directly (for access checks of action endpoints): tokens the fake knows. */
export async function connectDirectly(tp: TestPlatform, userId: string, providerId: string, fake: FakeOAuthProvider): Promise<void> {
  const t = fake.issue();
  await servicesOf(tp.app).connectors.store.saveConnection(userId, providerId, {
    authKind: 'oauth',
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: new Date(Date.now() + t.expires_in * 1000).toISOString(),
  });
}
