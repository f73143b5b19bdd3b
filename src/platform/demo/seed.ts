// Demo data for `overlook up`: created once, on first start, through the same services the API uses.
import { randomBytes } from 'node:crypto';
import { createUser, findUserByEmail } from '../users/index.js';
import type { Needs } from '../plugins/feature.js';

export interface DemoData {
  email: string;
  password: string;
  projects: string[];
  cameras: string[];
}

export const DEMO_EMAIL = 'demo@overlook.local';

export async function seedDemoData(s: Needs<'db' | 'projects' | 'directory' | 'cameras' | 'recordingSettings'>): Promise<DemoData | null> {
  if (await findUserByEmail(s.db, DEMO_EMAIL)) return null;
  const password = randomBytes(9).toString('base64url');
  const user = await createUser(s.db, { email: DEMO_EMAIL, password, firstname: 'Demo', lastname: 'User' });

  const tower = await s.projects.create(user.id, { name: 'Harbour Tower', timezone: 'Europe/Dublin' });
  const bridge = await s.projects.create(user.id, { name: 'Riverside Bridge', timezone: 'Europe/London' });
  const ref = async (exid: string) => {
    const p = await s.directory.projectByExid(exid);
    if (!p.found) throw new Error(`demo project ${exid} vanished`);
    return { id: p.id, exid: p.exid };
  };
  const cams = [
    await s.cameras.create(user.id, { name: 'Tower crane', project: await ref(tower.exid), simulated: true, location: { lat: 53.3478, lng: -6.2597 } }),
    await s.cameras.create(user.id, { name: 'Tower gate', project: await ref(tower.exid), simulated: true, location: { lat: 53.3471, lng: -6.2589 } }),
    await s.cameras.create(user.id, { name: 'Bridge deck', project: await ref(bridge.exid), simulated: true, location: { lat: 51.5055, lng: -0.0754 } }),
  ];
  // A first real health check of each camera records its status and a battery reading.
  for (const c of cams) await s.cameras.checkHealth(c.exid);
  // Cloud recording on: one snapshot a minute, kept two days (a new camera's default is off).
  for (const c of cams) await s.recordingSettings.update(c.exid, user.id, { status: 'on', frequency: 1, storage_duration: 2 });
  await s.cameras.addNote(cams[0]!.exid, user.id, { content: 'Crane camera re-aimed at the east core after the pour.', is_public: true });
  return { email: DEMO_EMAIL, password, projects: [tower.exid, bridge.exid], cameras: cams.map((c) => c.exid) };
}
