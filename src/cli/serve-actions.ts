// What `overlook serve` and `overlook up` do (platform-commands.ts defines them), loaded only when one
// of them runs.
import { processEnv, resolveAddress } from '../lib/config.js';
import { serveUntilSignalled } from '../lib/process/serve-until-signalled.js';
import { startPlatform } from '../platform/server.js';
import { DEMO_EMAIL, seedDemoData } from '../platform/demo/seed.js';
import { demoCredentialsFile, writeDemoCredentials } from './demo-credentials.js';
import { startCompanions } from './companions.js';
import { servicesOf } from '../platform/plugins/feature.js';
import type { ServeOpts } from './command-options.js';

/** ` --data-dir D` when the command was given one, for a command line it prints. */
const dataDirFlag = (opts: { dataDir?: string }) => (opts.dataDir ? ` --data-dir ${JSON.stringify(opts.dataDir)}` : '');

/** The URL this process reaches a listening address at (a wildcard host is reached on loopback). */
function reachableUrl(a: { host: string; port: number }): string {
  const host = a.host === '0.0.0.0' ? '127.0.0.1' : a.host === '::' ? '::1' : a.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
}

export async function serve(opts: ServeOpts): Promise<void> {
  const running = await startPlatform(opts);
  process.stdout.write(`overlook: main API listening on ${running.url}\n`);
  serveUntilSignalled(running.close);
}

export async function up(opts: ServeOpts): Promise<void> {
  const companions = (['mcp', 'ai', 'labs'] as const).map((service) => resolveAddress(service, { host: opts.host }));
  const env = processEnv();
  // The web app's gate report reaches this process's AI API through the main API (docs/decisions.md).
  const running = await startPlatform(opts, { OVERLOOK_AI_URL: reachableUrl(companions[1]!), ...env }, companions);
  // The other services listen on their own ports (OVERLOOK_MCP_PORT, OVERLOOK_AI_PORT, OVERLOOK_LABS_PORT)
  // and reach this main API at the address it really listens on; --port moves the main API only.
  const others = await startCompanions(running.url, { host: opts.host });
  const demo = await seedDemoData(servicesOf(running.app));
  const dataDir = running.config.dataDir;
  if (demo) {
    const kept = writeDemoCredentials(dataDir, demo.email, demo.password);
    process.stdout.write(
      `overlook: demo data created (projects ${demo.projects.join(', ')}; cameras ${demo.cameras.join(', ')})\n  sign in as ${demo.email} / ${demo.password}  (kept in ${kept})\n`,
    );
  } else {
    process.stdout.write(
      `overlook: demo sign-in: see ${demoCredentialsFile(dataDir)} (or: overlook users reset-password --email ${DEMO_EMAIL}${dataDirFlag(opts)})\n`,
    );
  }
  process.stdout.write(
    `overlook: main API  ${running.url}\n  web app   ${running.url}/  (sign in with the demo credentials)\n  keys page ${running.url}/keys\n  API docs  ${running.url}/docs\n`,
  );
  process.stdout.write(`overlook: MCP       ${others.mcp.resourceUrl}\n`);
  process.stdout.write(`overlook: AI API    ${others.ai}\n`);
  process.stdout.write(`overlook: Labs API  ${others.labs}\n`);
  serveUntilSignalled(async () => {
    await others.close();
    await running.close();
  });
}
