// The simulated camera's answers to the ONVIF passthrough: the common read operations, built as the
// SOAP a real camera would send and parsed the same way, from the camera's own PTZ state. Anything
// else is a clear 400 (the simulated camera has no such operation).
import { ApiError } from '../../../lib/errors.js';
import type { OnvifGateway, OnvifService } from '../connection/camera-connection.js';
import { soapBody, xmlEscape } from './onvif-client.js';
import type { PtzControl, PtzPosition } from '../ptz/ptz-control.js';

const TT = 'http://www.onvif.org/ver10/schema';
const vector = (p: PtzPosition) => `<tt:PanTilt x="${p.pan}" y="${p.tilt}"/><tt:Zoom x="${p.zoom}"/>`;

export class SimulatedOnvif implements OnvifGateway {
  constructor(
    private readonly name: string,
    private readonly ptz: PtzControl,
  ) {}

  async services(): Promise<OnvifService[]> {
    return ['device', 'media', 'ptz'];
  }

  private readonly operations: Partial<Record<OnvifService, Record<string, () => Promise<string>>>> = {
    device: {
      GetDeviceInformation: async () =>
        `<Manufacturer>Overlook</Manufacturer><Model>Simulated PTZ camera</Model><FirmwareVersion>1.0</FirmwareVersion><SerialNumber>${xmlEscape(this.name)}</SerialNumber><HardwareId>simulated</HardwareId>`,
      GetHostname: async () => `<HostnameInformation><tt:FromDHCP>false</tt:FromDHCP><tt:Name>${xmlEscape(this.name)}</tt:Name></HostnameInformation>`,
      GetSystemDateAndTime: async () => {
        const d = new Date();
        return `<SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings><tt:UTCDateTime><tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time><tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime></SystemDateAndTime>`;
      },
      GetServices: async () =>
        (await this.services())
          .map(
            (s) =>
              `<Service><Namespace>http://www.onvif.org/${s === 'device' ? 'ver10/device' : s === 'media' ? 'ver10/media' : 'ver20/ptz'}/wsdl</Namespace><XAddr>urn:overlook:simulated:${s}</XAddr><Version><tt:Major>2</tt:Major><tt:Minor>0</tt:Minor></Version></Service>`,
          )
          .join(''),
      GetCapabilities: async () =>
        `<Capabilities><tt:Device><tt:XAddr>urn:overlook:simulated:device</tt:XAddr></tt:Device><tt:Media><tt:XAddr>urn:overlook:simulated:media</tt:XAddr></tt:Media><tt:PTZ><tt:XAddr>urn:overlook:simulated:ptz</tt:XAddr></tt:PTZ></Capabilities>`,
    },
    media: {
      GetProfiles: async () =>
        `<Profiles token="sim_profile" fixed="true"><tt:Name>Simulated</tt:Name><tt:VideoSourceConfiguration token="sim_source"><tt:Name>Simulated source</tt:Name><tt:SourceToken>sim_source</tt:SourceToken><tt:Bounds x="0" y="0" width="640" height="360"/></tt:VideoSourceConfiguration><tt:VideoEncoderConfiguration token="sim_jpeg"><tt:Name>JPEG</tt:Name><tt:Encoding>JPEG</tt:Encoding><tt:Resolution><tt:Width>640</tt:Width><tt:Height>360</tt:Height></tt:Resolution></tt:VideoEncoderConfiguration><tt:PTZConfiguration token="sim_ptz_config"><tt:Name>Simulated PTZ</tt:Name><tt:NodeToken>sim_node</tt:NodeToken></tt:PTZConfiguration></Profiles>`,
      GetVideoSources: async () =>
        `<VideoSources token="sim_source"><tt:Framerate>1</tt:Framerate><tt:Resolution><tt:Width>640</tt:Width><tt:Height>360</tt:Height></tt:Resolution></VideoSources>`,
    },
    ptz: {
      GetStatus: async () => {
        const s = await this.ptz.status();
        const move = s.moving ? 'MOVING' : 'IDLE';
        return `<PTZStatus><tt:Position>${vector(s)}</tt:Position><tt:MoveStatus><tt:PanTilt>${move}</tt:PanTilt><tt:Zoom>${move}</tt:Zoom></tt:MoveStatus><tt:UtcTime>${s.utc_time}</tt:UtcTime></PTZStatus>`;
      },
      GetPresets: async () =>
        (await this.ptz.presets())
          .map(
            (p) =>
              `<Preset token="${xmlEscape(p.token)}"><tt:Name>${xmlEscape(p.name)}</tt:Name>${p.position ? `<tt:PTZPosition>${vector(p.position)}</tt:PTZPosition>` : ''}</Preset>`,
          )
          .join(''),
      GetNodes: async () =>
        (await this.ptz.nodes())
          .map(
            (n) =>
              `<PTZNode token="${n.token}" FixedHomePosition="false"><tt:Name>${xmlEscape(n.name ?? '')}</tt:Name><tt:MaximumNumberOfPresets>${n.max_presets}</tt:MaximumNumberOfPresets><tt:HomeSupported>${n.home_supported}</tt:HomeSupported></PTZNode>`,
          )
          .join(''),
      GetConfigurations: async () =>
        (await this.ptz.configurations())
          .map(
            (c) =>
              `<PTZConfiguration token="${c.token}"><tt:Name>${xmlEscape(c.name ?? '')}</tt:Name><tt:NodeToken>${c.node_token}</tt:NodeToken></PTZConfiguration>`,
          )
          .join(''),
    },
  };

  async call(service: OnvifService, operation: string): Promise<Record<string, unknown>> {
    const ops = this.operations[service];
    const op = ops && Object.hasOwn(ops, operation) ? ops[operation] : undefined;
    if (!op) throw new ApiError('BAD_REQUEST', `The simulated camera does not answer ${service} ${operation}`);
    const xml = `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="${TT}"><s:Body><${operation}Response>${await op()}</${operation}Response></s:Body></s:Envelope>`;
    return soapBody(xml);
  }
}
