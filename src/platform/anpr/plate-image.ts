// Plate images arrive as base64 text in JSON (what camera event pushes and recorders send), or as bytes
// (a linked recorder's plate crop, over the site link). Before one is stored it must be a JPEG that
// really decodes (sharp), within the size limit: a camera that sends a PNG, a truncated frame or a huge
// full-scene picture gets a clear 4xx, never a broken object.
import sharp from 'sharp';
import { ApiError, validation } from '../../lib/errors.js';

const DATA_URI = /^data:image\/jpe?g;base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
/** Plate crops are small; a full scene picture (4000 × 3000) is the most a camera sends. */
const MAX_PIXELS = 12_000_000;

/** The JPEG bytes of a `plate_image` field, checked; throws a 400/413 ApiError otherwise. */
export async function decodePlateImage(text: string, maxBytes: number): Promise<Buffer> {
  const b64 = text.replace(DATA_URI, '').replace(/\s+/g, '');
  if (b64.length === 0 || !BASE64.test(b64) || b64.length % 4 === 1) throw validation('plate_image', 'must be a base64-encoded JPEG');
  // Checked on the text first, so an oversized image is refused before it is decoded into memory.
  if (Math.floor((b64.length * 3) / 4) - 2 > maxBytes) throw tooLarge(maxBytes);
  // Node's base64 decoder takes the URL-safe alphabet too.
  return checkPlateJpeg(Buffer.from(b64, 'base64'), maxBytes);
}

/** The bytes themselves, when they are a JPEG that decodes within the limits; throws a 400/413 ApiError otherwise. */
export async function checkPlateJpeg(bytes: Buffer, maxBytes: number): Promise<Buffer> {
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) throw validation('plate_image', 'must be a JPEG image');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw validation('plate_image', 'is not a valid JPEG image');
  }
  if (meta.format !== 'jpeg') throw validation('plate_image', 'must be a JPEG image');
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS) throw validation('plate_image', `must be at most ${MAX_PIXELS / 1e6} megapixels`);
  try {
    // A full decode (scaled down on load, so memory stays small): a JPEG whose header is fine but whose
    // data is cut or corrupt is refused here.
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_PIXELS })
      .resize({ width: 32, height: 32, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer();
  } catch {
    throw validation('plate_image', 'is not a valid JPEG image (it does not decode)');
  }
  return bytes;
}

const tooLarge = (max: number) => new ApiError('PAYLOAD_TOO_LARGE', `plate_image: the JPEG must be at most ${max} bytes (OVERLOOK_ANPR_IMAGE_MAX_BYTES)`);

export const toDataUri = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;
