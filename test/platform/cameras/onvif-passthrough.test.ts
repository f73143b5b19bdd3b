// The ONVIF passthrough (camera:live_view, docs/cameras.md): read-only operations reach the camera (the
// fake ONVIF camera, or the simulated camera's own answers); anything that changes a device is refused
// before the camera is contacted — above all, a live-view key can never reboot a camera.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { startFakeCamera, type FakeCamera } from '../../fakes/fake-camera.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let fake: FakeCamera;
let owner: Person;
let projectExid: string;
let simExid: string;
let onvifExid: string;
beforeAll(async () => {
  tp = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_CAMERA_TIMEOUT_MS: '2000' });
  fake = await startFakeCamera({ username: 'admin', password: 'onv1f' });
  owner = await tp.person('onvif-owner');
  projectExid = (await tp.project(owner, 'ONVIF passthrough')).exid;
  simExid = (await tp.camera(owner, projectExid, 'Sim cam')).exid;
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: 'Fake ONVIF', project_exid: projectExid, onvif_url: fake.onvifUrl, snapshot_url: fake.snapshotUrl, username: 'admin', password: 'onv1f' },
  });
  expect(res.statusCode, res.body).toBe(201);
  onvifExid = res.json().exid;
});
afterAll(async () => {
  await fake.close();
  await tp.close();
});

const url = (service: string, operation: string, exid: string, extra = '') => `/v2/onvif/v20/${service}/${operation}?camera_exid=${exid}${extra}`;

describe('access rules', () => {
  it('GET /v2/onvif/v20/{service}/{operation}', () =>
    checkEndpointAccess(tp, {
      method: 'GET',
      url: (w) => url('device', 'GetDeviceInformation', w.cameraExid),
      otherUrl: (w) => url('device', 'GetDeviceInformation', w.otherCameraExid),
      scopes: ['camera:live_view'],
      role: 'viewer',
      okStatus: 200,
    }));
});

describe('read-only operations', () => {
  it('reach the ONVIF camera and answer its SOAP body as JSON', async () => {
    const key = await tp.key(owner, { projects: [projectExid], scopes: ['camera:live_view'] });
    const info = await tp.app.inject({ method: 'GET', url: url('device', 'GetDeviceInformation', onvifExid), headers: key.headers });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toEqual({
      GetDeviceInformationResponse: { Manufacturer: 'FakeCam', Model: 'PTZ-1', FirmwareVersion: '1.2.3', SerialNumber: 'FC-0001', HardwareId: 'fake' },
    });
    expect(fake.state.operations).toContain('GetDeviceInformation');

    const profiles = (await tp.app.inject({ method: 'GET', url: url('media_service', 'GetProfiles', onvifExid), headers: key.headers })).json();
    expect(profiles.GetProfilesResponse.Profiles['@token']).toBe('profile_1');

    // Arguments come from the query; credentials in answered URIs are removed.
    const stream = await tp.app.inject({ method: 'GET', url: url('media', 'GetStreamUri', onvifExid, '&ProfileToken=profile_1'), headers: key.headers });
    expect(stream.json().GetStreamUriResponse.MediaUri.Uri).toBe('rtsp://127.0.0.1:8554/stream1');
    expect(stream.body).not.toContain('onv1f');

    await tp.app.inject({ method: 'POST', url: `/v2/cameras/${onvifExid}/ptz/relative`, headers: owner.auth, payload: { pan: 0.3 } });
    const status = (await tp.app.inject({ method: 'GET', url: url('ptz', 'GetStatus', onvifExid, '&ProfileToken=profile_1'), headers: key.headers })).json();
    expect(status.GetStatusResponse.PTZStatus.Position.PanTilt['@x']).toBe('0.3');
  });

  it('on the simulated camera, answer from its own state', async () => {
    const get = (service: string, op: string) => tp.app.inject({ method: 'GET', url: url(service, op, simExid), headers: owner.auth });
    expect((await get('device', 'GetDeviceInformation')).json().GetDeviceInformationResponse).toMatchObject({
      Manufacturer: 'Overlook',
      SerialNumber: 'Sim cam',
    });
    expect((await get('media', 'GetProfiles')).json().GetProfilesResponse.Profiles.PTZConfiguration['@token']).toBe('sim_ptz_config');
    await tp.app.inject({ method: 'POST', url: `/v2/cameras/${simExid}/ptz/relative`, headers: owner.auth, payload: { tilt: 0.5 } });
    await tp.app.inject({ method: 'POST', url: `/v2/cameras/${simExid}/ptz/presets/create`, headers: owner.auth, payload: { name: 'Crane' } });
    expect((await get('ptz', 'GetStatus')).json().GetStatusResponse.PTZStatus.Position.PanTilt['@y']).toBe('0.5');
    expect((await get('ptz', 'GetPresets')).json().GetPresetsResponse.Preset).toMatchObject({ '@token': 'preset_1', Name: 'Crane' });
    expect((await get('ptz', 'GetNodes')).json().GetNodesResponse.PTZNode.MaximumNumberOfPresets).toBe(100);
    const other = await get('device', 'GetNetworkInterfaces');
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('simulated camera');
    expect((await get('imaging', 'GetImagingSettings')).statusCode).toBe(404);
  });
});

