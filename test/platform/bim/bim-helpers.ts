// Images and records the BIM tests upload: real PNGs (with alpha) and JPEGs made with sharp.
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Person, TestPlatform } from '../../helpers/platform.js';

export const png = (width = 64, height = 48, alpha = 0.5) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha } } })
    .png()
    .toBuffer();

export const jpeg = (width = 80, height = 60) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();

export const b64 = (bytes: Buffer) => bytes.toString('base64');

export const bimUrl = (exid: string, rest = '') => `/v2/cameras/${exid}/bim${rest}`;
export const layersUrl = (exid: string, rest = '') => `/v2/cameras/${exid}/layers${rest}`;

export async function uploadCapture(
  tp: TestPlatform,
  who: Person,
  exid: string,
  capturedAt: string | number,
  image?: Buffer,
): Promise<{ id: string; captured_at: string }> {
  const res = await tp.app.inject({
    method: 'POST',
    url: bimUrl(exid),
    headers: who.auth,
    payload: { captured_at: capturedAt, image: b64(image ?? (await png())) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function createLayer(tp: TestPlatform, who: Person, exid: string, body: Record<string, unknown> = {}): Promise<{ id: string }> {
  const res = await tp.app.inject({
    method: 'POST',
    url: layersUrl(exid),
    headers: who.auth,
    payload: { name: 'Structure', image: b64(await png()), ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const cameraParameters = {
  position: { x: 12.5, y: -3.25, z: 18 },
  rotation: { yaw: 135, pitch: -12.5, roll: 0.5 },
  fov: 62.5,
  image_width: 1920,
  image_height: 1080,
};
