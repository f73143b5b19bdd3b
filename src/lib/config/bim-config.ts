// Limits on the images BIM uploads carry (model renders and overlay layers): which formats are
// accepted, how many bytes and pixels one may have. Renders are large, so these are far above the
// ANPR plate limits, and the BIM upload routes raise the request body limit to fit them.
import type { PlatformEnvValues } from './env-schema.js';

const BIM_IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type BimImageFormat = (typeof BIM_IMAGE_FORMATS)[number];

export interface BimConfig {
  /** Largest image accepted, in bytes of the decoded file (not of its base64 text). */
  imageMaxBytes: number;
  /** Largest image accepted, in pixels (width × height). */
  imageMaxPixels: number;
  /** Formats accepted (a subset of jpeg, png, webp), as sharp names them. */
  imageFormats: BimImageFormat[];
}

export function bimConfig(env: PlatformEnvValues): BimConfig {
  const raw = (env.OVERLOOK_BIM_IMAGE_TYPES ?? '').trim();
  const formats = raw === '' ? [...BIM_IMAGE_FORMATS] : raw.split(',').map((f) => f.trim().toLowerCase().replace(/^jpg$/, 'jpeg'));
  for (const f of formats) {
    if (!(BIM_IMAGE_FORMATS as readonly string[]).includes(f))
      throw new Error(`OVERLOOK_BIM_IMAGE_TYPES: unknown type ${f} (use ${BIM_IMAGE_FORMATS.join(', ')})`);
  }
  return {
    imageMaxBytes: env.OVERLOOK_BIM_IMAGE_MAX_BYTES,
    imageMaxPixels: env.OVERLOOK_BIM_IMAGE_MAX_PIXELS,
    imageFormats: [...new Set(formats)] as BimImageFormat[],
  };
}
