// PTZ on the simulated camera: the same operations as an ONVIF camera, on the state kept in
// `cameras.sim_state`. Continuous moves store their speed and start time; the position integrates
// speed over elapsed time (clamped to the ranges) until a stop or any other move settles it.
import { ApiError } from '../../../lib/errors.js';
import {
  clamp,
  directionVector,
  type PtzConfiguration,
  type PtzControl,
  type PtzDirection,
  type PtzNode,
  type PtzPosition,
  type PtzPreset,
  type PtzStatus,
  type ZoomMode,
} from './ptz-control.js';

/** Simulated mechanics in degrees and zoom factor, the units the snapshot draws. */
const SIM_RANGE = { pan: 180, tilt: 90, zoomMin: 1, zoomMax: 10 } as const;
/** Full-speed continuous rates, in normalised units per second. */
const FULL_SPEED = { panTilt: 0.2, zoom: 0.25 };
const SIM_MAX_PRESETS = 100;

export interface SimPreset {
  token: string;
  name: string;
  pan: number;
  tilt: number;
  zoom: number;
}

export interface SimState {
  pan: number;
  tilt: number;
  zoom: number;
  presets: SimPreset[];
  /** Where "home" goes; the origin when never set. */
  home?: { pan: number; tilt: number; zoom: number };
  /** A continuous move under way: speeds in normalised units per second, since when (ISO). */
  moving?: { pan: number; tilt: number; zoom: number; since: string } | null;
  /** The last preset number issued, so a removed preset's token is never reused. */
  preset_seq?: number;
}

export const DEFAULT_SIM_STATE: SimState = { pan: 0, tilt: 0, zoom: 1, presets: [] };
const DEFAULT_HOME = { pan: 0, tilt: 0, zoom: 1 };

const toNormal = (s: { pan: number; tilt: number; zoom: number }): PtzPosition => ({
  pan: round(s.pan / SIM_RANGE.pan),
  tilt: round(s.tilt / SIM_RANGE.tilt),
  zoom: round((s.zoom - SIM_RANGE.zoomMin) / (SIM_RANGE.zoomMax - SIM_RANGE.zoomMin)),
});
const fromNormal = (p: PtzPosition) => ({
  pan: clamp(p.pan, -1, 1) * SIM_RANGE.pan,
  tilt: clamp(p.tilt, -1, 1) * SIM_RANGE.tilt,
  zoom: SIM_RANGE.zoomMin + clamp(p.zoom, 0, 1) * (SIM_RANGE.zoomMax - SIM_RANGE.zoomMin),
});
const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** The simulated position at `at`, a continuous move integrated up to then. */
export function simPosition(state: SimState, at: Date): { pan: number; tilt: number; zoom: number } {
  const m = state.moving;
  if (!m) return { pan: state.pan, tilt: state.tilt, zoom: state.zoom };
  const seconds = Math.max(0, (at.getTime() - Date.parse(m.since)) / 1000);
  const now = toNormal(state);
  return fromNormal({ pan: now.pan + m.pan * seconds, tilt: now.tilt + m.tilt * seconds, zoom: now.zoom + m.zoom * seconds });
}

/** The simulated position at `at` in the units the PTZ API reports (pan and tilt −1…1, zoom 0…1). */
export const simNormalPosition = (state: SimState, at: Date): PtzPosition => toNormal(simPosition(state, at));

