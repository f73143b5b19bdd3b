// The built-in simulated camera: renders a real JPEG (sharp, from SVG) with the time and its PTZ
// position drawn on it (in the PTZ API's units, as the app's PTZ pad shows it), the scene turned and
// zoomed with it, a truck that moves each minute, and reports a battery that charges by day like a solar-powered site camera.
import sharp from 'sharp';
import type { CameraConnection, HealthResult, OnvifGateway, Snapshot } from './camera-connection.js';
import type { PtzControl } from '../ptz/ptz-control.js';
import { DEFAULT_SIM_STATE, SimulatedPtz, simNormalPosition, simPosition, type SimState } from '../ptz/simulated-ptz.js';
import { SimulatedOnvif } from '../onvif/simulated-onvif.js';

export { DEFAULT_SIM_STATE, type SimState } from '../ptz/simulated-ptz.js';

/** Two decimals, never "-0.00": the PTZ pad writes positions the same way. */
const fixed = (v: number) => (Math.abs(v) < 0.005 ? '0.00' : v.toFixed(2));

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Battery voltage of a 12 V solar system: charging through the day, resting at night. */
function solarBattery(at: Date, timeZone: string): { voltage: number; percentage: number } {
  const hour = Number(new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone }).format(at)) + at.getUTCMinutes() / 60;
  const sun = Math.max(0, Math.sin((Math.PI * (hour - 6)) / 12));
  const voltage = Number((12.2 + 1.6 * sun).toFixed(2));
  const percentage = Number(Math.min(100, Math.max(0, ((voltage - 11.8) / (13.8 - 11.8)) * 100)).toFixed(1));
  return { voltage, percentage };
}

export class SimulatedCamera implements CameraConnection {
  constructor(
    private readonly name: string,
    private readonly timeZone: string,
    private readonly state: SimState,
    private readonly size = { width: 640, height: 360 },
    /** Persists the state after a PTZ change (the cameras service writes `cameras.sim_state`). */
    private readonly save: (state: SimState) => Promise<void> = async () => {
      throw new Error('this simulated camera connection cannot save its state');
    },
  ) {}

  ptz(): PtzControl {
    return new SimulatedPtz(this.state, this.save);
  }

  onvif(): OnvifGateway {
    return new SimulatedOnvif(this.name, this.ptz());
  }

  /** The scene now, or at `takenAt` (demo history is drawn as it would have been then). */
  async snapshot(takenAt = new Date()): Promise<Snapshot> {
    const { width, height } = this.size;
    const time = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: this.timeZone }).format(takenAt);
    const { pan, tilt, zoom } = simPosition(this.state, takenAt);
    const shown = simNormalPosition(this.state, takenAt);
    // A horizon that moves with pan and tilt, so a PTZ move shows in the picture.
    const horizon = Math.round(height * (0.55 - tilt / 200));
    const offset = Math.round((pan / 180) * width) % width;
    // A truck that stands somewhere else each minute: the scene changes as a working site does, so the
    // picture checks do not find a demo camera frozen and its activity timeline has something to show.
    const minute = Math.floor(takenAt.getTime() / 60_000);
    const truckX = Math.round((minute * 97) % Math.max(1, width - 110));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="#87a9c8"/>
  <g transform="translate(${width / 2} ${horizon}) scale(${zoom.toFixed(3)}) translate(${-width / 2} ${-horizon})">
  <rect x="${-width * 10}" y="${horizon}" width="${width * 21}" height="${height * 10}" fill="#6b5b45"/>
  <rect x="${(width / 3 - offset + width) % width}" y="${horizon - 90}" width="60" height="90" fill="#c9a227"/>
  <rect x="${((2 * width) / 3 - offset + width) % width}" y="${horizon - 140}" width="20" height="140" fill="#444"/>
  <rect x="${truckX}" y="${horizon + 20}" width="110" height="48" fill="#d9480f"/>
  <rect x="${truckX + 80}" y="${horizon + 4}" width="30" height="24" fill="#f1f3f5"/>
  </g>
  <rect x="0" y="0" width="100%" height="44" fill="rgba(0,0,0,0.55)"/>
  <text x="12" y="29" font-family="sans-serif" font-size="20" fill="#fff">${escapeXml(this.name)} · ${escapeXml(time)}</text>
  <text x="12" y="${height - 14}" font-family="monospace" font-size="16" fill="#fff">PTZ pan ${fixed(shown.pan)} tilt ${fixed(shown.tilt)} zoom ${fixed(shown.zoom)}</text>
</svg>`;
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
    return { jpeg, takenAt };
  }

  async check(): Promise<HealthResult> {
    const started = performance.now();
    const shot = await this.snapshot();
    const ok = shot.jpeg[0] === 0xff && shot.jpeg[1] === 0xd8;
    return {
      status: ok ? 'online' : 'offline',
      checked_at: shot.takenAt.toISOString(),
      latency_ms: Math.round(performance.now() - started),
      reason: ok ? null : 'the simulated camera produced no JPEG',
      battery: solarBattery(shot.takenAt, this.timeZone),
    };
  }
}

/** A simulated camera's scene as it was drawn at `at`, as a JPEG (the demo data's history). */
export async function simulatedSceneAt(camera: { name: string; timezone: string; sim_state: string }, at: Date): Promise<Buffer> {
  const state = { ...DEFAULT_SIM_STATE, ...(JSON.parse(camera.sim_state) as Partial<SimState>) };
  return (await new SimulatedCamera(camera.name, camera.timezone, state).snapshot(at)).jpeg;
}
