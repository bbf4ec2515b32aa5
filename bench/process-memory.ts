/**
 * Resident memory of a process tree, read from /proc (Linux): what a user's `top` shows for
 * Assay, summed over every process it starts (the CLI or launcher, the embedded database,
 * next and its workers). A sampler polls the tree, because the processes come and go (the
 * database's one-off initdb child, next's workers) and each one's own peak (VmHWM) is only
 * readable while it lives.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  pid: number;
  /** The command line, shortened, to say which process a figure is. */
  command: string;
  rssMb: number;
  /** The process's own peak resident set (VmHWM) so far. */
  peakMb: number;
}

function statusField(status: string, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) / 1024 : 0;
}

function parentOf(pid: number): number | null {
  try {
    // the command name (field 2) may hold spaces and parentheses: the parent follows its last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The root and all its live descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function processMemory(pid: number): ProcessMemory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    if (!/^VmRSS:/m.test(status)) return null; // a zombie: its memory is gone, its last reading stands
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).map((a) => a.replace(/^.*\/node_modules\//, '')).join(' ');
    return { pid, command: command.slice(0, 90), rssMb: statusField(status, 'VmRSS'), peakMb: statusField(status, 'VmHWM') };
  } catch {
    return null; // exited between the listing and the read
  }
}

export interface TreeSampler {
  /** Highest sum over the live processes of their resident sets, as sampled. */
  peakSumRssMb(): number;
  /**
   * Highest sum over the processes alive at one sample of their own peaks (VmHWM): an upper
   * bound of the tree's true peak that a short spike between two samples cannot escape.
   */
  peakSumHwmMb(): number;
  /** The latest reading of every process seen (its peak is the last one read while it lived). */
  processes(): ProcessMemory[];
  /** The current sum of resident sets. */
  currentRssMb(): number;
  stop(): void;
}

/** Samples the tree under `root` every `everyMs`; `countRoot: false` leaves the root out (npm, running a script). */
export function sampleTree(root: number, opts: { everyMs?: number; countRoot?: boolean } = {}): TreeSampler {
  const seen = new Map<number, ProcessMemory>();
  let sumRss = 0;
  let sumHwm = 0;
  let current = 0;
  const sample = () => {
    let rss = 0;
    let hwm = 0;
    for (const pid of processTree(root)) {
      if (pid === root && opts.countRoot === false) continue;
      const m = processMemory(pid);
      if (!m) continue;
      seen.set(pid, m);
      rss += m.rssMb;
      hwm += m.peakMb;
    }
    current = rss;
    sumRss = Math.max(sumRss, rss);
    sumHwm = Math.max(sumHwm, hwm);
  };
  sample();
  const timer = setInterval(sample, opts.everyMs ?? 100);
  return {
    peakSumRssMb: () => sumRss,
    peakSumHwmMb: () => sumHwm,
    processes: () => [...seen.values()],
    currentRssMb: () => (sample(), current),
    stop: () => {
      sample();
      clearInterval(timer);
    },
  };
}
