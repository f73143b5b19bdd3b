// The access rules on each of the 28 settings endpoints this feature adds: people and keys, the role
// each needs (admin for settings, owner for transfer and delete), and the owner intersection (a key
// never exceeds its owner: an editor's key is refused settings, an admin's key transfer and delete).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { b64, makeLogo, png, recordFrame } from './settings-helpers.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let image: string;
beforeAll(async () => {
  tp = await buildTestPlatform(LOCAL_CAMERAS);
  image = b64(await png());
});
afterAll(async () => tp.close());

const scopes = ['project:settings'] as const;
const P = (path = '') => ({
  url: (w: { projectExid: string }) => `/v2/projects/${w.projectExid}${path}`,
  otherUrl: (w: { otherProjectExid: string }) => `/v2/projects/${w.otherProjectExid}${path}`,
});
const C = (path = '') => ({
  url: (w: { cameraExid: string }) => `/v2/cameras/${w.cameraExid}${path}`,
  otherUrl: (w: { otherCameraExid: string }) => `/v2/cameras/${w.otherCameraExid}${path}`,
});
const logoSetup: EndpointSpec['setup'] = async (t, w) => {
  const logo = await makeLogo(t, w.owner, w.projectExid);
  const other = await makeLogo(t, w.owner, w.otherProjectExid);
  return { logo: logo.id, otherLogo: other.id };
};
const L = (suffix = '') => ({
  url: (w: { projectExid: string; extra: Record<string, string> }) => `/v2/projects/${w.projectExid}/logos/${w.extra.logo}${suffix}`,
  otherUrl: (w: { otherProjectExid: string; extra: Record<string, string> }) => `/v2/projects/${w.otherProjectExid}/logos/${w.extra.otherLogo}${suffix}`,
});
const thumbSetup: EndpointSpec['setup'] = async (t, w) => {
  for (const p of [w.projectExid, w.otherProjectExid]) {
    const res = await t.app.inject({ method: 'PUT', url: `/v2/projects/${p}/thumbnail`, headers: w.owner.auth, payload: { image } });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  return {};
};

const specs: EndpointSpec[] = [
  { method: 'PATCH', ...P(), scopes, role: 'admin', okStatus: 200, payload: () => ({ name: 'Renamed', status: 'Completed' }) },
  { method: 'DELETE', ...P(), scopes, role: 'owner', okStatus: 204 },
  {
    method: 'POST',
    ...P('/transfer'),
    scopes,
    role: 'owner',
    okStatus: 200,
    setup: async (t, w) => {
      const heir = await t.person('heir');
      await t.addMember(w.owner, w.projectExid, heir, 'editor');
      return { heir: heir.id };
    },
    payload: (w) => ({ user_id: w.extra.heir }),
  },
  { method: 'GET', ...P('/roles'), scopes, role: 'viewer', okStatus: 200 },
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/members/${w.owner.id}`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/members/${w.owner.id}`,
    scopes,
    role: 'viewer',
    okStatus: 200,
  },
  { method: 'GET', ...P('/settings/history'), scopes, role: 'admin', okStatus: 200 },
  { method: 'GET', ...P('/logos'), scopes, role: 'viewer', okStatus: 200 },
  { method: 'POST', ...P('/logos'), scopes, role: 'admin', okStatus: 201, payload: () => ({ name: 'Client', image, position: 'bottom-left' }) },
  { method: 'GET', ...L(), scopes, role: 'viewer', okStatus: 200, setup: logoSetup },
  { method: 'GET', ...L('/image'), scopes, role: 'viewer', okStatus: 200, setup: logoSetup },
  { method: 'PATCH', ...L(), scopes, role: 'admin', okStatus: 200, setup: logoSetup, payload: () => ({ name: 'Renamed logo' }) },
  { method: 'DELETE', ...L(), scopes, role: 'admin', okStatus: 204, setup: logoSetup },
  { method: 'GET', ...P('/thumbnail'), scopes, role: 'viewer', okStatus: 200, setup: thumbSetup },
  { method: 'PUT', ...P('/thumbnail'), scopes, role: 'admin', okStatus: 200, payload: () => ({ image }) },
  {
    method: 'POST',
    ...P('/thumbnail/from-camera'),
    scopes,
    role: 'admin',
    okStatus: 200,
    setup: async (t, w) => {
      await recordFrame(t, w.owner, w.cameraExid);
      return {};
    },
    payload: (w) => ({ camera_exid: w.cameraExid }),
    otherPayload: (w) => ({ camera_exid: w.otherCameraExid }),
  },
  { method: 'DELETE', ...P('/thumbnail'), scopes, role: 'admin', okStatus: 204, setup: thumbSetup },
  { method: 'GET', ...C('/settings'), scopes, role: 'admin', okStatus: 200 },
  { method: 'PATCH', ...C('/settings'), scopes, role: 'admin', okStatus: 200, payload: () => ({ name: 'North gate' }) },
  { method: 'PATCH', ...C('/settings/location'), scopes, role: 'admin', okStatus: 200, payload: () => ({ location: { lat: 53.35, lng: -6.26 } }) },
  { method: 'PATCH', ...C('/settings/orientation'), scopes, role: 'admin', okStatus: 200, payload: () => ({ heading: 270, fov: 90 }) },
  { method: 'PATCH', ...C('/settings/timezone'), scopes, role: 'admin', okStatus: 200, payload: () => ({ timezone: 'Europe/Dublin' }) },
  { method: 'PATCH', ...C('/settings/visibility'), scopes, role: 'admin', okStatus: 200, payload: () => ({ is_public: true }) },
  {
    method: 'PUT',
    ...C('/settings/connection'),
    scopes,
    role: 'admin',
    okStatus: 200,
    payload: () => ({ snapshot_url: 'http://127.0.0.1:9/snap.jpg', username: 'cam', password: 'secret' }),
  },
  { method: 'POST', ...C('/settings/connection/check'), scopes, role: 'admin', okStatus: 200, payload: () => ({}) },
  { method: 'GET', ...C('/settings/recording'), scopes, role: 'admin', okStatus: 200 },
  { method: 'PATCH', ...C('/settings/recording'), scopes, role: 'admin', okStatus: 200, payload: () => ({ status: 'paused', frequency: 2 }) },
  { method: 'GET', ...C('/settings/history'), scopes, role: 'admin', okStatus: 200 },
  { method: 'DELETE', ...C(), scopes, role: 'admin', okStatus: 204 },
];

describe('settings endpoints: access', () => {
  it('covers the 28 endpoints', () => {
    if (specs.length !== 28) throw new Error(`expected 28 specs, got ${specs.length}`);
  });
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', cameraExid: '{camera_exid}', extra: { logo: '{logo_id}' }, owner: { id: '{user_id}' } } as never)}`, async () => {
      await checkEndpointAccess(tp, spec);
    });
  }
});
