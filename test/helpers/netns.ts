// A second host for tests that need a network between hosts: a Linux network namespace joined to this
// one by a veth pair, the way a site LAN reaches the internet through a router. Processes started with
// `run` live in the namespace: their loopback is their own, and they reach this host only at
// `hostAddress`. Needs root and iproute2 (CI runs as root); `available()` says whether this machine can.
//
// Adding or removing the pair changes this host's addresses, and Chromium then fails the loads it has
// under way (net::ERR_NETWORK_CHANGED). So the pair is made by a globalSetup (site-host-setup.ts)
// before any file runs and removed after the last one: a test file takes it with `siteHost()`.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Null where this machine cannot make one; the reason when making it failed. */
    siteHost: SiteAddresses | { error: string } | null;
  }
}

/** What names a namespace and its pair: all a test file needs to use one another process made. */
export interface SiteAddresses {
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  /** This host's end of the veth pair. */
  hostInterface: string;
  /** This host's address on the veth pair: what a process in the namespace connects to. */
  hostAddress: string;
  /** The namespace's own address on the veth pair. */
  siteAddress: string;
}

export interface SiteHost extends SiteAddresses {
  /** Starts a process inside the namespace. */
  run(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Runs a command inside the namespace to its end and returns its standard output. */
  exec(command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string }): string;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** Whether this machine lets the tests make a namespace (root, iproute2). */
export function available(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    ip('netns', 'list');
    return true;
  } catch {
    return false;
  }
}

/** Makes a namespace with a veth pair on a /30 of its own (site-host-setup.ts); `removeSite` undoes it. */
export function makeSite(): SiteAddresses {
  // Random, not the process id: one vitest process makes a site per project. Interface names stay
  // within Linux's 15 characters.
  const tag = randomBytes(4).toString('hex');
  const name = `ovl-site-${tag}`;
  const hostInterface = `ovlh${tag}`;
  const siteIf = `ovls${tag}`;
  // A /30 in a block no real network of this machine uses, and none of another site's (each project's
  // run makes one); only the two ends of the pair live there.
  const taken = ip('-4', '-o', 'addr', 'show');
  const free = Array.from({ length: 250 }, (_, i) => i + 1).filter((n) => !taken.includes(`10.231.${n}.`));
  const net = free[Math.floor(Math.random() * free.length)];
  if (net === undefined) throw new Error('no free /30 left in 10.231.0.0/16 for a site namespace');
  const hostAddress = `10.231.${net}.1`;
  const siteAddress = `10.231.${net}.2`;
  ip('netns', 'add', name);
  try {
    ip('link', 'add', hostInterface, 'type', 'veth', 'peer', 'name', siteIf);
    ip('link', 'set', siteIf, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostInterface);
    ip('link', 'set', hostInterface, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${siteAddress}/30`, 'dev', siteIf);
    ip('netns', 'exec', name, 'ip', 'link', 'set', siteIf, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (err) {
    ip('netns', 'del', name);
    throw err;
  }
  return { name, hostInterface, hostAddress, siteAddress };
}

export function removeSite(site: SiteAddresses): void {
  try {
    ip('link', 'del', site.hostInterface);
  } catch {}
  try {
    ip('netns', 'del', site.name);
  } catch {}
}

/**
 * The namespace of this file's project (site-host-setup.ts). One per project: two files of a project
 * that use it at once share the site's ports, as two programs on one machine would.
 */
export function siteHost(): SiteHost {
  const site = inject('siteHost');
  if (!site) throw new Error('no site namespace: add test/helpers/site-host-setup.ts to this project’s globalSetup (vitest.config.ts)');
  if ('error' in site) throw new Error(`the site namespace could not be made: ${site.error}`);
  const { name } = site;
  return {
    ...site,
    run: (command, args, options = {}) => spawn('ip', ['netns', 'exec', name, command, ...args], options),
    exec: (command, args, options = {}) =>
      execFileSync('ip', ['netns', 'exec', name, command, ...args], { env: options.env ?? process.env, input: options.input }).toString(),
  };
}
