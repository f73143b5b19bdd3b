// Shared by the settings tests: images made with sharp, a recorded frame made through the capture
// endpoint, and a logo made through the API.
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Person, TestPlatform } from '../../helpers/platform.js';

export const png = (width = 200, height = 80, background: sharp.Color = { r: 200, g: 30, b: 30, alpha: 0.5 }) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
export const jpeg = (width = 640, height = 360, background: sharp.Color = '#2060a0') =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();
export const b64 = (buf: Buffer) => buf.toString('base64');

/** Records one frame of the (simulated) camera through the capture endpoint. */
export async function recordFrame(tp: TestPlatform, who: Person, cameraExid: string): Promise<void> {
  const res = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${cameraExid}/snapshots`, headers: who.auth, payload: {} });
  expect(res.statusCode, res.body).toBe(201);
}

export async function makeLogo(tp: TestPlatform, who: Person, projectExid: string, name = 'Main contractor'): Promise<{ id: string; url: string }> {
  const res = await tp.app.inject({ method: 'POST', url: `/v2/projects/${projectExid}/logos`, headers: who.auth, payload: { name, image: b64(await png()) } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