describe('operations that change a device or reveal secrets', () => {
  it('a camera:live_view key can never reboot a camera', async () => {
    const key = await tp.key(owner, { projects: [projectExid], scopes: ['camera:live_view'] });
    for (const service of ['device', 'device_service', 'DEVICE']) {
      const res = await tp.app.inject({ method: 'GET', url: url(service, 'SystemReboot', onvifExid), headers: key.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ONVIF_OPERATION_NOT_ALLOWED');
    }
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await tp.app.inject({ method, url: url('device', 'SystemReboot', onvifExid), headers: key.headers });
      expect(res.statusCode, method).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, method).toBeLessThan(500);
    }
    // Not even the owner.
    expect((await tp.app.inject({ method: 'GET', url: url('device', 'SystemReboot', onvifExid), headers: owner.auth })).statusCode).toBe(403);
    expect(fake.state.reboots).toBe(0);
    expect(fake.state.operations).not.toContain('SystemReboot');
  });

  it('refuses every non-Get operation and secret-revealing Gets, before contacting the camera', async () => {
    const before = fake.state.operations.length;
    for (const [service, op] of [
      ['device', 'SetUser'],
      ['device', 'CreateUsers'],
      ['device', 'DeleteUsers'],
      ['device', 'SetSystemFactoryDefault'],
      ['device', 'GetUsers'],
      ['device', 'getusers'],
      ['device', 'GetSystemBackup'],
      ['device', 'getDeviceInformation'],
      ['device', 'Get'],
      ['ptz', 'SetPreset'],
      ['ptz', 'GotoHomePosition'],
      ['ptz', 'ContinuousMove'],
      ['media', 'CreateProfile'],
      ['device', 'Get%3CScript%3E'],
    ]) {
      const res = await tp.app.inject({ method: 'GET', url: url(service!, op!, onvifExid), headers: owner.auth });
      expect(res.statusCode, `${service} ${op}`).toBe(403);
      expect(res.json().code).toBe('ONVIF_OPERATION_NOT_ALLOWED');
    }
    expect(fake.state.operations.length).toBe(before);
    expect(fake.state.presets).toEqual([]);
  });

  it('answers unknown services, missing services and bad arguments with 4xx', async () => {
    const noPtz = await startFakeCamera({ username: 'u', password: 'p', ptz: false });
    try {
      const res = await tp.app.inject({
        method: 'POST',
        url: '/v2/cameras',
        headers: owner.auth,
        payload: { name: 'No PTZ', project_exid: projectExid, onvif_url: noPtz.onvifUrl, username: 'u', password: 'p' },
      });
      const flat = res.json().exid;
      const snapOnly = (
        await tp.app.inject({
          method: 'POST',
          url: '/v2/cameras',
          headers: owner.auth,
          payload: { name: 'Snap only', project_exid: projectExid, snapshot_url: fake.snapshotUrl },
        })
      ).json().exid;
      const cases: [string, number][] = [
        [url('teleport', 'GetDeviceInformation', onvifExid), 404],
        [url('__proto__', 'GetDeviceInformation', onvifExid), 404],
        [url('ptz', 'GetNodes', flat), 404],
        [url('device', 'GetDeviceInformation', snapOnly), 400],
        [url('media', 'GetStreamUri', onvifExid, '&profile%3Ctoken=x'), 400],
        [url('media', 'GetStreamUri', onvifExid, '&ProfileToken=a&ProfileToken=b'), 400],
        [url('device', 'GetDeviceInformation', 'no-such-camera'), 404],
        ['/v2/onvif/v20/device/GetDeviceInformation', 404],
      ];
      for (const [u, status] of cases) {
        const r = await tp.app.inject({ method: 'GET', url: u, headers: owner.auth });
        expect(r.statusCode, `${u}: ${r.body}`).toBe(status);
      }
      // A camera fault (bad argument) is the camera's answer: 502, never 500.
      const fault = await tp.app.inject({ method: 'GET', url: url('media', 'GetStreamUri', onvifExid, '&ProfileToken=nope'), headers: owner.auth });
      expect(fault.statusCode).toBe(502);
      expect(fault.json().message).toContain('No such profile');
    } finally {
      await noPtz.close();
    }
  });
});
