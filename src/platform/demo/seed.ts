// Demo data for `overlook up`: created once, on first start, through the same services the API uses.
// Besides the projects and cameras, a week of what a working site leaves behind, so every screen
// opens with something in it: a frame an hour of each camera, the gate camera's plate reads (with a
// watch list naming the regular suppliers), comments on frames, media hub items and a video wall.
import { randomBytes } from 'node:crypto';
import { simulatedSceneAt } from '../cameras/index.js';
import { createUser, findUserByEmail } from '../users/index.js';
import type { Needs } from '../plugins/feature.js';

export interface DemoData {
  email: string;
  password: string;
  projects: string[];
  cameras: string[];
}

export const DEMO_EMAIL = 'demo@overlook.local';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Days of history the demo cameras start with, and keep (their recording's storage duration). */
export const DEMO_HISTORY_DAYS = 7;

/** Vehicles through the Tower gate: the first two are the watch list's suppliers. */
const VEHICLES = [
  { plate: '201D12345', label: 'Readymix Concrete' },
  { plate: '191D5501', label: 'Steel deliveries' },
  { plate: '221D7077', label: null },
  { plate: '182KE4410', label: null },
  { plate: '231D90210', label: null },
  { plate: '161WW3187', label: null },
] as const;

const COMMENTS = [
  { camera: 0, hoursAgo: 30, x: 0.42, y: 0.35, content: 'Core wall formwork struck: east face looks clean.' },
  { camera: 0, hoursAgo: 76, x: 0.7, y: 0.3, content: 'Crane idle all afternoon: wind above the limit.' },
  { camera: 1, hoursAgo: 50, x: 0.25, y: 0.7, content: 'Concrete truck waiting at the gate for 40 minutes.' },
  { camera: 2, hoursAgo: 100, x: 0.5, y: 0.55, content: 'Deck pour finished; curing blankets on.' },
];

/** A small number from an index, the same on every run (no randomness in demo data). */
const jitter = (i: number, range: number) => (((i * 7919) % 97) / 97) * range;

type DemoNeeds = Needs<
  'db' | 'projects' | 'directory' | 'cameras' | 'recordingSettings' | 'snapshotWriter' | 'anpr' | 'anprGates' | 'comments' | 'mediaHub' | 'videoWalls'
>;

export async function seedDemoData(s: DemoNeeds, now = new Date()): Promise<DemoData | null> {
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
  const towerRef = await ref(tower.exid);
  const cams = [
    await s.cameras.create(user.id, { name: 'Tower crane', project: towerRef, simulated: true, location: { lat: 53.3478, lng: -6.2597 } }),
    await s.cameras.create(user.id, { name: 'Tower gate', project: towerRef, simulated: true, location: { lat: 53.3471, lng: -6.2589 } }),
    await s.cameras.create(user.id, { name: 'Bridge deck', project: await ref(bridge.exid), simulated: true, location: { lat: 51.5055, lng: -0.0754 } }),
  ];
  // A first real health check of each camera records its status and a battery reading.
  for (const c of cams) await s.cameras.checkHealth(c.exid);
  // Cloud recording on: one snapshot a minute, kept as long as the history reaches back (a new camera's default is off).
  for (const c of cams) await s.recordingSettings.update(c.exid, user.id, { status: 'on', frequency: 1, storage_duration: DEMO_HISTORY_DAYS });
  await s.cameras.addNote(cams[0]!.exid, user.id, { content: 'Crane camera re-aimed at the east core after the pour.', is_public: true });

  await seedFrames(s, cams, now);
  await seedPlates(s, towerRef.id, cams[1]!.exid, user.id, now);
  const owner = { userId: user.id, role: 'owner' as const };
  for (const c of COMMENTS) {
    const cam = cams[c.camera]!;
    const at = new Date(Math.floor((now.getTime() - c.hoursAgo * HOUR) / HOUR) * HOUR).toISOString();
    await s.comments.create(await ref(cam.project_exid), owner, { camera_exid: cam.exid, timestamp: at, position2d: { x: c.x, y: c.y }, content: c.content });
  }
  await seedMedia(s, towerRef, cams[0]!.exid, user.id, now);
  // The site office's screen: both Tower cameras side by side (the web app's #/walls/{id}).
  await s.videoWalls.create(user.id, towerRef.id, {
    name: 'Site office',
    rows: 1,
    columns: 2,
    tiles: [
      { row: 0, column: 0, camera_exid: cams[0]!.exid },
      { row: 0, column: 1, camera_exid: cams[1]!.exid },
    ],
  });
  return { email: DEMO_EMAIL, password, projects: [tower.exid, bridge.exid], cameras: cams.map((c) => c.exid) };
}

/** A frame an hour of each camera over the history, drawn as the simulated camera showed it then. */
async function seedFrames(s: DemoNeeds, cams: { exid: string }[], now: Date): Promise<void> {
  const lastHour = Math.floor(now.getTime() / HOUR) * HOUR;
  for (const c of cams) {
    const row = await s.cameras.row(c.exid);
    for (let h = DEMO_HISTORY_DAYS * 24 - 1; h >= 0; h--) {
      const takenAt = new Date(lastHour - h * HOUR);
      await s.snapshotWriter.store(row.id, { jpeg: await simulatedSceneAt(row, takenAt), takenAt }, { source: 'schedule' });
    }
  }
}

/** The gate camera reads each vehicle in the morning and out in the afternoon, every day of the history. */
async function seedPlates(s: DemoNeeds, projectId: string, gateExid: string, userId: string, now: Date): Promise<void> {
  await s.anprGates.setRole(gateExid, userId, 'both');
  for (const v of VEHICLES) if (v.label) await s.anpr.watch(projectId, userId, { plate: v.plate, label: v.label });
  const today = Math.floor(now.getTime() / DAY) * DAY;
  let i = 0;
  for (let d = DEMO_HISTORY_DAYS - 1; d >= 0; d--) {
    for (const v of VEHICLES) {
      i++;
      const entry = today - d * DAY + 7 * HOUR + jitter(i, 3 * HOUR);
      const exit = today - d * DAY + 15 * HOUR + jitter(i + 3, 3 * HOUR);
      for (const [at, direction] of [
        [entry, 'in'],
        [exit, 'out'],
      ] as const) {
        if (at > now.getTime()) continue;
        const confidence = Math.round((0.82 + jitter(i, 0.17)) * 100) / 100;
        await s.anpr.ingest(gateExid, null, { plate_number: v.plate, captured_at: new Date(Math.round(at)).toISOString(), direction, confidence });
      }
    }
  }
}

/** A link and a picture in the media hub: ready at once, nothing to render. */
async function seedMedia(s: DemoNeeds, project: { id: string; exid: string }, craneExid: string, userId: string, now: Date): Promise<void> {
  await s.mediaHub.create(project, userId, {
    type: 'url',
    title: 'Site plan on the map',
    url: 'https://www.openstreetmap.org/#map=18/53.3475/-6.2593',
    camera_exid: craneExid,
  });
  const crane = await s.cameras.row(craneExid);
  const picture = await simulatedSceneAt(crane, new Date(now.getTime() - 2 * DAY));
  await s.mediaHub.create(project, userId, {
    type: 'file',
    title: 'Crane view two days ago',
    file: picture.toString('base64'),
    file_name: 'crane-two-days-ago.jpg',
    content_type: 'image/jpeg',
    camera_exid: craneExid,
  });
}
