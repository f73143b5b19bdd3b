// BIM images (model renders and overlay layers) arrive as base64 text in JSON. Before one is stored it
// must be an image of an allowed type that sharp really decodes, within the byte and pixel limits
// (OVERLOOK_BIM_IMAGE_*): a PDF, a truncated PNG or a gigapixel render gets a clear 4xx, never a
// broken object. The stored bytes are the uploaded ones, unchanged, served back with their type.
import sharp from 'sharp';
import type { BimConfig, BimImageFormat } from '../../lib/config/bim-config.js';
import { ApiError, validation } from '../../lib/errors.js';

const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const CONTENT_TYPES: Record<BimImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
const EXTENSIONS: Record<BimImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

export interface CheckedImage {
  bytes: Buffer;
  format: BimImageFormat;
  contentType: string;
  extension: string;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** The image of a base64 `field`, checked; throws a 400/413 ApiError otherwise. */
export async function checkBimImage(text: string, field: string, limits: BimConfig): Promise<CheckedImage> {
  const types = limits.imageFormats.join(', ');
  const b64 = text.replace(DATA_URI, '').replace(/\s+/g, '');
  if (b64.length === 0 || !BASE64.test(b64) || b64.length % 4 === 1) throw validation(field, `must be a base64-encoded image (${types})`);
  // Checked on the text first, so an oversized image is refused before it is decoded into memory.
  if (Math.floor((b64.length * 3) / 4) - 2 > limits.imageMaxBytes) throw tooLarge(field, limits.imageMaxBytes);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > limits.imageMaxBytes) throw tooLarge(field, limits.imageMaxBytes);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw validation(field, `is not an image (accepted: ${types})`);
  }
  const format = meta.format as string;
  if (!(limits.imageFormats as string[]).includes(format))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `${field}: ${format} images are not accepted (accepted: ${types}; OVERLOOK_BIM_IMAGE_TYPES)`);
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) throw validation(field, 'has no size');
  if (width * height > limits.imageMaxPixels) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `${field}: ${width}×${height} is more than ${limits.imageMaxPixels} pixels (OVERLOOK_BIM_IMAGE_MAX_PIXELS)`);
  }
  try {
    // A full decode, scaled down on load so memory stays small: an image whose header is fine but whose
    // data is cut or corrupt is refused here.
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: limits.imageMaxPixels })
      .resize({ width: 64, height: 64, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer();
  } catch {
    throw validation(field, `is not a valid ${format} image (it does not decode)`);
  }
  const f = format as BimImageFormat;
  return { bytes, format: f, contentType: CONTENT_TYPES[f], extension: EXTENSIONS[f], width, height, hasAlpha: !!meta.hasAlpha };
}

const tooLarge = (field: string, max: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `${field}: the image must be at most ${max} bytes (OVERLOOK_BIM_IMAGE_MAX_BYTES)`);

/**
 * The request body limit of the upload routes: the largest image as base64 (4/3 of its bytes) plus room
 * for the other fields, and never below the platform's own limit.
 */
export const uploadBodyLimit = (limits: BimConfig, platformLimit: number) => Math.max(platformLimit, Math.ceil((limits.imageMaxBytes * 4) / 3) + 64 * 1024);
