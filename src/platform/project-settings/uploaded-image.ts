// Logos and project thumbnails arrive as base64 text (or a data URI) in JSON, like plate images. Before
// one is stored it must be a JPEG, PNG or WebP that really decodes (sharp), within the size limit; it is
// then re-encoded (logos to PNG, keeping transparency; thumbnails to JPEG), so what the platform serves
// back is always an image it made itself, never the caller's bytes.
import sharp from 'sharp';
import { ApiError, validation } from '../../lib/errors.js';

const DATA_URI = /^data:image\/[a-z+.-]+;base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const FORMATS = new Set(['jpeg', 'png', 'webp']);
/** The largest picture accepted (decoding is bounded by this too). */
const MAX_PIXELS = 40_000_000;

export interface StoredImage {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/** The raw bytes of a base64 `field`, checked to be a decodable JPEG/PNG/WebP of at most `maxBytes`. */
export async function decodeUpload(field: string, text: string, maxBytes: number): Promise<Buffer> {
  const b64 = text.replace(DATA_URI, '').replace(/\s+/g, '');
  if (b64.length === 0 || !BASE64.test(b64) || b64.length % 4 === 1) throw validation(field, 'must be a base64-encoded JPEG, PNG or WebP image');
  // Checked on the text first, so an oversized image is refused before it is decoded into memory.
  if (Math.floor((b64.length * 3) / 4) - 2 > maxBytes) throw tooLarge(field, maxBytes);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > maxBytes) throw tooLarge(field, maxBytes);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw validation(field, 'is not an image (JPEG, PNG or WebP expected)');
  }
  if (!meta.format || !FORMATS.has(meta.format)) throw validation(field, `must be a JPEG, PNG or WebP image, not ${meta.format ?? 'unknown'}`);
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS) throw validation(field, `must be at most ${MAX_PIXELS / 1e6} megapixels`);
  return bytes;
}

/** A logo as stored: PNG, at most `maxSide` pixels on its longer side, transparency kept. */
export async function toLogo(field: string, bytes: Buffer, maxSide = 1024): Promise<StoredImage> {
  return encode(
    field,
    () =>
      sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_PIXELS })
        .rotate()
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
        .png(),
    'image/png',
  );
}

/** A project thumbnail as stored: JPEG, at most `maxWidth` pixels wide. */
export async function toThumbnail(field: string, bytes: Buffer, maxWidth = 1280): Promise<StoredImage> {
  return encode(
    field,
    () =>
      sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_PIXELS })
        .rotate()
        .resize({ width: maxWidth, withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82 }),
    'image/jpeg',
  );
}

async function encode(field: string, pipeline: () => sharp.Sharp, contentType: string): Promise<StoredImage> {
  try {
    const { data, info } = await pipeline().toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType, width: info.width, height: info.height };
  } catch {
    // A header that parses but data that is cut or corrupt.
    throw validation(field, 'is not a valid image (it does not decode)');
  }
}

const tooLarge = (field: string, max: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `${field}: the image must be at most ${max} bytes (OVERLOOK_SETTINGS_IMAGE_MAX_BYTES)`);

/** The request body limit a route taking one such image in base64 needs. */
export const uploadBodyLimit = (maxBytes: number) => Math.ceil(maxBytes / 3) * 4 + 64 * 1024;
