// The tab sets of a project's and a camera's screens, in one place so every screen shows the same.
import { href } from './router.js';

export const projectTabs = (project, current) => [
  { href: href('projects', project), label: 'Cameras', current: current === 'cameras' },
  { href: href('projects', project, 'media'), label: 'Media hub', current: current === 'media' },
  { href: href('projects', project, 'comments'), label: 'Comments', current: current === 'comments' },
  { href: href('projects', project, 'members'), label: 'Members', current: current === 'members' },
  { href: href('projects', project, 'recorders'), label: 'Site recorders', current: current === 'recorders' },
  { href: href('projects', project, 'gate'), label: 'Gate report', current: current === 'gate' },
  { href: href('projects', project, 'walls'), label: 'Video walls', current: current === 'walls' },
  { href: href('projects', project, 'settings'), label: 'Settings', current: current === 'settings' },
];

export const cameraTabs = (camera, current) => [
  { href: href('cameras', camera), label: 'Live', current: current === 'live' },
  { href: href('cameras', camera, 'recordings'), label: 'Recordings', current: current === 'recordings' },
  { href: href('cameras', camera, 'anpr'), label: 'Number plates', current: current === 'anpr' },
  { href: href('cameras', camera, 'settings'), label: 'Settings', current: current === 'settings' },
];
