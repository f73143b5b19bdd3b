// Test videos of vehicles passing a gate camera: a vehicle shape crosses the picture with its plate
// drawn in a plate font, in three layouts, one vehicle every few seconds; a level adds blur, noise, a
// tilt and low light. Made with ffmpeg once per run and cached by their parameters.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Level {
  name: string;
  blur: number;
  noise: number;
  /** Degrees. */
  angle: number;
  /** Brightness change, -1 to 0. */
  dark: number;
}

export const LEVELS: Level[] = [
  { name: 'clean', blur: 0, noise: 0, angle: 0, dark: 0 },
  { name: 'mild', blur: 0.7, noise: 8, angle: 3, dark: -0.15 },
  { name: 'moderate', blur: 1.2, noise: 16, angle: 6, dark: -0.3 },
  { name: 'heavy', blur: 2, noise: 28, angle: 10, dark: -0.45 },
];

/** Plate format of the three layouts, for the reader's `pattern` setting. */
export const LAYOUTS_PATTERN = '^([A-Z]{2}[0-9]{2}[A-Z]{3}|[A-Z]{1,3}[A-Z]{2}[0-9]{2,4}|[0-9][A-Z]{3}[0-9]{3})$';

const MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf';
const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
export const SLOT_SECONDS = 4;
const VISIBLE_SECONDS = 3;

/** The plates of the video's vehicles, as drawn (with spaces) and as read (without). */
export function plates(count: number, seed = 7): { drawn: string; plate: string; layout: number }[] {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
  const L = () => LETTERS[rnd(LETTERS.length)];
  const D = () => String(rnd(10));
  return Array.from({ length: count }, (_, i) => {
    const layout = i % 3;
    const drawn =
      layout === 0
        ? `${L()}${L()}${D()}${D()} ${L()}${L()}${L()}`
        : layout === 1
          ? `${L()} ${L()}${L()} ${D()}${D()}${D()}`
          : `${rnd(9) + 1}${L()}${L()}${L()}${D()}${D()}${D()}`;
    return { drawn, plate: drawn.replace(/ /g, ''), layout };
  });
}

/** The vehicle's picture as a filter chain labelled [v<i>]: body, windscreen, plate, text. */
function vehicle(i: number, drawn: string, layout: number): string {
  const body = ['0x8a2b2b', '0x2b4f8a', '0x3a6b35', '0x6b6b6b'][i % 4];
  const plateBg = ['0xf2d33c', 'white', '0x151515'][layout];
  const ink = layout === 2 ? 'white' : 'black';
  const font = layout === 0 ? MONO : SANS;
  const parts = [
    `color=c=${body}:s=320x200:r=10`,
    'drawbox=x=30:y=15:w=260:h=70:color=0x9fb8c8:t=fill',
    `drawbox=x=70:y=130:w=180:h=44:color=${plateBg}:t=fill`,
  ];
  if (layout === 1) parts.push('drawbox=x=70:y=130:w=16:h=44:color=0x1f3fa8:t=fill');
  parts.push(`drawtext=fontfile=${font}:text='${drawn}':fontsize=29:fontcolor=${ink}:x=${layout === 1 ? 92 : 80}:y=138`);
  return `${parts.join(',')}[v${i}]`;
}

/** A video of `count` vehicles at one level, cached in the temp folder; returns its path. */
export function plateVideo(level: Level, count: number): string {
  const dir = join(tmpdir(), 'overlook-plate-videos');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `v3-${level.name}-${count}.mp4`);
  if (existsSync(file)) return file;
  const list = plates(count);
  const graph = list.map((p, i) => vehicle(i, p.drawn, p.layout));
  // Each vehicle drives right at 60 px a second while it is in the picture.
  let last = '0:v';
  list.forEach((_, i) => {
    const t0 = i * SLOT_SECONDS + 0.5;
    graph.push(`[${last}][v${i}]overlay=x='40+60*(t-${t0})':y=90:shortest=0:enable='between(t,${t0},${t0 + VISIBLE_SECONDS})'[o${i}]`);
    last = `o${i}`;
  });
  const finish: string[] = [];
  if (level.angle) finish.push(`rotate=${level.angle}*PI/180:fillcolor=0x808080`);
  if (level.blur) finish.push(`gblur=sigma=${level.blur}`);
  if (level.dark) finish.push(`eq=brightness=${level.dark}:contrast=${1 + level.dark}`);
  if (level.noise) finish.push(`noise=alls=${level.noise}:allf=t`);
  graph.push(`[${last}]${finish.length ? finish.join(',') : 'null'}[out]`);
  const tmp = `${file}.${process.pid}.mp4`;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=0x808080:s=640x360:r=10:d=${count * SLOT_SECONDS}`,
    '-filter_complex',
    graph.join(';'),
    '-map',
    '[out]',
    '-t',
    String(count * SLOT_SECONDS),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '10',
    tmp,
  ]);
  renameSync(tmp, file);
  return file;
}
