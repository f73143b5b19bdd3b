// CPU and memory of a process and its direct children (a recorder and its ffmpegs), read from /proc.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** Clock ticks per second, the unit of the CPU times in /proc/<pid>/stat. */
export const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

function statOf(pid: number): { ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

/** The process and its children: CPU ticks and resident memory, summed. */
export function usage(root: number): { ticks: number; rssKb: number; processes: number } {
  const pids = [root];
  for (const p of readdirSync('/proc')) if (/^\d+$/.test(p) && statOf(Number(p))?.ppid === root) pids.push(Number(p));
  let ticks = 0;
  let rssKb = 0;
  for (const pid of pids) {
    ticks += statOf(pid)?.ticks ?? 0;
    try {
      rssKb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* exited meanwhile */
    }
  }
  return { ticks, rssKb, processes: pids.length };
}

/** The machine, as the benchmarks report it. */
export function machine(): string {
  const c = cpus();
  return `${c.length} × ${c[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}
