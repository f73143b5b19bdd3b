// Synthetic camera frames made with sharp: a textured site scene (blocks of many greys on a gradient),
// with a clock overlay that changes every frame like a camera's timestamp, and the faults the picture
// checks look for: black, blur, a shifted view, a fade to night, and people moving about.
import sharp from 'sharp';

const W = 640;
const H = 480;
/** The scene is drawn larger than the view, so the view can be shifted inside it. */
const MARGIN = 48;
const SW = W + 2 * MARGIN;
const SH = H + 2 * MARGIN;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The still scene, grey levels 40–220. */
function scene(seed = 7): Uint8Array {
  const px = new Uint8Array(SW * SH);
  for (let y = 0; y < SH; y++) for (let x = 0; x < SW; x++) px[y * SW + x] = 70 + Math.round((80 * (x + y)) / (SW + SH));
  const r = random(seed);
  for (let k = 0; k < 160; k++) {
    const bw = 8 + Math.floor(r() * 60);
    const bh = 8 + Math.floor(r() * 60);
    const x0 = Math.floor(r() * (SW - bw));
    const y0 = Math.floor(r() * (SH - bh));
    const v = 40 + Math.floor(r() * 180);
    for (let y = y0; y < y0 + bh; y++) for (let x = x0; x < x0 + bw; x++) px[y * SW + x] = v;
  }
  return px;
}

const SCENE = scene();

export interface FrameOptions {
  /** Frame number: drives the clock overlay. */
  n: number;
  /** Brightness factor (1 = day). */
  light?: number;
  /** Shift of the view in pixels (the camera was knocked). */
  dx?: number;
  dy?: number;
  blur?: number;
  black?: boolean;
  /** Moving people: this many dark blobs placed by `seed`. */
  people?: number;
  seed?: number;
  /** Draw the clock overlay (false: the same picture every time, as a frozen stream sends). */
  clock?: boolean;
}

/** One 640×480 JPEG. */
export async function frame(o: FrameOptions): Promise<Buffer> {
  if (o.black)
    return sharp({ create: { width: W, height: H, channels: 3, background: { r: 2, g: 2, b: 2 } } })
      .jpeg()
      .toBuffer();
  const view = new Uint8Array(W * H);
  const dx = o.dx ?? 0;
  const dy = o.dy ?? 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) view[y * W + x] = SCENE[(y + MARGIN + dy) * SW + x + MARGIN + dx]!;
  if (o.people) {
    const r = random(o.seed ?? o.n);
    for (let k = 0; k < o.people; k++) {
      const x0 = Math.floor(r() * (W - 30));
      const y0 = Math.floor(r() * (H - 60));
      for (let y = y0; y < y0 + 60; y++) for (let x = x0; x < x0 + 30; x++) view[y * W + x] = 20;
    }
  }
  const light = o.light ?? 1;
  if (light !== 1) for (let i = 0; i < view.length; i++) view[i] = Math.round(view[i]! * light);
  let img = sharp(Buffer.from(view), { raw: { width: W, height: H, channels: 1 } });
  if (o.blur) img = sharp(await img.blur(o.blur).raw().toBuffer(), { raw: { width: W, height: H, channels: 1 } });
  const composed = o.clock === false ? img : img.composite([{ input: clock(o.n), raw: { width: 120, height: 16, channels: 3 }, top: 8, left: 8 }]);
  return composed.jpeg({ quality: 80 }).toBuffer();
}

/** The camera's timestamp (raw RGB pixels): a 120×16 white box with a digit pattern that changes every frame. */
function clock(n: number): Buffer {
  const w = 120;
  const h = 16;
  const px = Buffer.alloc(w * h * 3, 255);
  for (let d = 0; d < 8; d++) {
    const digit = Math.floor(n / 10 ** (d % 4)) % 10;
    for (let y = 3; y < 13; y++) {
      for (let x = d * 14 + 2; x < d * 14 + 4 + digit; x++) px.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  }
  return px;
}
