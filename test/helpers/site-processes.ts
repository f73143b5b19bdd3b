// Processes in a site namespace (netns.ts) for the site-link tests: the CLI run there to its end, the
// recorder's own API called from inside (the only place it can be reached), and a wait for a condition.
import { CLI, ROOT } from './cli.js';
import type { SiteHost } from './netns.js';

/** Polls `fn` every 250 ms until it gives something truthy; the last error is in the timeout's message. */
export async function until<T>(what: string | (() => string), fn: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Runs `overlook …` inside the namespace to its end (SQLite, whatever the test's environment says). */
export const siteCliIn =
  (site: SiteHost) =>
  (args: string[]): Promise<{ status: number | null; out: string }> => {
    const proc = site.run(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' } });
    let out = '';
    proc.stdout?.on('data', (d) => (out += d));
    proc.stderr?.on('data', (d) => (out += d));
    return new Promise((resolve) => proc.on('close', (status) => resolve({ status, out })));
  };

/** Calls the recorder's API on the namespace's loopback, from a Node process inside the namespace. */
export const recorderApiIn =
  (site: SiteHost, port: number) =>
  async (method: string, path: string, body?: unknown, bearer?: string): Promise<{ status: number; json: any }> => {
    const script = `
    const res = await fetch('http://127.0.0.1:${port}' + ${JSON.stringify(path)}, {
      method: ${JSON.stringify(method)},
      headers: { 'content-type': 'application/json'${bearer ? `, authorization: 'Bearer ${bearer}'` : ''} },
      body: ${body ? JSON.stringify(JSON.stringify(body)) : 'undefined'},
    });
    const text = await res.text();
    process.stdout.write(JSON.stringify({ status: res.status, json: text ? JSON.parse(text) : null }));`;
    const proc = site.run(process.execPath, ['--input-type=module', '-e', script]);
    let out = '';
    let err = '';
    proc.stdout?.on('data', (d) => (out += d));
    proc.stderr?.on('data', (d) => (err += d));
    await new Promise((r) => proc.on('close', r));
    if (!out) throw new Error(`the recorder did not answer ${method} ${path}: ${err.slice(-500)}`);
    return JSON.parse(out) as { status: number; json: any };
  };
