// The image an event takes over the link (a number-plate read's crop): as it is when it fits
// MAX_EVENT_IMAGE_BYTES, otherwise scaled down (a camera may push a whole scene as its "plate image");
// left out, with a log line, when even that does not fit or it is not a picture sharp can read.
import sharp from 'sharp';
import { MAX_EVENT_IMAGE_BYTES } from '../../lib/site-link/protocol.js';

/** The longest side of a scaled-down event image: a plate stays readable at this size. */
const SCALED_SIDE = 1280;

export async function linkImage(jpeg: Buffer, log: { warn(obj: object, msg: string): void }): Promise<Buffer | null> {
  if (jpeg.length <= MAX_EVENT_IMAGE_BYTES) return jpeg;
  try {
    const scaled = await sharp(jpeg, { limitInputPixels: 40_000_000 })
      .resize({ width: SCALED_SIDE, height: SCALED_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer();
    if (scaled.length <= MAX_EVENT_IMAGE_BYTES) return scaled;
    log.warn({ bytes: scaled.length }, 'platform link: an event image is too large even scaled down; sent without it');
  } catch (err) {
    log.warn({ err }, 'platform link: an event image could not be read; sent without it');
  }
  return null;
}
