// Shared by the ANPR tests: plate JPEGs made with sharp, ingestion tokens made through the API, and pushes.
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Person, TestPlatform } from '../../helpers/platform.js';

export const jpeg = (width = 120, height = 40, background = '#f5d90a') =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** Creates an ingestion token for the camera as `admin` (a project admin or owner) and returns its value and id. */
export async function ingestionToken(tp: TestPlatform, admin: Person, cameraExid: string, name = 'Gate ANPR'): Promise<{ id: string; token: string }> {
  const res = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${cameraExid}/anpr/ingestion-tokens`, headers: admin.auth, payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id, token: res.json().token };
}

export const push = (tp: TestPlatform, cameraExid: string, token: string, payload: object) =>
  tp.app.inject({ method: 'POST', url: `/v2/cameras/${cameraExid}/anpr/events`, headers: { authorization: `Bearer ${token}` }, payload });

/** Pushes an event that must be accepted; returns its record. */
export async function ingest(tp: TestPlatform, cameraExid: string, token: string, payload: object) {
  const res = await push(tp, cameraExid, token, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
