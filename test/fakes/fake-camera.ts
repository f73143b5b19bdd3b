// A fake IP camera for tests, on 127.0.0.1 (port 0): JPEG snapshots behind HTTP digest (or basic)
// authentication, and ONVIF SOAP services (device, media, PTZ) checking WS-Security UsernameToken
// PasswordDigest credentials, with PTZ state kept in memory so tests can see moves arrive and can
// check that nothing forbidden (SystemReboot…) ever reached the device.
//
//   const cam = await startFakeCamera({ username: 'admin', password: 's3cret' });
//   cam.snapshotUrl  // http://127.0.0.1:PORT/snapshot.jpg (digest auth)
//   cam.onvifUrl     // http://127.0.0.1:PORT/onvif/device_service
//   cam.state        // position, velocity, presets, home, reboots, operations, authFailures, snapshots
//   await cam.close();
//
// Options: `snapshotAuth: 'basic'` for a basic-auth camera; `ptz: false` for a camera without PTZ.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import sharp from 'sharp';

interface FakeVector {
  x: number;
  y: number;
  zoom: number;
}

interface FakeCameraState {
  position: FakeVector;
  /** The velocity of a continuous move under way, null when still. */
  velocity: FakeVector | null;
  home: FakeVector;
  presets: { token: string; name: string; position: FakeVector }[];
  /** SystemReboot calls received (authenticated). */
  reboots: number;
  /** Every authenticated ONVIF operation received, in order. */
  operations: string[];
  /** Requests refused for bad or missing credentials (HTTP or WS-Security). */
  authFailures: number;
  /** Snapshots served. */
  snapshots: number;
}

export interface FakeCameraOptions {
  username: string;
  password: string;
  snapshotAuth?: 'digest' | 'basic';
  ptz?: boolean;
}

export interface FakeCamera {
  url: string;
  onvifUrl: string;
  snapshotUrl: string;
  state: FakeCameraState;
  /** The JPEG the camera serves. */
  jpeg: Buffer;
  close(): Promise<void>;
}

const NS =
  'xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" ' +
  'xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema" xmlns:ter="http://www.onvif.org/ver10/error"';
