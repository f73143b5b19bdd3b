// PTZ control of a camera (docs/cameras.md): finds the camera's PTZ control (the simulated camera's, saved
// through the cameras service; or ONVIF) and answers with its state after each move.
import { ApiError, validation } from '../../../lib/errors.js';
import type { CamerasService } from '../cameras-service.js';
import type { CameraConnections } from '../connection/connections.js';
import type { PtzControl, PtzDirection, PtzPosition, PtzStatus, ZoomMode } from './ptz-control.js';

/** Speed of continuous moves when none is given (a fraction of full speed). */
const DEFAULT_SPEED = 0.5;

export class PtzService {
  constructor(
    private readonly cameras: CamerasService,
    private readonly connections: CameraConnections,
  ) {}

  private async control(exid: string): Promise<PtzControl> {
    const row = await this.cameras.row(exid);
    const ptz = this.connections.connect(row, { saveSimState: (state) => this.cameras.saveSimState(exid, state) }).ptz();
    if (!ptz) throw new ApiError('PTZ_NOT_SUPPORTED', 'This camera has no PTZ control (a real camera needs an onvif_url)');
    return ptz;
  }

  /** Runs a move, then reports where the camera is. */
  private async move(exid: string, act: (ptz: PtzControl) => Promise<unknown>): Promise<PtzStatus> {
    const ptz = await this.control(exid);
    await act(ptz);
    return ptz.status();
  }

  status = async (exid: string) => (await this.control(exid)).status();
  presets = async (exid: string) => ({ presets: await (await this.control(exid)).presets() });
  nodes = async (exid: string) => ({ nodes: await (await this.control(exid)).nodes() });
  configurations = async (exid: string) => ({ configurations: await (await this.control(exid)).configurations() });

  home = (exid: string) => this.move(exid, (p) => p.gotoHome());
  setHome = (exid: string) => this.move(exid, (p) => p.setHome());
  relative = (exid: string, by: Partial<PtzPosition>) => this.move(exid, (p) => p.relativeMove(by));
  continuousStart = (exid: string, direction: PtzDirection, speed = DEFAULT_SPEED) => this.move(exid, (p) => p.continuousMove(direction, speed));
  continuousStop = (exid: string) => this.move(exid, (p) => p.stop());
  continuousZoom = (exid: string, mode: ZoomMode, speed = DEFAULT_SPEED) => this.move(exid, (p) => p.continuousZoom(mode, speed));
  gotoPreset = (exid: string, token: string) => this.move(exid, (p) => p.gotoPreset(token));

  async createPreset(exid: string, name: string) {
    const clean = name.trim();
    if (!clean) throw validation('name', 'must not be blank');
    return (await this.control(exid)).createPreset(clean);
  }

  setPreset = async (exid: string, token: string) => (await this.control(exid)).setPreset(token);
  removePreset = async (exid: string, token: string) => (await this.control(exid)).removePreset(token);
}
