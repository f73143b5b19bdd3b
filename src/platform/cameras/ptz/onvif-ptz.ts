// PTZ on a real camera through ONVIF (the PTZ service of its first media profile with a PTZ
// configuration). Moves go through the onvif library; lists are read from the raw SOAP answers.
import { ApiError } from '../../../lib/errors.js';
import { CameraAnswerError, upstreamError } from '../camera-errors.js';
import { soapBody, xmlEscape, type OnvifClient } from '../onvif/onvif-client.js';
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

type Node = Record<string, unknown>;
const asArray = (v: unknown): Node[] => (v === undefined || v === null ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const num = (v: unknown): number | null => (v === undefined || v === null || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
const text = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'object' ? String((v as Node)['#text'] ?? '') || null : String(v);

function position(p: unknown): PtzPosition | null {
  if (!p || typeof p !== 'object') return null;
  const pt = (p as Node).PanTilt as Node | undefined;
  const z = (p as Node).Zoom as Node | undefined;
  if (!pt && !z) return null;
  return { pan: num(pt?.['@x']) ?? 0, tilt: num(pt?.['@y']) ?? 0, zoom: num(z?.['@x']) ?? 0 };
}

export class OnvifPtz implements PtzControl {
  constructor(
    private readonly session: () => Promise<OnvifClient>,
    /** Forgets the shared session after a failure that is not the camera's considered answer. */
    private readonly dropSession: () => void = () => {},
  ) {}

  /** The session and the PTZ profile token; 409 when the camera has no PTZ. */
  private async ptz(): Promise<{ client: OnvifClient; profileToken: string }> {
    const client = await this.session();
    if (!client.services().includes('ptz')) throw new ApiError('PTZ_NOT_SUPPORTED', 'This camera advertises no ONVIF PTZ service');
    const token = await client.profileToken(true);
    if (!token) throw new ApiError('PTZ_NOT_SUPPORTED', 'No media profile of this camera has a PTZ configuration');
    return { client, profileToken: xmlEscape(token) };
  }

  /** Runs an exchange, turning camera failures into 502/504. */
  private async run<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ApiError) && !(err instanceof CameraAnswerError)) this.dropSession();
      throw upstreamError(err, action);
    }
  }

  private async send(action: string, method: string, options: Record<string, unknown>): Promise<string> {
    return this.run(action, async () => {
      const { client, profileToken } = await this.ptz();
      return (await client.invoke(method, { profileToken, ...options })).xml;
    });
  }

  status(): Promise<PtzStatus> {
    return this.run('report its PTZ status', async () => {
      const { client, profileToken } = await this.ptz();
      const { xml } = await client.invoke('getStatus', { profileToken });
      const st = (soapBody(xml).GetStatusResponse as Node | undefined)?.PTZStatus as Node | undefined;
      if (!st) throw new CameraAnswerError('the camera sent no PTZ status');
      const pos = position(st.Position) ?? { pan: 0, tilt: 0, zoom: 0 };
      const ms = st.MoveStatus;
      const moving = JSON.stringify(ms ?? '')
        .toUpperCase()
        .includes('MOVING');
      const utc = text(st.UtcTime);
      return { ...pos, moving, utc_time: utc && !Number.isNaN(Date.parse(utc)) ? new Date(utc).toISOString() : new Date().toISOString() };
    });
  }

  presets(): Promise<PtzPreset[]> {
    return this.run('list its presets', async () => {
      const { client, profileToken } = await this.ptz();
      const { xml } = await client.invoke('getPresets', { profileToken });
      return asArray((soapBody(xml).GetPresetsResponse as Node | undefined)?.Preset)
        .map((p) => ({ token: String(p['@token'] ?? ''), name: text(p.Name) ?? '', position: position(p.PTZPosition) }))
        .filter((p) => p.token);
    });
  }

  nodes(): Promise<PtzNode[]> {
    return this.run('list its PTZ nodes', async () => {
      const { client } = await this.ptz();
      const { xml } = await client.invoke('getNodes');
      return asArray((soapBody(xml).GetNodesResponse as Node | undefined)?.PTZNode).map((n) => ({
        token: String(n['@token'] ?? ''),
        name: text(n.Name),
        max_presets: num(n.MaximumNumberOfPresets),
        home_supported: String(n.HomeSupported) === 'true',
      }));
    });
  }

  configurations(): Promise<PtzConfiguration[]> {
    return this.run('list its PTZ configurations', async () => {
      const { client } = await this.ptz();
      const { xml } = await client.invoke('getConfigurations');
      return asArray((soapBody(xml).GetConfigurationsResponse as Node | undefined)?.PTZConfiguration).map((c) => ({
        token: String(c['@token'] ?? ''),
        name: text(c.Name),
        node_token: text(c.NodeToken),
        default_timeout: text(c.DefaultPTZTimeout),
      }));
    });
  }

  async gotoHome(): Promise<void> {
    await this.send('go to its home position', 'gotoHomePosition', {});
  }

  async setHome(): Promise<void> {
    await this.send('set its home position', 'setHomePosition', {});
  }

  async relativeMove(by: Partial<PtzPosition>): Promise<void> {
    await this.send('move', 'relativeMove', { x: by.pan ?? 0, y: by.tilt ?? 0, zoom: by.zoom ?? 0 });
  }

  async continuousMove(direction: PtzDirection, speed: number): Promise<void> {
    const v = directionVector(direction);
    await this.send('start moving', 'continuousMove', { x: v.pan * clamp(speed, 0, 1), y: v.tilt * clamp(speed, 0, 1), onlySendPanTilt: true });
  }

  async continuousZoom(mode: ZoomMode, speed: number): Promise<void> {
    if (mode === 'stop') await this.send('stop zooming', 'stop', { panTilt: 'false', zoom: 'true' });
    else await this.send('start zooming', 'continuousMove', { zoom: (mode === 'in' ? 1 : -1) * clamp(speed, 0, 1), onlySendZoom: true });
  }

  async stop(): Promise<void> {
    await this.send('stop moving', 'stop', { panTilt: 'true', zoom: 'true' });
  }

  private async existing(token: string): Promise<PtzPreset> {
    const found = (await this.presets()).find((p) => p.token === token);
    if (!found) throw new ApiError('NOT_FOUND', `Preset ${token} not found on this camera`);
    return found;
  }

  private async saved(token: string, name: string): Promise<PtzPreset> {
    const again = (await this.presets()).find((p) => p.token === token);
    return again ?? { token, name, position: null };
  }

  async createPreset(name: string): Promise<PtzPreset> {
    const xml = await this.send('save a preset', 'setPreset', { presetName: xmlEscape(name) });
    const token = text((soapBody(xml).SetPresetResponse as Node | undefined)?.PresetToken);
    if (!token) throw upstreamError(new CameraAnswerError('the camera returned no preset token'), 'save a preset');
    return this.saved(token, name);
  }

  async gotoPreset(token: string): Promise<void> {
    await this.existing(token);
    await this.send('go to the preset', 'gotoPreset', { preset: xmlEscape(token) });
  }

  async setPreset(token: string): Promise<PtzPreset> {
    const preset = await this.existing(token);
    await this.send('overwrite the preset', 'setPreset', { presetName: xmlEscape(preset.name), presetToken: xmlEscape(token) });
    return this.saved(token, preset.name);
  }

  async removePreset(token: string): Promise<void> {
    await this.existing(token);
    await this.send('remove the preset', 'removePreset', { presetToken: xmlEscape(token) });
  }
}
