// A second host for tests that need a network between hosts: a Linux network namespace joined to this
// one by a veth pair, the way a site LAN reaches the internet through a router. Processes started with
// `run` live in the namespace: their loopback is their own, and they reach this host only at
// `hostAddress`. Needs root and iproute2 (CI runs as root); `available()` says whether this machine can.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface SiteHost {
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  /** This host's address on the veth pair: what a process in the namespace connects to. */
  hostAddress: string;
  /** The namespace's own address on the veth pair. */
  siteAddress: string;
  /** Starts a process inside the namespace. */
  run(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Runs a command inside the namespace to its end and returns its standard output. */
  exec(command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string }): string;
  close(): void;
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

/** Makes a namespace with a veth pair on a /30 of its own; `close()` removes both. */
export function makeSiteHost(): SiteHost {
  const tag = `${process.pid % 10000}${Math.floor(Math.random() * 100)}`;
  const name = `ovl-site-${tag}`;
  const hostIf = `ovlh${tag}`;
  const siteIf = `ovls${tag}`;
  // A /30 in a block no real network of this machine uses; only the two ends of the pair live there.
  const net = 1 + Math.floor(Math.random() * 250);
  const hostAddress = `10.231.${net}.1`;
  const siteAddress = `10.231.${net}.2`;
  ip('netns', 'add', name);
  try {
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', siteIf);
    ip('link', 'set', siteIf, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${siteAddress}/30`, 'dev', siteIf);
    ip('netns', 'exec', name, 'ip', 'link', 'set', siteIf, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (err) {
    ip('netns', 'del', name);
    throw err;
  }
  return {
    name,
    hostAddress,
    siteAddress,
    run: (command, args, options = {}) => spawn('ip', ['netns', 'exec', name, command, ...args], options),
    exec: (command, args, options = {}) =>
      execFileSync('ip', ['netns', 'exec', name, command, ...args], { env: options.env ?? process.env, input: options.input }).toString(),
    close() {
      try {
        ip('link', 'del', hostIf);
      } catch {}
      try {
        ip('netns', 'del', name);
      } catch {}
    },
  };
}
