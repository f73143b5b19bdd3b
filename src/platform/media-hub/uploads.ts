// Checks what callers upload: base64 bodies (a data: URI prefix is accepted) within the size limit,
// and the file's real type read from its first bytes, which must agree with the declared one.
import sharp from 'sharp';
import { ApiError, validation } from '../../lib/errors.js';

export const FILE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'application/pdf'] as const;
export type FileType = (typeof FILE_TYPES)[number];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(field: string, raw: string, maxBytes: number): Buffer {
  const body = raw.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/, '').replace(/\s+/g, '');
  if (body.length === 0 || body.length % 4 !== 0 || !BASE64.test(body)) throw validation(field, 'must be base64 (a data: URI is accepted)');
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', `${field}: larger than ${maxBytes} bytes`);
  return bytes;
}

/** The type the bytes really are, or null when none of the accepted ones. */
function sniff(b: Buffer): FileType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  if (b.length >= 5 && b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

/** An uploaded file: real type among the accepted ones, matching `declared` when given. */
export function checkedFile(raw: string, declared: string | undefined, maxBytes: number): { bytes: Buffer; type: FileType } {
  const bytes = decodeBase64('file', raw, maxBytes);
  const type = sniff(bytes);
  if (!type) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `file: not one of the accepted types (${FILE_TYPES.join(', ')})`);
  if (declared && declared.toLowerCase() !== type) throw validation('content_type', `the file is ${type}, not ${declared}`);
  return { bytes, type };
}

/** A logo image (PNG, JPEG, WebP or GIF), decoded and re-encoded as a PNG of at most 1024 px. */
export async function checkedLogo(raw: string, maxBytes: number): Promise<Buffer> {
  const bytes = decodeBase64('logo', raw, maxBytes);
  const type = sniff(bytes);
  if (!type?.startsWith('image/')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'logo: must be a PNG, JPEG, WebP or GIF image');
  try {
    return await sharp(bytes, { limitInputPixels: 40_000_000 }).resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch {
    throw validation('logo', 'is not a readable image');
  }
}

/** A small JPEG preview of an uploaded image, or null for other files (or images sharp cannot read). */
export async function imageThumbnail(bytes: Buffer, type: FileType): Promise<Buffer | null> {
  if (!type.startsWith('image/')) return null;
  return sharp(bytes, { limitInputPixels: 40_000_000 })
    .resize({ width: 320, withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer()
    .catch(() => null);
}
