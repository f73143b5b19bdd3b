// What the picture checks and the activity score read from one stored frame, computed once with sharp
// (docs/analysis.md): a small grayscale picture, its brightness statistics and its amount of detail.
// Everything after the decode is plain arithmetic over a few thousand pixels.
import sharp from 'sharp';

/** The analysis picture: 128×96 grayscale, about 12 000 pixels. */
export const W = 128;
const H = 96;

export interface FrameFeatures {
  /** W×H grayscale, row by row. */
  gray: Uint8Array;
  mean: number;
  /** 5th, 50th and 95th percentile of the brightness (0–255). */
  p05: number;
  p50: number;
  p95: number;
  /** Standard deviation of the brightness: the picture's contrast. */
  std: number;
  /** Edge energy relative to contrast (mean |Laplacian| / (p95 − p05)), measured at twice the resolution; brightness-free. */
  detail: number;
}

/** Decodes a JPEG (JPEG shrink-on-load keeps this a few milliseconds) and measures it. */
export async function frameFeatures(jpeg: Buffer): Promise<FrameFeatures> {
  const { data, info } = await sharp(jpeg, { failOn: 'none' })
    .resize(W * 2, H * 2, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const big = firstChannel(data, info.channels);
  const gray = halve(big, W * 2, H * 2);
  const { mean, std, p05, p50, p95 } = statistics(gray);
  return { gray, mean, p05, p50, p95, std, detail: laplacianEnergy(big, W * 2, H * 2) / Math.max(p95 - p05, 1) };
}

function firstChannel(data: Buffer, channels: number): Uint8Array {
  if (channels === 1) return new Uint8Array(data.buffer, data.byteOffset, data.length);
  const out = new Uint8Array(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!;
  return out;
}

/** 2×2 box average. */
function halve(src: Uint8Array, w: number, h: number): Uint8Array {
  const ow = w >> 1;
  const oh = h >> 1;
  const out = new Uint8Array(ow * oh);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      const i = 2 * y * w + 2 * x;
      out[y * ow + x] = (src[i]! + src[i + 1]! + src[i + w]! + src[i + w + 1]! + 2) >> 2;
    }
  }
  return out;
}

function statistics(gray: Uint8Array): { mean: number; std: number; p05: number; p50: number; p95: number } {
  const hist = new Uint32Array(256);
  let sum = 0;
  let sq = 0;
  for (const v of gray) {
    hist[v]!++;
    sum += v;
    sq += v * v;
  }
  const n = gray.length;
  const mean = sum / n;
  const percentile = (p: number) => {
    const target = p * n;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[v]!;
      if (seen >= target) return v;
    }
    return 255;
  };
  return { mean, std: Math.sqrt(Math.max(0, sq / n - mean * mean)), p05: percentile(0.05), p50: percentile(0.5), p95: percentile(0.95) };
}

function laplacianEnergy(g: Uint8Array, w: number, h: number): number {
  let sum = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      sum += Math.abs(4 * g[i]! - g[i - 1]! - g[i + 1]! - g[i - w]! - g[i + w]!);
    }
  }
  return sum / ((w - 2) * (h - 2));
}

/**
 * The picture with its brightness and contrast taken out, so day and night compare alike: centred on the
 * median and scaled by the 5–95 % range (percentiles, so a bright timestamp overlay does not set the
 * scale), clamped to ±2 ranges.
 */
export function normalised(f: Pick<FrameFeatures, 'gray' | 'p05' | 'p50' | 'p95'>): Float32Array {
  const out = new Float32Array(f.gray.length);
  const s = Math.max(f.p95 - f.p05, 4);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(-2, Math.min(2, (f.gray[i]! - f.p50) / s));
  return out;
}

/** Share of pixels (0–1) that differ by more than `levels` grey levels: the frozen test, on raw brightness. */
export function changedShare(a: Uint8Array, b: Uint8Array, levels: number): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > levels) changed++;
  return changed / a.length;
}

/** Share of pixels (0–1) whose normalised values differ by more than `sigma` deviations: the activity score's base. */
export function movedShare(a: Float32Array, b: Float32Array, sigma: number): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > sigma) changed++;
  return changed / a.length;
}

/** Mean absolute difference of two w×h normalised pictures where `b` is shifted by (dx, dy), over their overlap. */
function shiftedDifference(a: Float32Array, b: Float32Array, w: number, h: number, dx: number, dy: number): number {
  let sum = 0;
  const x0 = Math.max(0, -dx);
  const x1 = Math.min(w, w - dx);
  const y0 = Math.max(0, -dy);
  const y1 = Math.min(h, h - dy);
  for (let y = y0; y < y1; y++) {
    const ra = y * w;
    const rb = (y + dy) * w + dx;
    for (let x = x0; x < x1; x++) sum += Math.abs(a[ra + x]! - b[rb + x]!);
  }
  const n = (x1 - x0) * (y1 - y0);
  return n <= 0 ? Number.POSITIVE_INFINITY : sum / n;
}

/** A w×h picture at half the size (2×2 average). */
function halfSize(src: Float32Array, w: number, h: number): Float32Array {
  const ow = w >> 1;
  const out = new Float32Array(ow * (h >> 1));
  for (let y = 0; y < h >> 1; y++) {
    for (let x = 0; x < ow; x++) {
      const i = 2 * y * w + 2 * x;
      out[y * ow + x] = (src[i]! + src[i + 1]! + src[i + w]! + src[i + w + 1]!) / 4;
    }
  }
  return out;
}

export interface Shift {
  dx: number;
  dy: number;
  /** The difference at the best shift, and with no shift. */
  best: number;
  still: number;
}

/**
 * The shift of `frame` against `reference` (both normalised) that matches best, searched over ±`max`
 * pixels: every shift at half the size (a quarter of the pixels), then at full size around the best.
 */
export function bestShift(reference: Float32Array, frame: Float32Array, max: number): Shift {
  const still = shiftedDifference(reference, frame, W, H, 0, 0);
  const [rh, fh] = [halfSize(reference, W, H), halfSize(frame, W, H)];
  const half = Math.ceil(max / 2);
  let coarse = { dx: 0, dy: 0, d: Number.POSITIVE_INFINITY };
  for (let dy = -half; dy <= half; dy++) {
    for (let dx = -half; dx <= half; dx++) {
      const d = shiftedDifference(rh, fh, W >> 1, H >> 1, dx, dy);
      if (d < coarse.d) coarse = { dx, dy, d };
    }
  }
  let best = { dx: 0, dy: 0, d: still };
  for (let dy = 2 * coarse.dy - 1; dy <= 2 * coarse.dy + 1; dy++) {
    for (let dx = 2 * coarse.dx - 1; dx <= 2 * coarse.dx + 1; dx++) {
      if (Math.abs(dx) > max || Math.abs(dy) > max || (dx === 0 && dy === 0)) continue;
      const d = shiftedDifference(reference, frame, W, H, dx, dy);
      if (d < best.d) best = { dx, dy, d };
    }
  }
  return { dx: best.dx, dy: best.dy, best: best.d, still };
}
