// What every pan-tilt-zoom camera can do, whatever drives it (the simulated camera or ONVIF). Positions
// use ONVIF's generic spaces so both kinds answer alike: pan and tilt in [-1, 1], zoom in [0, 1];
// relative moves and speeds are fractions of those ranges.

export interface PtzPosition {
  pan: number;
  tilt: number;
  zoom: number;
}

export interface PtzStatus extends PtzPosition {
  /** True while a continuous move runs. */
  moving: boolean;
  utc_time: string;
}

export interface PtzPreset {
  token: string;
  name: string;
  /** Where the preset points, when the camera says. */
  position: PtzPosition | null;
}

export interface PtzNode {
  token: string;
  name: string | null;
  max_presets: number | null;
  home_supported: boolean;
}

export interface PtzConfiguration {
  token: string;
  name: string | null;
  node_token: string | null;
  default_timeout: string | null;
}

/** Continuous directions: screen directions, diagonals joined with an underscore. */
export const PTZ_DIRECTIONS = ['up', 'down', 'left', 'right', 'up_left', 'up_right', 'down_left', 'down_right'] as const;
export type PtzDirection = (typeof PTZ_DIRECTIONS)[number];
export const ZOOM_MODES = ['in', 'out', 'stop'] as const;
export type ZoomMode = (typeof ZOOM_MODES)[number];

/** Pan/tilt velocity signs of each direction (right and up are positive). */
export function directionVector(d: PtzDirection): { pan: number; tilt: number } {
  const pan = d.endsWith('left') ? -1 : d.endsWith('right') ? 1 : 0;
  const tilt = d.startsWith('up') ? 1 : d.startsWith('down') ? -1 : 0;
  return { pan, tilt };
}

/** Preset tokens we accept: what cameras issue (letters, digits, a few separators). */
export const PRESET_TOKEN_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';

export interface PtzControl {
  status(): Promise<PtzStatus>;
  presets(): Promise<PtzPreset[]>;
  nodes(): Promise<PtzNode[]>;
  configurations(): Promise<PtzConfiguration[]>;
  gotoHome(): Promise<void>;
  setHome(): Promise<void>;
  /** Moves by a translation (fractions of the ranges); the result is clamped to the ranges. */
  relativeMove(by: Partial<PtzPosition>): Promise<void>;
  /** Starts moving at `speed` (0–1) in a direction until stop. */
  continuousMove(direction: PtzDirection, speed: number): Promise<void>;
  continuousZoom(mode: ZoomMode, speed: number): Promise<void>;
  stop(): Promise<void>;
  /** Saves the current position under a new preset. */
  createPreset(name: string): Promise<PtzPreset>;
  /** Goes to a preset; NOT_FOUND when the token is unknown. */
  gotoPreset(token: string): Promise<void>;
  /** Overwrites a preset with the current position; NOT_FOUND when unknown. */
  setPreset(token: string): Promise<PtzPreset>;
  removePreset(token: string): Promise<void>;
}

export const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
