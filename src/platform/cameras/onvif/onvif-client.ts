// The one place that talks ONVIF: wraps the `onvif` library's callback API (agsh/onvif, Cam) in
// promises with an overall timeout. The library builds the SOAP envelopes and the WS-Security
// UsernameToken (PasswordDigest) or HTTP digest authentication; we read its answers, and parse raw
// responses with fast-xml-parser where its own parsing is lossy.
//
// We do not use the library's `connect()`: it also resolves "active sources" and throws from inside a
// callback on devices whose profiles it does not recognise. We run the same first steps ourselves
// (GetSystemDateAndTime for the clock offset, GetServices falling back to GetCapabilities) and always
// pass the profile token explicitly.
//
// Every exchange goes through an agent pinned to the address the outbound guard checked, and only to
// the port it was given: nothing is POSTed to a refused address (docs/security.md, Outbound connections).
import { Cam } from 'onvif';
import { pinnedAgent } from '../../../lib/net/guarded-http.js';
import type { OutboundGuard } from '../../../lib/net/outbound-guard.js';
import { XMLParser } from 'fast-xml-parser';
import { ONVIF_SERVICES, type OnvifService } from '../connection/camera-connection.js';
import { CameraAnswerError, CameraTimeoutError } from '../camera-errors.js';

type Callback = (err: Error | null, data?: unknown, xml?: string) => void;

/** The part of the library's Cam we use (its bundled types are looser than this). */
interface CamLike {
  uri?: Record<string, { href?: string; path?: string } | undefined>;
  [method: string]: unknown;
  _envelopeHeader(): string;
  _envelopeFooter(): string;
}

export interface OnvifTarget {
  url: string;
  username?: string;
  password?: string;
  timeoutMs: number;
  guard: OutboundGuard;
}

const NAMESPACES: Record<OnvifService, string> = {
  device: 'http://www.onvif.org/ver10/device/wsdl',
  media: 'http://www.onvif.org/ver10/media/wsdl',
  media2: 'http://www.onvif.org/ver20/media/wsdl',
  ptz: 'http://www.onvif.org/ver20/ptz/wsdl',
  imaging: 'http://www.onvif.org/ver20/imaging/wsdl',
  events: 'http://www.onvif.org/ver10/events/wsdl',
  deviceio: 'http://www.onvif.org/ver10/deviceIO/wsdl',
  analytics: 'http://www.onvif.org/ver20/analytics/wsdl',
  recording: 'http://www.onvif.org/ver10/recording/wsdl',
  search: 'http://www.onvif.org/ver10/search/wsdl',
  replay: 'http://www.onvif.org/ver10/replay/wsdl',
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: true,
  parseAttributeValue: false,
  trimValues: true,
});

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
export const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => ENTITIES[c]!);

/** The SOAP Body of a response as JSON, namespace prefixes and xmlns attributes removed. */
export function soapBody(xml: string): Record<string, unknown> {
  const doc = parser.parse(xml) as { Envelope?: { Body?: unknown } };
  const body = doc?.Envelope?.Body;
  if (!body || typeof body !== 'object') throw new CameraAnswerError('the camera answered something that is not a SOAP envelope');
  return stripXmlns(body) as Record<string, unknown>;
}

