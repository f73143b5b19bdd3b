// What the request-path benchmarks read: a person signed in, a project, a simulated camera, a key that
// may read it and a key on the project without `cameras:read` (refused with 403 after the whole check).
export type Headers = Record<string, string>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(url: string, init: { method?: string; headers?: Headers; body?: string } = {}): Promise<any> {
  const req = () => fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  // Once more on a network error: a kept-alive connection the server closed meanwhile (minutes of wrk) fails the first write.
  const res = await req().catch(req);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

export interface BenchWorld {
  jwt: Headers;
  key: Headers;
  refusedKey: Headers;
  project: { exid: string };
  camera: { exid: string };
  /** `GET /v2/cameras/{camera_exid}` on the platform at `url`. */
  cameraUrl: (url: string) => string;
}

/** Signs in as the person (made beforehand with `overlook users create`) and makes the rest through the API at `url`. */
export async function benchWorld(url: string, email: string, password: string): Promise<BenchWorld> {
  const { token } = await json(`${url}/v2/auth/login`, { method: 'POST', body: JSON.stringify({ username: email, password }) });
  const jwt = { authorization: `Bearer ${token}` };
  const project = await json(`${url}/v2/projects`, { method: 'POST', headers: jwt, body: JSON.stringify({ name: 'Bench site' }) });
  const camera = await json(`${url}/v2/cameras`, {
    method: 'POST',
    headers: jwt,
    body: JSON.stringify({ name: 'Bench cam', project_exid: project.exid, simulated: true }),
  });
  const expires_at = new Date(Date.now() + 86_400_000).toISOString();
  const newKey = async (name: string, scopes: string[]) =>
    (await json(`${url}/v2/api-keys`, { method: 'POST', headers: jwt, body: JSON.stringify({ name, expires_at, projects: [project.exid], scopes }) }))
      .key as string;
  const key = { 'x-access-key': await newKey('bench', ['cameras:read', 'camera:recordings', 'camera:live_view']) };
  const refusedKey = { 'x-access-key': await newKey('bench refused', ['projects:read']) };
  return { jwt, key, refusedKey, project, camera, cameraUrl: (u) => `${u}/v2/cameras/${camera.exid}` };
}