export class SimulatedPtz implements PtzControl {
  constructor(
    private readonly state: SimState,
    private readonly save: (state: SimState) => Promise<void>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Folds any continuous move into the stored position, from now on measured afresh. */
  private settle(at: Date): void {
    Object.assign(this.state, simPosition(this.state, at));
    if (this.state.moving) this.state.moving.since = at.toISOString();
  }

  private async moveTo(p: { pan: number; tilt: number; zoom: number }): Promise<void> {
    this.state.moving = null;
    Object.assign(this.state, { pan: p.pan, tilt: p.tilt, zoom: p.zoom });
    await this.save(this.state);
  }

  private preset(token: string): SimPreset {
    const p = this.state.presets.find((x) => x.token === token);
    if (!p) throw new ApiError('NOT_FOUND', `Preset ${token} not found on this camera`);
    return p;
  }

  private show(p: SimPreset): PtzPreset {
    return { token: p.token, name: p.name, position: toNormal(p) };
  }

  async status(): Promise<PtzStatus> {
    const at = this.now();
    return { ...toNormal(simPosition(this.state, at)), moving: !!this.state.moving, utc_time: at.toISOString() };
  }

  async presets(): Promise<PtzPreset[]> {
    return this.state.presets.map((p) => this.show(p));
  }

  async nodes(): Promise<PtzNode[]> {
    return [{ token: 'sim_node', name: 'Simulated PTZ head', max_presets: SIM_MAX_PRESETS, home_supported: true }];
  }

  async configurations(): Promise<PtzConfiguration[]> {
    return [{ token: 'sim_ptz_config', name: 'Simulated PTZ', node_token: 'sim_node', default_timeout: null }];
  }

  async gotoHome(): Promise<void> {
    await this.moveTo(this.state.home ?? DEFAULT_HOME);
  }

  async setHome(): Promise<void> {
    this.settle(this.now());
    this.state.home = { pan: this.state.pan, tilt: this.state.tilt, zoom: this.state.zoom };
    await this.save(this.state);
  }

  async relativeMove(by: Partial<PtzPosition>): Promise<void> {
    this.settle(this.now());
    const from = toNormal(this.state);
    await this.moveTo(fromNormal({ pan: from.pan + (by.pan ?? 0), tilt: from.tilt + (by.tilt ?? 0), zoom: from.zoom + (by.zoom ?? 0) }));
  }

  async continuousMove(direction: PtzDirection, speed: number): Promise<void> {
    const at = this.now();
    this.settle(at);
    const v = directionVector(direction);
    const zoom = this.state.moving?.zoom ?? 0;
    this.state.moving = { pan: v.pan * speed * FULL_SPEED.panTilt, tilt: v.tilt * speed * FULL_SPEED.panTilt, zoom, since: at.toISOString() };
    await this.save(this.state);
  }

  async continuousZoom(mode: ZoomMode, speed: number): Promise<void> {
    const at = this.now();
    this.settle(at);
    const zoom = mode === 'in' ? speed * FULL_SPEED.zoom : mode === 'out' ? -speed * FULL_SPEED.zoom : 0;
    const m = this.state.moving ?? { pan: 0, tilt: 0, zoom: 0, since: at.toISOString() };
    m.zoom = zoom;
    this.state.moving = m.pan === 0 && m.tilt === 0 && m.zoom === 0 ? null : m;
    await this.save(this.state);
  }

  async stop(): Promise<void> {
    this.settle(this.now());
    this.state.moving = null;
    await this.save(this.state);
  }

  async createPreset(name: string): Promise<PtzPreset> {
    if (this.state.presets.length >= SIM_MAX_PRESETS) throw new ApiError('CONFLICT', `This camera holds at most ${SIM_MAX_PRESETS} presets`);
    this.settle(this.now());
    const next = Math.max(this.state.preset_seq ?? 0, ...this.state.presets.map((p) => Number(/^preset_(\d+)$/.exec(p.token)?.[1] ?? 0))) + 1;
    this.state.preset_seq = next;
    const preset: SimPreset = { token: `preset_${next}`, name, pan: this.state.pan, tilt: this.state.tilt, zoom: this.state.zoom };
    this.state.presets.push(preset);
    await this.save(this.state);
    return this.show(preset);
  }

  async gotoPreset(token: string): Promise<void> {
    await this.moveTo(this.preset(token));
  }

  async setPreset(token: string): Promise<PtzPreset> {
    const preset = this.preset(token);
    this.settle(this.now());
    Object.assign(preset, { pan: this.state.pan, tilt: this.state.tilt, zoom: this.state.zoom });
    await this.save(this.state);
    return this.show(preset);
  }

  async removePreset(token: string): Promise<void> {
    this.preset(token);
    this.state.presets = this.state.presets.filter((p) => p.token !== token);
    await this.save(this.state);
  }
}