function stripXmlns(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripXmlns);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!k.startsWith('@xmlns')) out[k] = stripXmlns(x);
    return out;
  }
  return v;
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export class OnvifClient {
  private profileTokens: Promise<{ token: string; ptz: boolean }[]> | null = null;
  private snapshotUrl: Promise<string> | null = null;

  private constructor(
    private readonly cam: CamLike,
    private readonly timeoutMs: number,
  ) {}

  /** Opens a session: learns the camera's clock and its service addresses. */
  static async open(target: OnvifTarget): Promise<OnvifClient> {
    const url = new URL(target.url);
    const secure = url.protocol === 'https:';
    const port = Number(url.port || (secure ? 443 : 80));
    const agent = await pinnedAgent(target.guard, url.hostname, port, secure);
    const cam = new Cam({
      hostname: url.hostname,
      port,
      agent,
      path: url.pathname && url.pathname !== '/' ? url.pathname : '/onvif/device_service',
      username: target.username || undefined,
      password: target.password || undefined,
      useSecure: secure,
      timeout: target.timeoutMs,
      autoconnect: false,
      // Cameras behind NAT advertise addresses we cannot reach: keep talking to the one we were given.
      preserveAddress: true,
    } as never) as unknown as CamLike;
    const client = new OnvifClient(cam, target.timeoutMs);
    await client.invoke('getSystemDateAndTime');
    try {
      await client.invoke('getServices', true);
    } catch (err) {
      if (err instanceof CameraTimeoutError) throw err;
      await client.invoke('getCapabilities');
    }
    return client;
  }

  /** Calls one library method, resolving with its data and raw XML; settles once, on time. */
  invoke<T = unknown>(method: string, ...args: unknown[]): Promise<{ data: T; xml: string }> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => finish(new CameraTimeoutError('the camera did not answer in time')), this.timeoutMs);
      const finish = (err: Error | null, data?: unknown, xml?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err.message.startsWith('ONVIF SOAP Fault') || err.message.startsWith('Wrong ONVIF') ? new CameraAnswerError(err.message) : err);
        else resolve({ data: data as T, xml: xml ?? '' });
      };
      const fn = this.cam[method];
      if (typeof fn !== 'function') return finish(new Error(`the ONVIF library has no ${method}`));
      try {
        (fn as (...a: unknown[]) => void).apply(this.cam, [...args, ((err, data, xml) => finish(err, data, xml)) as Callback]);
      } catch (err) {
        finish(err as Error);
      }
    });
  }

  /** Services the camera advertised (the device service always). */
  services(): OnvifService[] {
    return ONVIF_SERVICES.filter((s) => s === 'device' || this.uriKey(s) !== null);
  }

  /** The library's key for a service address ('deviceIO', 'ptz', …), matched without case. */
  private uriKey(service: OnvifService): string | null {
    return Object.keys(this.cam.uri ?? {}).find((k) => k.toLowerCase() === service && this.cam.uri?.[k]) ?? null;
  }

  /** Media profile tokens, the ones carrying a PTZ configuration flagged. */
  async profiles(): Promise<{ token: string; ptz: boolean }[]> {
    this.profileTokens ??= this.invoke('getProfiles').then(({ xml }) => {
      const res = soapBody(xml).GetProfilesResponse as { Profiles?: unknown } | undefined;
      return (
        asArray(res?.Profiles as Record<string, unknown>[] | Record<string, unknown> | undefined)
          // Media (ver10) nests PTZConfiguration in the profile; Media2 (ver20) under Configurations/PTZ.
          .map((p) => ({
            token: String(p['@token'] ?? ''),
            ptz: p.PTZConfiguration !== undefined || (p.Configurations as Record<string, unknown> | undefined)?.PTZ !== undefined,
          }))
          .filter((p) => p.token)
      );
    });
    try {
      return await this.profileTokens;
    } catch (err) {
      this.profileTokens = null;
      throw err;
    }
  }

  /** The profile to drive: the first with PTZ when asked, else the first. */
  async profileToken(forPtz = false): Promise<string | null> {
    const all = await this.profiles();
    return (forPtz ? all.find((p) => p.ptz) : all[0])?.token ?? null;
  }

  /** The snapshot URI of the first profile, asked once per session. */
  async snapshotUri(): Promise<string> {
    this.snapshotUrl ??= this.askSnapshotUri();
    try {
      return await this.snapshotUrl;
    } catch (err) {
      this.snapshotUrl = null;
      throw err;
    }
  }

  private async askSnapshotUri(): Promise<string> {
    const token = await this.profileToken();
    if (!token) throw new CameraAnswerError('the camera has no media profile');
    const { data } = await this.invoke<{ uri?: string } | null>('getSnapshotUri', { profileToken: xmlEscape(token) });
    if (!data?.uri || typeof data.uri !== 'string') throw new CameraAnswerError('the camera gave no snapshot URI');
    return data.uri;
  }

  async deviceInformation(): Promise<Record<string, unknown>> {
    const { data } = await this.invoke<Record<string, unknown>>('getDeviceInformation');
    return data;
  }

  /** One operation of a service with simple arguments, answered as the parsed SOAP body. */
  async raw(service: OnvifService, operation: string, args: Record<string, string>): Promise<Record<string, unknown>> {
    const ns = NAMESPACES[service];
    const inner = Object.entries(args)
      .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
      .join('');
    const body = `${this.cam._envelopeHeader()}<${operation} xmlns="${ns}">${inner}</${operation}>${this.cam._envelopeFooter()}`;
    const key = this.uriKey(service);
    // The device service lives at the address we were given; others where the camera says.
    if (service !== 'device' && !key) throw new CameraAnswerError(`the camera offers no ${service} service`);
    const options = service === 'device' ? { body } : { service: key, body };
    const { xml } = await this.invoke('_request', options);
    return soapBody(xml);
  }
}
