// A recorder as `overlook recorder serve` runs it (startRecorder: recovery, recording, the platform
// link), on a data dir a test keeps across restarts, with an admin signed in.
import { startRecorder, type RunningRecorder } from '../../src/recorder/server.js';

export interface ServedRecorder {
  running: RunningRecorder;
  admin: { authorization: string };
  /** GET /api/link as the admin. */
  link(): Promise<{ state: string; connected: boolean; last_error: string | null; backlog: { items: number; bytes: number } }>;
}

export async function serveRecorder(dataDir: string, env: Record<string, string> = {}): Promise<ServedRecorder> {
  const running = await startRecorder(
    { dataDir, host: '127.0.0.1', port: 0 },
    { OVERLOOK_RECORDER_SEGMENT_SECONDS: '1', OVERLOOK_LOG_LEVEL: 'silent', ...env },
  );
  const { users } = running.app.recorder;
  if (!(await users.list()).some((u) => u.email === 'admin@example.com')) {
    await users.create({ email: 'admin@example.com', password: 'password-123', role: 'admin' });
  }
  const login = await running.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'admin@example.com', password: 'password-123' } });
  const admin = { authorization: `Bearer ${login.json().access_token as string}` };
  return {
    running,
    admin,
    link: async () => (await running.app.inject({ method: 'GET', url: '/api/link', headers: admin })).json(),
  };
}