const envelope = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><env:Envelope ${NS}><env:Body>${body}</env:Body></env:Envelope>`;
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const esc = (s: string) => s.replace(/[<>&'"]/g, (c) => ENTITIES[c]!);
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false });

type Xml = Record<string, unknown>;

export async function startFakeCamera(opts: FakeCameraOptions): Promise<FakeCamera> {
  const withPtz = opts.ptz !== false;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4a7a3a' } })
    .jpeg()
    .toBuffer();
  const state: FakeCameraState = {
    position: { x: 0, y: 0, zoom: 0 },
    velocity: null,
    home: { x: 0, y: 0, zoom: 0 },
    presets: [],
    reboots: 0,
    operations: [],
    authFailures: 0,
    snapshots: 0,
  };
  let movingSince = 0;
  let presetCounter = 0;
  const realm = 'FakeCam';
  const nonces = new Set<string>();
  const usedWsNonces = new Set<string>();
  let base = '';

  // --- HTTP snapshot with digest (RFC 7616, MD5, qop=auth) or basic authentication -----------------
  function snapshotAuthorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    if (opts.snapshotAuth === 'basic') return header === `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
    if (!header.startsWith('Digest ')) return false;
    const p: Record<string, string> = {};
    for (const m of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) p[m[1]!] = m[2] ?? m[3] ?? '';
    if (p.username !== opts.username || p.realm !== realm || !p.nonce || !nonces.has(p.nonce) || p.uri !== req.url) return false;
    const ha1 = md5(`${opts.username}:${realm}:${opts.password}`);
    const ha2 = md5(`${req.method}:${p.uri}`);
    const expected = p.qop ? md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`) : md5(`${ha1}:${p.nonce}:${ha2}`);
    return p.response === expected;
  }

  function challenge(res: ServerResponse): void {
    if (opts.snapshotAuth === 'basic') {
      res.writeHead(401, { 'www-authenticate': `Basic realm="${realm}"` }).end();
      return;
    }
    const nonce = randomBytes(16).toString('hex');
    nonces.add(nonce);
    res
      .writeHead(401, {
        'www-authenticate': `Digest realm="${realm}", qop="auth", nonce="${nonce}", opaque="${randomBytes(8).toString('hex')}", algorithm=MD5`,
      })
      .end();
  }

  // --- ONVIF -----------------------------------------------------------------------------------------
  /** WS-Security UsernameToken with PasswordDigest = Base64(SHA1(nonce + created + password)). */
  function wsAuthorized(header: Xml | undefined): boolean {
    const token = (header?.Security as Xml | undefined)?.UsernameToken as Xml | undefined;
    if (!token) return false;
    const text = (v: unknown) => (v && typeof v === 'object' ? String((v as Xml)['#text'] ?? '') : String(v ?? ''));
    const username = text(token.Username);
    const password = text(token.Password);
    const nonce = text(token.Nonce);
    const created = text(token.Created);
    if (username !== opts.username || !nonce || !created || usedWsNonces.has(nonce)) return false;
    if (Math.abs(Date.now() - Date.parse(created)) > 5 * 60_000) return false;
    const digest = createHash('sha1')
      .update(Buffer.concat([Buffer.from(nonce, 'base64'), Buffer.from(created, 'ascii'), Buffer.from(opts.password, 'ascii')]))
      .digest('base64');
    if (digest !== password) return false;
    usedWsNonces.add(nonce);
    return true;
  }

  const fault = (code: string, reason: string) =>
    envelope(
      `<env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>${code}</env:Value></env:Subcode></env:Code><env:Reason><env:Text xml:lang="en">${esc(reason)}</env:Text></env:Reason></env:Fault>`,
    );
  const vector = (v: FakeVector) =>
    `<tt:PanTilt x="${v.x}" y="${v.y}" space="http://www.onvif.org/ver10/tptz/PanTiltSpaces/PositionGenericSpace"/><tt:Zoom x="${v.zoom}" space="http://www.onvif.org/ver10/tptz/ZoomSpaces/PositionGenericSpace"/>`;
  const readVector = (v: unknown, into: Partial<FakeVector> = {}): Partial<FakeVector> => {
    const pt = (v as Xml | undefined)?.PanTilt as Xml | undefined;
    const z = (v as Xml | undefined)?.Zoom as Xml | undefined;
    if (pt) Object.assign(into, { x: Number(pt['@x'] ?? 0), y: Number(pt['@y'] ?? 0) });
    if (z) into.zoom = Number(z['@x'] ?? 0);
    return into;
  };
  const clampVector = (v: FakeVector): FakeVector => ({ x: clamp(v.x, -1, 1), y: clamp(v.y, -1, 1), zoom: clamp(v.zoom, 0, 1) });
  /** Folds a continuous move (units per second) into the position. */
  const settle = () => {
    if (!state.velocity) return;
    const s = (Date.now() - movingSince) / 1000;
    state.position = clampVector({
      x: state.position.x + state.velocity.x * s,
      y: state.position.y + state.velocity.y * s,
      zoom: state.position.zoom + state.velocity.zoom * s,
    });
    movingSince = Date.now();
  };
  const profile = `<trt:Profiles token="profile_1" fixed="true"><tt:Name>Main</tt:Name><tt:VideoSourceConfiguration token="vsc_1"><tt:Name>VSC</tt:Name><tt:UseCount>1</tt:UseCount><tt:SourceToken>video_1</tt:SourceToken><tt:Bounds x="0" y="0" width="64" height="48"/></tt:VideoSourceConfiguration><tt:VideoEncoderConfiguration token="vec_1"><tt:Name>H264</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding><tt:Resolution><tt:Width>64</tt:Width><tt:Height>48</tt:Height></tt:Resolution></tt:VideoEncoderConfiguration>${
    withPtz
      ? '<tt:PTZConfiguration token="ptz_config_1"><tt:Name>PTZ</tt:Name><tt:UseCount>1</tt:UseCount><tt:NodeToken>ptz_node_1</tt:NodeToken><tt:DefaultPTZTimeout>PT5S</tt:DefaultPTZTimeout></tt:PTZConfiguration>'
      : ''
  }</trt:Profiles>`;
  const preset = (token: string) => state.presets.find((p) => p.token === token);

  /** Answers one authenticated operation: [HTTP status, SOAP body]. */
  function operate(op: string, req: Xml): [number, string] {
    const service = (name: string, ns: string, path: string) =>
      `<tds:Service><tds:Namespace>${ns}</tds:Namespace><tds:XAddr>${base}${path}</tds:XAddr><tds:Version><tt:Major>2</tt:Major><tt:Minor>${name === 'device' ? 60 : 40}</tt:Minor></tds:Version></tds:Service>`;
    const ok = (body: string): [number, string] => [200, envelope(body)];
    const noToken = (): [number, string] => [400, fault('ter:InvalidArgVal', 'No such preset token')];
    if (
      op === 'GetProfiles' ||
      op === 'GetSnapshotUri' ||
      op === 'GetStreamUri' ||
      op === 'GetStatus' ||
      op === 'GetPresets' ||
      op.includes('Preset') ||
      op.includes('Move') ||
      op.includes('Home') ||
      op === 'Stop'
    ) {
      const token = (req.ProfileToken as string | undefined) ?? 'profile_1';
      if (op !== 'GetProfiles' && token !== 'profile_1') return [400, fault('ter:NoProfile', 'No such profile')];
    }
    if (
      !withPtz &&
      (['GetNodes', 'GetConfigurations', 'GetStatus', 'GetPresets', 'Stop'].includes(op) || op.includes('Preset') || op.includes('Move') || op.includes('Home'))
    ) {
      return [400, fault('ter:ActionNotSupported', 'This camera has no PTZ')];
    }
    switch (op) {
      case 'GetDeviceInformation':
        return ok(
          '<tds:GetDeviceInformationResponse><tds:Manufacturer>FakeCam</tds:Manufacturer><tds:Model>PTZ-1</tds:Model><tds:FirmwareVersion>1.2.3</tds:FirmwareVersion><tds:SerialNumber>FC-0001</tds:SerialNumber><tds:HardwareId>fake</tds:HardwareId></tds:GetDeviceInformationResponse>',
        );
      case 'GetServices':
        return ok(
          `<tds:GetServicesResponse>${service('device', 'http://www.onvif.org/ver10/device/wsdl', '/onvif/device_service')}${service('media', 'http://www.onvif.org/ver10/media/wsdl', '/onvif/media_service')}${
            withPtz ? service('ptz', 'http://www.onvif.org/ver20/ptz/wsdl', '/onvif/ptz_service') : ''
          }</tds:GetServicesResponse>`,
        );
      case 'GetCapabilities':
        return ok(
          `<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Device><tt:XAddr>${base}/onvif/device_service</tt:XAddr></tt:Device><tt:Media><tt:XAddr>${base}/onvif/media_service</tt:XAddr></tt:Media>${
            withPtz ? `<tt:PTZ><tt:XAddr>${base}/onvif/ptz_service</tt:XAddr></tt:PTZ>` : ''
          }</tds:Capabilities></tds:GetCapabilitiesResponse>`,
        );
      case 'SystemReboot':
        state.reboots++;
        return ok('<tds:SystemRebootResponse><tds:Message>Rebooting in 30 seconds</tds:Message></tds:SystemRebootResponse>');
      case 'GetUsers':
        return ok(
          `<tds:GetUsersResponse><tds:User><tt:Username>${esc(opts.username)}</tt:Username><tt:UserLevel>Administrator</tt:UserLevel></tds:User></tds:GetUsersResponse>`,
        );
      case 'GetProfiles':
        return ok(`<trt:GetProfilesResponse>${profile}</trt:GetProfilesResponse>`);
      case 'GetVideoSources':
        return ok(
          '<trt:GetVideoSourcesResponse><trt:VideoSources token="video_1"><tt:Framerate>25</tt:Framerate><tt:Resolution><tt:Width>64</tt:Width><tt:Height>48</tt:Height></tt:Resolution></trt:VideoSources></trt:GetVideoSourcesResponse>',
        );
      case 'GetSnapshotUri':
        return ok(
          `<trt:GetSnapshotUriResponse><trt:MediaUri><tt:Uri>${base}/snapshot.jpg</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect><tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri></trt:GetSnapshotUriResponse>`,
        );
      case 'GetStreamUri':
        // Like some cameras, the stream URI carries the credentials.
        return ok(
          `<trt:GetStreamUriResponse><trt:MediaUri><tt:Uri>rtsp://${esc(opts.username)}:${esc(opts.password)}@127.0.0.1:8554/stream1</tt:Uri><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri></trt:GetStreamUriResponse>`,
        );
      case 'GetNodes':
        return ok(
          '<tptz:GetNodesResponse><tptz:PTZNode token="ptz_node_1" FixedHomePosition="false"><tt:Name>Head</tt:Name><tt:SupportedPTZSpaces></tt:SupportedPTZSpaces><tt:MaximumNumberOfPresets>32</tt:MaximumNumberOfPresets><tt:HomeSupported>true</tt:HomeSupported></tptz:PTZNode></tptz:GetNodesResponse>',
        );
      case 'GetConfigurations':
        return ok(
          '<tptz:GetConfigurationsResponse><tptz:PTZConfiguration token="ptz_config_1"><tt:Name>PTZ</tt:Name><tt:UseCount>1</tt:UseCount><tt:NodeToken>ptz_node_1</tt:NodeToken><tt:DefaultPTZTimeout>PT5S</tt:DefaultPTZTimeout></tptz:PTZConfiguration></tptz:GetConfigurationsResponse>',
        );
      case 'GetStatus': {
        settle();
        const moving = state.velocity ? 'MOVING' : 'IDLE';
        return ok(
          `<tptz:GetStatusResponse><tptz:PTZStatus><tt:Position>${vector(state.position)}</tt:Position><tt:MoveStatus><tt:PanTilt>${moving}</tt:PanTilt><tt:Zoom>${moving}</tt:Zoom></tt:MoveStatus><tt:UtcTime>${new Date().toISOString()}</tt:UtcTime></tptz:PTZStatus></tptz:GetStatusResponse>`,
        );
      }
      case 'GetPresets':
        return ok(
          `<tptz:GetPresetsResponse>${state.presets.map((p) => `<tptz:Preset token="${p.token}"><tt:Name>${esc(p.name)}</tt:Name><tt:PTZPosition>${vector(p.position)}</tt:PTZPosition></tptz:Preset>`).join('')}</tptz:GetPresetsResponse>`,
        );
      case 'SetPreset': {
        settle();
        const name = String(req.PresetName ?? '');
        const token = req.PresetToken === undefined ? undefined : String(req.PresetToken);
        if (token !== undefined) {
          const p = preset(token);
          if (!p) return noToken();
          Object.assign(p, { name: name || p.name, position: { ...state.position } });
          return ok(`<tptz:SetPresetResponse><tptz:PresetToken>${p.token}</tptz:PresetToken></tptz:SetPresetResponse>`);
        }
        const created = { token: `fake_preset_${++presetCounter}`, name, position: { ...state.position } };
        state.presets.push(created);
        return ok(`<tptz:SetPresetResponse><tptz:PresetToken>${created.token}</tptz:PresetToken></tptz:SetPresetResponse>`);
      }
      case 'RemovePreset': {
        const p = preset(String(req.PresetToken ?? ''));
        if (!p) return noToken();
        state.presets = state.presets.filter((x) => x !== p);
        return ok('<tptz:RemovePresetResponse/>');
      }
      case 'GotoPreset': {
        const p = preset(String(req.PresetToken ?? ''));
        if (!p) return noToken();
        state.velocity = null;
        state.position = { ...p.position };
        return ok('<tptz:GotoPresetResponse/>');
      }
      case 'GotoHomePosition':
        state.velocity = null;
        state.position = { ...state.home };
        return ok('<tptz:GotoHomePositionResponse/>');
      case 'SetHomePosition':
        settle();
        state.home = { ...state.position };
        return ok('<tptz:SetHomePositionResponse/>');
      case 'RelativeMove': {
        settle();
        state.velocity = null;
        const t = readVector(req.Translation);
        state.position = clampVector({ x: state.position.x + (t.x ?? 0), y: state.position.y + (t.y ?? 0), zoom: state.position.zoom + (t.zoom ?? 0) });
        return ok('<tptz:RelativeMoveResponse/>');
      }
      case 'AbsoluteMove':
        state.velocity = null;
        state.position = clampVector({ ...state.position, ...readVector(req.Position) } as FakeVector);
        return ok('<tptz:AbsoluteMoveResponse/>');
      case 'ContinuousMove': {
        settle();
        const v = readVector(req.Velocity, { ...(state.velocity ?? { x: 0, y: 0, zoom: 0 }) }) as FakeVector;
        state.velocity = v.x === 0 && v.y === 0 && v.zoom === 0 ? null : v;
        movingSince = Date.now();
        return ok('<tptz:ContinuousMoveResponse/>');
      }
      case 'Stop': {
        settle();
        const stopPanTilt = String(req.PanTilt ?? 'true') !== 'false';
        const stopZoom = String(req.Zoom ?? 'true') !== 'false';
        if (state.velocity) {
          if (stopPanTilt) Object.assign(state.velocity, { x: 0, y: 0 });
          if (stopZoom) state.velocity.zoom = 0;
          if (state.velocity.x === 0 && state.velocity.y === 0 && state.velocity.zoom === 0) state.velocity = null;
        }
        return ok('<tptz:StopResponse/>');
      }
      default:
        return [400, fault('ter:ActionNotSupported', `${op} is not supported`)];
    }
  }

  function systemDateAndTime(): string {
    const d = new Date();
    return envelope(
      `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings><tt:TimeZone><tt:TZ>UTC</tt:TZ></tt:TimeZone><tt:UTCDateTime><tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time><tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime></tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>`,
    );
  }

  function soap(raw: string, res: ServerResponse) {
    const send = (status: number, xml: string): void => void res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(xml);
    let doc: Xml;
    try {
      doc = parser.parse(raw) as Xml;
    } catch {
      return send(400, fault('ter:WellFormed', 'Malformed XML'));
    }
    const env = doc.Envelope as Xml | undefined;
    const body = env?.Body as Xml | undefined;
    const op = body && Object.keys(body).find((k) => !k.startsWith('@'));
    if (!op) return send(400, fault('ter:WellFormed', 'No operation'));
    // The clock may be read without credentials (ONVIF Core, so clients can compute the digest).
    if (op === 'GetSystemDateAndTime') return send(200, systemDateAndTime());
    if (!wsAuthorized(env?.Header as Xml | undefined)) {
      state.authFailures++;
      return send(400, fault('ter:NotAuthorized', 'Sender not authorized'));
    }
    state.operations.push(op);
    const args = body[op];
    const [status, xml] = operate(op, args && typeof args === 'object' ? (args as Xml) : {});
    send(status, xml);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url?.startsWith('/snapshot.jpg')) {
        if (!snapshotAuthorized(req)) {
          if (req.headers.authorization) state.authFailures++;
          challenge(res);
          return;
        }
        state.snapshots++;
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length }).end(jpeg);
        return;
      }
      if (req.method === 'POST' && req.url?.startsWith('/onvif/')) {
        soap(Buffer.concat(chunks).toString('utf8'), res);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    onvifUrl: `${base}/onvif/device_service`,
    snapshotUrl: `${base}/snapshot.jpg`,
    state,
    jpeg,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
